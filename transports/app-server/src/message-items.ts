import { type SessionEvent, toolCallsOf } from '@harness-kernel/kernel'
import { agentMessageId } from './item-ids.js'
import { messageUsage, TokenUsageMeter, usageBreakdown } from './token-usage.js'
import { messageItem, stamped, streamingAgentItem, type WireItem } from './wire-items.js'

type Notify = (method: string, params: Record<string, unknown>) => void

interface Turn {
  id: string
  /** Agent messages recorded in the turn so far (the next one's place, for its id). */
  agentMessages: number
  lastAgent: WireItem | undefined
}

/**
 * The items of one thread's recorded messages: `userMessage`, `agentMessage` (streamed from the first
 * `item/agentMessage/delta`, completed by the recorded message), `hostInputMessage` (held for the claim's acceptance),
 * each stamped with `startedAtMs`/`completedAtMs`; and the token usage of each model response
 * (`thread/tokenUsage/updated`), reported once its sampling is done: right after a response without tool calls, at
 * the next step for one with tool calls (after their items), and before the turn's end.
 */
export class MessageItems {
  readonly usage = new TokenUsageMeter()
  readonly #threadId: string
  readonly #notify: Notify
  /** Holds a recorded host-input item until its claim is accepted (the thread's steering). */
  readonly #hold: (item: WireItem) => void
  #turn: Turn | undefined
  /** The agent message being streamed, until its recorded message completes it. */
  #streaming: { id: string; turnId: string; startedMs: number } | undefined

  constructor(threadId: string, notify: Notify, hold: (item: WireItem) => void) {
    this.#threadId = threadId
    this.#notify = notify
    this.#hold = hold
  }

  turnStarted(turnId: string): void {
    this.#turn = { id: turnId, agentMessages: 0, lastAgent: undefined }
  }

  /** The turn ends: its usage is reported; its last agent message is returned (the `turn/completed` summary). */
  turnEnded(): WireItem | undefined {
    this.reportUsage()
    const last = this.#turn?.lastAgent
    this.#turn = undefined
    this.#streaming = undefined
    return last
  }

  /** Streamed model text: the first delta of a message starts its item. */
  delta(turnId: string, delta: string): void {
    if (!this.#streaming) {
      const index = this.#turn?.id === turnId ? this.#turn.agentMessages : 0
      this.#streaming = { id: agentMessageId(turnId, index), turnId, startedMs: Date.now() }
      const item = stamped(streamingAgentItem(this.#streaming.id), this.#streaming.startedMs, null)
      this.#notify('item/started', { item, threadId: this.#threadId, turnId, startedAtMs: this.#streaming.startedMs })
    }
    this.#notify('item/agentMessage/delta', { threadId: this.#threadId, turnId, itemId: this.#streaming.id, delta })
  }

  /** A recorded message (`hostInput`: the connection negotiated host input, so host items show). */
  recorded(event: Extract<SessionEvent, { type: 'message' }>, hostInput: boolean): void {
    const usage = messageUsage(event.message)
    if (usage) {
      this.reportUsage()
      this.usage.add(event.turnId ?? this.#turn?.id ?? '', usage)
    }
    this.#item(event, hostInput)
    // A response without tool calls ends its sampling: its usage is reported now, after its agent message, as Codex does.
    if (usage && toolCallsOf(event.message).length === 0) this.reportUsage()
  }

  /** A step's usage recorded apart from its message (a driver learnt it late): reported at once. */
  usageRecorded(event: Extract<SessionEvent, { type: 'usage' }>): void {
    const usage = usageBreakdown(event.usage)
    if (!usage) return
    this.reportUsage()
    this.usage.add(event.turnId ?? this.#turn?.id ?? '', usage)
    this.reportUsage()
  }

  /** Sends the token usage of the last model response, if not sent yet. */
  reportUsage(): void {
    const params = this.usage.take(this.#threadId)
    if (params) this.#notify('thread/tokenUsage/updated', params)
  }

  #item(event: Extract<SessionEvent, { type: 'message' }>, hostInput: boolean): void {
    const item = messageItem(event, hostInput, this.#threadId, this.#turn?.agentMessages ?? 0)
    if (!item) return
    if (item.type === 'hostInputMessage') {
      this.#hold(item)
      return
    }
    const turnId = event.turnId ?? this.#turn?.id ?? null
    // A user message recorded while an agent message streams (a steer taken mid-response) leaves that item open.
    const streamed = item.type === 'agentMessage' ? this.#streaming : undefined
    if (item.type === 'agentMessage') {
      this.#streaming = undefined
      if (this.#turn) this.#turn.agentMessages++
    }
    const now = Date.now()
    const completed = streamed ? stamped({ ...item, id: streamed.id }, streamed.startedMs, now) : stamped(item, now, now)
    if (completed.type === 'agentMessage' && this.#turn) this.#turn.lastAgent = completed
    if (!streamed) this.#notify('item/started', { item: stamped(item, now, null), threadId: this.#threadId, turnId, startedAtMs: now })
    const params = {
      item: completed,
      threadId: this.#threadId,
      turnId: streamed?.turnId ?? turnId,
      contentTokenCount: null,
      completedAtMs: now,
    }
    this.#notify('item/completed', params)
  }
}
