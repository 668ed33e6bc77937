import type { Message } from '../messages.js'

/** The usage a provider recorded with a message (`meta.usage`), if any. */
export const usageOf = (message: Message): unknown => (message.meta as { usage?: unknown } | undefined)?.usage

/** A message's size as the estimate counts it: texts, tool results, and each call's name and JSON input. */
export function messageChars(message: Message): number {
  let chars = 0
  for (const block of message.content) {
    if (block.type === 'text') chars += block.text.length
    else if (block.type === 'tool_result') chars += block.output.length
    else chars += block.name.length + JSON.stringify(block.input ?? null).length
  }
  return chars
}

/** Where `estimateTokens` starts from: the last message with recorded usage, and the characters of those after it. */
export interface TallyReading {
  lastUsage: Message | undefined
  /** Characters after `lastUsage` (after nothing, without usage: every message). */
  chars: number
}

/**
 * A running count over a transcript's own messages, so that the compactor's check before every request costs what
 * was added since the last one rather than a recount of the whole conversation. Brought up to date when read (each
 * message is counted once, and nothing is counted in a session that never asks), restarted when the transcript
 * replaces its messages (a compaction).
 */
export class TokenTally {
  readonly #messages: readonly Message[]
  #counted = 0
  #reading: TallyReading = { lastUsage: undefined, chars: 0 }

  constructor(messages: readonly Message[]) {
    this.#messages = messages
    tallies.set(messages, this)
  }

  restart(): void {
    this.#counted = 0
    this.#reading = { lastUsage: undefined, chars: 0 }
  }

  read(): TallyReading {
    const messages = this.#messages
    let { lastUsage, chars } = this.#reading
    for (; this.#counted < messages.length; this.#counted++) {
      const message = messages[this.#counted] as Message
      if (usageOf(message) === undefined) chars += messageChars(message)
      else {
        lastUsage = message
        chars = 0
      }
    }
    this.#reading = { lastUsage, chars }
    return this.#reading
  }
}

const tallies = new WeakMap<readonly Message[], TokenTally>()

/** The tally kept for this very array (a transcript's own messages), if any. */
export function tallyOf(messages: readonly Message[]): TokenTally | undefined {
  return tallies.get(messages)
}
