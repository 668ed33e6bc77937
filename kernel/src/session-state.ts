import { compactedMessages } from './compaction/summary-message.js'
import { TokenTally } from './compaction/token-tally.js'
import type { Halt } from './decisions.js'
import type { Message } from './messages.js'
import type { SessionEvent } from './session-events.js'

/** Messages derived from log events, incrementally: `message` events and tool results. */
export class Transcript {
  readonly messages: Message[] = []
  /** The compactor's size estimate of `messages`, kept up as they grow (read only when a compactor asks). */
  readonly #tally = new TokenTally(this.messages)
  readonly recordedSteeringIds = new Set<string>()
  /** Steering items a policy consumed without recording; a redelivery of one is not fed again. */
  readonly droppedSteeringIds = new Set<string>()
  /** Tool calls recorded in an assistant message whose result is not yet recorded. */
  readonly openCalls = new Map<string, { turnId: string | undefined }>()
  /** Each driver's own session id for this session (`driver/session` events), for resume. */
  readonly nativeIds = new Map<string, string>()
  turns = 0
  openTurnId: string | undefined

  apply(event: SessionEvent): void {
    switch (event.type) {
      case 'message':
        this.messages.push(event.message)
        for (const block of event.message.content) if (block.type === 'tool_call') this.openCalls.set(block.id, { turnId: event.turnId })
        break
      case 'tool/result':
        this.openCalls.delete(event.callId)
        this.messages.push({
          role: 'tool',
          content: [{ type: 'tool_result', callId: event.callId, output: event.output, isError: event.isError }],
          source: { kind: 'tool' },
        })
        break
      case 'steering/accepted':
        for (const id of event.itemIds) this.recordedSteeringIds.add(id)
        for (const id of event.droppedIds) this.droppedSteeringIds.add(id)
        break
      case 'driver/session':
        this.nativeIds.set(event.driver, event.nativeId)
        break
      case 'turn/start':
        this.turns++
        this.openTurnId = event.turnId
        break
      case 'turn/end':
        this.openTurnId = undefined
        break
      case 'compaction': {
        const compacted = compactedMessages(this.messages, event)
        this.messages.length = 0
        for (const message of compacted) this.messages.push(message)
        this.#tally.restart()
        break
      }
    }
  }
}

export interface PendingSessionState {
  /** Context queued by `session.inject()` or session-start taps, recorded at the next step. */
  injected: Message[]
  /** Set by a session-start tap; ends the next turn before any model call. */
  halt: Halt | undefined
}
