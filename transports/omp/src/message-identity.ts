import { createHash, randomUUID } from 'node:crypto'
import type { UserMessage } from './omp-types.js'

/**
 * Gives OMP user messages stable item ids, so a message that comes back (a redelivery, or OMP echoing
 * what it already accepted) is recognised. A message with a timestamp is identified by its timestamp,
 * its content and its order among equal messages of the same batch; one without a timestamp only by
 * object identity (content alone could make two real messages look like one).
 */
export class MessageIdentity {
  readonly #byObject = new WeakMap<object, string>()
  readonly #accepted = new Set<string>()
  readonly #acceptedObjects = new WeakSet<object>()

  /** Ids for one batch, in order. */
  idsFor(messages: readonly UserMessage[]): string[] {
    const seen = new Map<string, number>()
    return messages.map((message) => {
      const known = this.#byObject.get(message)
      if (known !== undefined) return known
      if (typeof message.timestamp !== 'number' || !Number.isFinite(message.timestamp)) {
        const id = `omp:${randomUUID()}`
        this.#byObject.set(message, id)
        return id
      }
      const key = `omp:${message.timestamp}:${contentHash(message)}`
      const occurrence = seen.get(key) ?? 0
      seen.set(key, occurrence + 1)
      return occurrence === 0 ? key : `${key}:${occurrence}`
    })
  }

  remember(message: UserMessage, id: string): void {
    this.#accepted.add(id)
    this.#acceptedObjects.add(message)
  }

  wasAccepted(message: UserMessage, id: string): boolean {
    return this.#acceptedObjects.has(message) || this.#accepted.has(id)
  }
}

function contentHash(message: UserMessage): string {
  const content =
    typeof message.content === 'string'
      ? message.content
      : JSON.stringify(message.content.map((part) => (part.type === 'text' ? ['text', part.text] : [part.type, part.mimeType, part.data])))
  return createHash('sha256').update(content).digest('hex').slice(0, 16)
}
