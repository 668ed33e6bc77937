import type { Message } from '@harness-kernel/kernel'
import { stopFeedbackText, systemReminder } from '../io/texts.js'
import { type HookTextMeta, PLUGIN_NAME, stopFeedbackOf } from './hook-text.js'

const source = { kind: 'plugin', plugin: PLUGIN_NAME } as const

/**
 * A Stop/SubagentStop block as the model sees it (claude-code-hooks.md §7.4).
 * - exit 2, both renderings: one user message, the feedback block.
 * - JSON block, classic: one user message, the blocking-error reminder (with a final newline), then the feedback block.
 * - JSON block, system-role: the feedback block as a user message, then the blocking error as a system message.
 */
export function stopMessages(meta: Extract<HookTextMeta, { kind: 'stop' }>, text: string, rendering: 'classic' | 'system'): Message[] {
  if (meta.form === 'exit2') return [{ role: 'user', content: [{ type: 'text', text }], source }]
  const feedback = stopFeedbackText(stopFeedbackOf(meta, text))
  if (rendering === 'classic') {
    return [
      {
        role: 'user',
        content: [
          { type: 'text', text: `${systemReminder(text)}\n` },
          { type: 'text', text: feedback },
        ],
        source,
      },
    ]
  }
  return [
    { role: 'user', content: [{ type: 'text', text: feedback }], source },
    { role: 'developer', content: [{ type: 'text', text }], source },
  ]
}
