import { hookTextMeta } from './hook-text.js'
import type { ClaudeRenderer } from './renderer.js'
import { stopMessages } from './stop-messages.js'

/**
 * Claude Code's system-role rendering (claude-code-hooks.md §7.1): each hook text stays a `developer` message, which
 * a provider that declares mid-conversation system messages sends as `role:"system"`. The log's order already
 * matches: tool texts after the step's results, prompt texts before their prompt, session texts first. Only a Stop
 * block changes shape.
 */
export const systemRenderer: ClaudeRenderer = {
  name: 'system',
  render(messages) {
    if (!messages.some((message) => hookTextMeta(message)?.kind === 'stop')) return [...messages]
    return messages.flatMap((message) => {
      const meta = hookTextMeta(message)
      if (meta?.kind !== 'stop') return [message]
      const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('')
      return stopMessages(meta, text, 'system')
    })
  },
}
