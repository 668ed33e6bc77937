import { isDeepStrictEqual } from 'node:util'
import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { ContentBlock } from '@harness-kernel/kernel'

const MAX_ENTRIES = 256

interface Entry {
  /** The blocks exactly as the model sent them, thinking included. */
  raw: ContentBlockParam[]
  /** What the kernel recorded from them (text and tool_call blocks). */
  visible: ContentBlock[]
}

/**
 * Thinking blocks the kernel cannot hold, kept so they can be sent back unchanged: with thinking on, the API requires
 * the assistant message of an unfinished tool loop to be replayed with its thinking (and signature) intact. The kernel's
 * messages have no thinking block, so this keeps each such response by its first tool call id, in memory, and replays it
 * only while the recorded assistant message still matches it block for block. Earlier turns need no thinking (the API
 * drops it there), so a restarted process loses nothing a request needs.
 */
export class ThinkingReplay {
  readonly #entries = new Map<string, Entry>()

  remember(raw: ContentBlockParam[], visible: ContentBlock[]): void {
    const key = firstCallId(visible)
    if (key === undefined || !raw.some((block) => block.type === 'thinking' || block.type === 'redacted_thinking')) return
    this.#entries.set(key, { raw, visible: structuredClone(visible) })
    if (this.#entries.size > MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value as string)
  }

  /** The model's own blocks for an assistant message, when this process received it and it is unchanged. */
  recall(content: readonly ContentBlock[]): ContentBlockParam[] | undefined {
    const key = firstCallId(content)
    const entry = key === undefined ? undefined : this.#entries.get(key)
    return entry && isDeepStrictEqual(entry.visible, content) ? entry.raw : undefined
  }
}

function firstCallId(content: readonly ContentBlock[]): string | undefined {
  for (const block of content) if (block.type === 'tool_call') return block.id
  return undefined
}
