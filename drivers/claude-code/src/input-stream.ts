import type { SDKUserMessage } from '@anthropic-ai/claude-agent-sdk'

/** The one input of a Claude Code session: stays open between turns; the SDK writes each message to the CLI's stdin. */
export class InputStream implements AsyncIterable<SDKUserMessage> {
  #queue: SDKUserMessage[] = []
  #wake: (() => void) | undefined
  #ended = false

  push(message: SDKUserMessage): void {
    if (this.#ended) throw new Error('the Claude Code session has ended; its input is closed')
    this.#queue.push(message)
    this.#wake?.()
  }

  end(): void {
    this.#ended = true
    this.#wake?.()
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SDKUserMessage> {
    for (;;) {
      const next = this.#queue.shift()
      if (next) {
        yield next
        continue
      }
      if (this.#ended) return
      await new Promise<void>((resolve) => {
        this.#wake = resolve
      })
      this.#wake = undefined
    }
  }
}
