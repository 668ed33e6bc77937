import type { Admission, DriverError, Entry, Message } from '@harness-kernel/kernel'
import { steeringItemIdOf } from '@harness-kernel/kernel'

interface Awaited {
  readonly entry: Entry
  /** `turn/start` input or a `turn/steer`. */
  readonly kind: 'prompt' | 'steer'
  /** The `turn/steer` got no answer by its deadline: Codex may or may not hold it. */
  ambiguous: boolean
}

/**
 * Entered input sent to Codex, waiting for its receipt: the `userMessage` `item/completed` whose
 * `clientId` is the `clientUserMessageId` it was sent with. Only that writes it to the kernel log;
 * input Codex never recorded goes back to its source, so the kernel's next turn carries it once.
 */
export class UserMessageReceipts {
  readonly #awaited = new Map<string, Awaited>()
  readonly #ambiguous: string[] = []

  expect(clientId: string, entry: Entry, kind: Awaited['kind']): void {
    this.#awaited.set(clientId, { entry, kind, ambiguous: false })
  }

  get size(): number {
    return this.#awaited.size
  }

  /** Codex recorded the message: the entry goes into the log and its claims are accepted. Returns what it was. */
  recorded(clientId: string | null | undefined): Awaited['kind'] | undefined {
    const awaited = clientId == null ? undefined : this.#awaited.get(clientId)
    if (!awaited) return undefined
    this.#awaited.delete(clientId as string)
    awaited.entry.record()
    return awaited.kind
  }

  /** Codex refused it, or cannot record it any more: its claims go back to their sources. */
  returned(clientId: string): void {
    const awaited = this.#awaited.get(clientId)
    if (!awaited) return
    this.#awaited.delete(clientId)
    awaited.entry.abandon()
  }

  ambiguous(clientId: string): void {
    const awaited = this.#awaited.get(clientId)
    if (awaited) awaited.ambiguous = true
  }

  /**
   * The turn is over and Codex recorded nothing more. A prompt it never recorded in a turn that completed
   * was blocked by its own UserPromptSubmit hook (consumed, not returned); an ambiguous steer is neither
   * re-sent nor returned (an error says so); everything else goes back to its source.
   */
  settleAtEnd(completed: boolean): DriverError | undefined {
    for (const [clientId, awaited] of [...this.#awaited]) {
      this.#awaited.delete(clientId)
      if (awaited.ambiguous) {
        this.#ambiguous.push(...idsOf(awaited.entry.messages, clientId))
        awaited.entry.record(dropped(awaited.entry.messages, 'ambiguous: Codex may or may not have recorded it; not re-sent'))
      } else if (awaited.kind === 'prompt' && completed) {
        awaited.entry.record(dropped(awaited.entry.messages, "blocked by Codex's UserPromptSubmit hook"))
      } else awaited.entry.abandon()
    }
    if (this.#ambiguous.length === 0) return undefined
    return {
      code: 'steering-ambiguous',
      message: `steering/ambiguous: turn/steer got no answer in time and Codex did not record steering item(s) ${this.#ambiguous.join(', ')}; they were not re-sent`,
      retryable: false,
    }
  }
}

function idsOf(messages: readonly Message[], fallback: string): string[] {
  const ids = messages.map(steeringItemIdOf).filter((id): id is string => id !== undefined)
  return ids.length > 0 ? ids : [fallback]
}

function dropped(messages: readonly Message[], reason: string): Admission[] {
  return messages.flatMap((message) => {
    const id = steeringItemIdOf(message)
    return id === undefined ? [] : [{ id, state: 'dropped' as const, reason }]
  })
}
