import { randomUUID } from 'node:crypto'
import type { SDKUserMessage } from '@anthropic-ai/claude-agent-sdk'
import type { Admission, DriverError, Entry, Message, TurnHost } from '@harness-kernel/kernel'
import { steeringItemIdOf } from '@harness-kernel/kernel'
import type { BlockedPrompt, CommandLifecycle } from './command-lifecycle.js'
import { messageText } from './content.js'

/** What the steering needs from the Claude Code session. */
export interface SteeringPort {
  submit(message: SDKUserMessage): void
  readonly lifecycle: CommandLifecycle
  /** `cancelAsyncMessage`: true when Claude Code dropped the message before it ran. */
  cancel(uuid: string): Promise<boolean>
  readonly admissionTimeoutMs: number
}

type ItemState = 'queued' | 'started' | 'blocked' | 'cancelled' | 'ambiguous'

interface FoldItem {
  /** The message uuid Claude Code's receipts name. */
  readonly uuid: string
  /** The kernel's steering item id (absent for a message a pre-step tap added). */
  readonly itemId: string | undefined
  readonly text: string
  state: ItemState
  reason?: string
}

/** Entered input submitted at one tool boundary, held until Claude Code has taken (or refused) every item. */
interface Fold {
  readonly entry: Entry
  readonly items: FoldItem[]
}

/**
 * Steering at tool boundaries (drivers.md §3.1): claimed input is submitted as `next` messages with a
 * uuid and no origin while the tool's result is parked; the result is released only after every item
 * is `queued`; an item is recorded once Claude Code took it (`started`, then the next model response),
 * dropped when its UserPromptSubmit blocked it, and returned to its source when it never ran.
 */
export class ToolBoundarySteering {
  readonly #port: SteeringPort
  readonly #host: TurnHost
  readonly #folds: Fold[] = []
  #ambiguous: string[] = []

  constructor(port: SteeringPort, host: TurnHost) {
    this.#port = port
    this.#host = host
  }

  /**
   * Claims at a parked tool call; resolves once the result may be released. Returns the context that
   * goes to the model with that result (developer input and pre-step context).
   */
  async atToolBoundary(step: number): Promise<Message[]> {
    const host = this.#host
    const claimed = await host.claim({ kind: 'tool', step })
    if (claimed.messages.length === 0) {
      claimed.settle()
      return []
    }
    const entry = await host.enter({ step, messages: claimed.messages, claimed })
    const steers = entry.messages.filter((message) => message.role === 'user')
    const context = [...entry.context, ...entry.messages.filter((message) => message.role !== 'user')]
    if (steers.length === 0) {
      entry.record()
      return context
    }
    const items: FoldItem[] = steers.map((message) => ({
      uuid: randomUUID(),
      itemId: steeringItemIdOf(message),
      text: messageText(message),
      state: 'queued',
    }))
    for (const item of items) {
      // Always a uuid (receipts), never an origin and never `now` (both change what Claude Code does with the parked call).
      this.#port.submit({
        type: 'user',
        message: { role: 'user', content: item.text },
        parent_tool_use_id: null,
        uuid: item.uuid,
        priority: 'next',
      } as SDKUserMessage)
    }
    const admitted = await Promise.all(items.map((item) => this.#port.lifecycle.admitted(item.uuid, this.#port.admissionTimeoutMs)))
    if (admitted.every(Boolean)) {
      this.#folds.push({ entry, items })
      return context
    }
    // No receipt by the deadline: take every item back before the result is released.
    const cancelled = await Promise.all(items.map((item) => this.#port.cancel(item.uuid)))
    if (cancelled.every(Boolean)) {
      entry.abandon()
      host.notice(
        'warning',
        `steering/returned: Claude Code did not acknowledge ${items.length} steering item(s) within ${this.#port.admissionTimeoutMs} ms; they were cancelled before they ran and go back to their source`,
      )
      return []
    }
    for (const [index, item] of items.entries()) item.state = cancelled[index] ? 'cancelled' : 'ambiguous'
    host.notice(
      'error',
      `steering/ambiguous: Claude Code did not acknowledge steering item(s) within ${this.#port.admissionTimeoutMs} ms and could not cancel them; they are neither re-sent nor returned`,
    )
    this.#folds.push({ entry, items })
    return context
  }

  started(uuid: string): void {
    const item = this.#item(uuid)
    if (item && (item.state === 'queued' || item.state === 'ambiguous')) item.state = 'started'
  }

  cancelled(uuid: string): void {
    const item = this.#item(uuid)
    if (item?.state === 'queued') item.state = 'cancelled'
  }

  /** Claude Code's own UserPromptSubmit blocked a folded message: the frame names only its text. */
  blocked({ prompt, reason }: BlockedPrompt): void {
    const started = this.#folds.flatMap((fold) => fold.items).filter((item) => item.state === 'started')
    const item = started.find((candidate) => candidate.text === prompt) ?? started.at(-1)
    if (!item) return
    item.state = 'blocked'
    item.reason = `blocked by Claude Code's UserPromptSubmit: ${reason}`
  }

  /** A model response began: input Claude Code took at the boundary before it is recorded there. */
  settleTaken(): void {
    for (const fold of [...this.#folds]) {
      if (fold.items.some((item) => item.state === 'queued' || item.state === 'ambiguous')) continue
      this.#record(fold)
    }
  }

  /**
   * The turn ended: what Claude Code still holds is cancelled (it would otherwise start a turn by itself)
   * and returned; what it took is recorded. Returns the error when an item's fate stays unknown.
   */
  async settleAtEnd(consumed: readonly string[] | undefined): Promise<DriverError | undefined> {
    for (const fold of this.#folds.splice(0)) {
      for (const item of fold.items) {
        if (item.state === 'started' && consumed && !consumed.includes(item.uuid)) {
          this.#host.notice(
            'warning',
            `Claude Code started steering item ${item.itemId ?? item.uuid} but did not list it in the turn's messages`,
          )
        }
        if (item.state !== 'queued') continue
        item.state = (await this.#port.cancel(item.uuid)) ? 'cancelled' : 'ambiguous'
      }
      if (fold.items.every((item) => item.state === 'cancelled')) fold.entry.abandon()
      else this.#record(fold)
    }
    if (this.#ambiguous.length === 0) return undefined
    return {
      code: 'steering-ambiguous',
      message: `steering/ambiguous: Claude Code may or may not have delivered steering item(s) ${this.#ambiguous.join(', ')}; they were not re-sent`,
      retryable: false,
    }
  }

  #record(fold: Fold): void {
    this.#folds.splice(this.#folds.indexOf(fold), 1)
    const admissions: Admission[] = []
    for (const item of fold.items) {
      if (item.itemId === undefined) continue
      if (item.state === 'started') admissions.push({ id: item.itemId, state: 'recorded' })
      else if (item.state === 'blocked') admissions.push({ id: item.itemId, state: 'dropped', reason: item.reason ?? 'blocked' })
      else if (item.state === 'ambiguous') {
        this.#ambiguous.push(item.itemId)
        admissions.push({ id: item.itemId, state: 'dropped', reason: 'ambiguous: Claude Code may or may not have delivered it' })
      } else admissions.push({ id: item.itemId, state: 'dropped', reason: 'cancelled by Claude Code before it ran' })
    }
    fold.entry.record(admissions)
  }

  #item(uuid: string): FoldItem | undefined {
    for (const fold of this.#folds) for (const item of fold.items) if (item.uuid === uuid) return item
    return undefined
  }
}
