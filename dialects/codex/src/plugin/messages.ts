import { contextMessage, type Message } from '@harness-kernel/kernel'
import { hookPromptText } from '../io/index.js'
import type { ContinuationFragment } from '../io/merge.js'
import { PLUGIN_NAME } from './run-event.js'

/** Each hook context is its own developer message, as in Codex. `toolCallId` anchors tool contexts for providers. */
export function codexContexts(texts: readonly string[], anchor?: { toolCallId: string }): Message[] {
  return texts.map((text) => contextMessage(PLUGIN_NAME, text, anchor ? { ...anchor } : undefined))
}

/** The Stop continuation: one user message, one `<hook_prompt>` part per blocking handler, in display order. */
export function hookPromptMessage(fragments: readonly ContinuationFragment[]): Message {
  return {
    role: 'user',
    content: fragments.map((fragment) => ({ type: 'text', text: hookPromptText(fragment.runId, fragment.text) })),
    source: { kind: 'plugin', plugin: PLUGIN_NAME },
    meta: { hookRunIds: fragments.map((fragment) => fragment.runId) },
  }
}
