import type { Message } from '@harness-kernel/kernel'

export const PLUGIN_NAME = 'claude-code-hooks'

/**
 * What a hook text is, kept in the log's `meta.claudeCode` next to a neutral `developer` message whose text is the
 * hook text T (claude-code-hooks.md §7). Renderers turn these into what the model sees; the log never changes.
 * - `tool`: a PreToolUse/PostToolUse(Failure) context or blocking error, anchored to its call.
 * - `prompt`: a UserPromptSubmit context or plain stdout, placed before its prompt.
 * - `session`: a SessionStart context, first in the context.
 * - `stop`: a Stop/SubagentStop block; `feedback` is the reason the feedback block quotes. For `form: 'exit2'` the
 *   message text is already the feedback block (the same in both renderings). A reason over 2 KiB is not copied into
 *   `feedback`: `feedbackAt` gives its `[start, end)` in the message text instead, so the log holds it once.
 * - `note`: any other hook text (SubagentStart context, async hook output).
 */
export type HookTextMeta =
  | { kind: 'tool'; event: string; hookName: string; toolCallId: string }
  | { kind: 'prompt'; event: string; hookName: string }
  | { kind: 'session'; event: string; hookName: string }
  | { kind: 'stop'; event: string; hookName: string; form: 'json' | 'exit2'; feedback?: string; feedbackAt?: [number, number] }
  | { kind: 'note'; event: string; hookName: string }

export function hookTextMessage(text: string, meta: HookTextMeta, extra?: Record<string, unknown>): Message {
  return {
    role: 'developer',
    content: [{ type: 'text', text }],
    source: { kind: 'plugin', plugin: PLUGIN_NAME },
    meta: { claudeCode: meta, ...extra },
  }
}

export function hookTextMeta(message: Message): HookTextMeta | undefined {
  if (message.role !== 'developer' || message.source.kind !== 'plugin' || message.source.plugin !== PLUGIN_NAME) return undefined
  const meta = message.meta?.claudeCode
  return typeof meta === 'object' && meta !== null && typeof (meta as { kind?: unknown }).kind === 'string'
    ? (meta as HookTextMeta)
    : undefined
}

/** The reason a stop text's feedback block quotes: `feedback`, or the part of `text` that `feedbackAt` points at. */
export function stopFeedbackOf(meta: Extract<HookTextMeta, { kind: 'stop' }>, text: string): string {
  if (meta.feedback !== undefined) return meta.feedback
  return meta.feedbackAt === undefined ? '' : text.slice(meta.feedbackAt[0], meta.feedbackAt[1])
}

/** Longer reasons are not copied into a stop text's meta (see `HookTextMeta`). */
const STOP_FEEDBACK_COPY_LIMIT = 2048

/** A stop text's meta: the reason copied when short, else its place in `text` (which ends with it, before `suffix`). */
export function stopFeedbackMeta(reason: string, text: string, suffix = ''): { feedback: string } | { feedbackAt: [number, number] } {
  if (reason.length <= STOP_FEEDBACK_COPY_LIMIT) return { feedback: reason }
  const end = text.length - suffix.length
  return { feedbackAt: [end - reason.length, end] }
}
