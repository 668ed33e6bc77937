import type { Message, TextBlock } from '@harness-kernel/kernel'
import { systemReminder } from '../io/texts.js'
import { hookTextMeta, PLUGIN_NAME } from './hook-text.js'
import type { ClaudeRenderer } from './renderer.js'
import { stopMessages } from './stop-messages.js'

/**
 * Claude Code's classic rendering (claude-code-hooks.md §7.4): every hook text in user content as
 * `<system-reminder>\n…\n</system-reminder>`. PostToolUse texts are appended inside their call's tool result; PreToolUse
 * texts follow the step's tool results as their own blocks [obs]; prompt and session texts lead the next user message.
 * Valid for every provider.
 */
export const classicRenderer: ClaudeRenderer = {
  name: 'classic',
  render(messages) {
    const out: Message[] = []
    let leading: TextBlock[] = []
    const flushLeading = () => {
      if (leading.length === 0) return
      out.push(reminderMessage(leading))
      leading = []
    }
    for (const message of messages) {
      const meta = hookTextMeta(message)
      if (meta === undefined) {
        if (message.role === 'user' && leading.length > 0) {
          out.push({ ...message, content: [...leading, ...message.content] })
          leading = []
          continue
        }
        if (message.role !== 'developer') flushLeading()
        out.push(message)
        continue
      }
      const text = textOf(message)
      if (meta.kind === 'prompt' || meta.kind === 'session') {
        leading.push({ type: 'text', text: systemReminder(text) })
        continue
      }
      if (meta.kind === 'tool' && meta.event !== 'PreToolUse' && appendToToolResult(out, meta.toolCallId, text)) continue
      flushLeading()
      if (meta.kind === 'tool' || meta.kind === 'note') {
        appendReminder(out, text)
        continue
      }
      out.push(...stopMessages(meta, text, 'classic'))
    }
    flushLeading()
    return out
  },
}

function textOf(message: Message): string {
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('')
}

function reminderMessage(content: TextBlock[]): Message {
  return { role: 'user', content, source: { kind: 'plugin', plugin: PLUGIN_NAME }, meta: { claudeCodeRendered: true } }
}

/** A reminder block of its own: added to the reminder message just rendered, or a new one. */
function appendReminder(out: Message[], text: string): void {
  const block: TextBlock = { type: 'text', text: systemReminder(text) }
  const last = out.at(-1)
  if (last?.meta?.claudeCodeRendered === true) out[out.length - 1] = { ...last, content: [...last.content, block] }
  else out.push(reminderMessage([block]))
}

/** `trimEnd(output)+"\n\n<system-reminder>\n"+T+"\n</system-reminder>"` [obs], on a copy of the tool message. */
function appendToToolResult(out: Message[], callId: string, text: string): boolean {
  for (let index = out.length - 1; index >= 0; index--) {
    const message = out[index]!
    const position = message.content.findIndex((block) => block.type === 'tool_result' && block.callId === callId)
    if (position < 0) continue
    const block = message.content[position]!
    if (block.type !== 'tool_result') return false
    const content = [...message.content]
    content[position] = { ...block, output: `${block.output.trimEnd()}\n\n${systemReminder(text)}` }
    out[index] = { ...message, content }
    return true
  }
  return false
}
