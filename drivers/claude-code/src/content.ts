import type { ContentBlock, Message } from '@harness-kernel/kernel'
import { kernelToolName } from './host-tools.js'

interface SdkBlock {
  type: string
  text?: string
  id?: string
  name?: string
  input?: unknown
  tool_use_id?: string
  content?: unknown
  is_error?: boolean
}

/** An assistant message's blocks in kernel terms: text and tool calls (kernel tools by their kernel names). */
export function kernelBlocks(content: unknown): ContentBlock[] {
  const blocks: ContentBlock[] = []
  for (const block of Array.isArray(content) ? (content as SdkBlock[]) : []) {
    if (block.type === 'text' && typeof block.text === 'string') blocks.push({ type: 'text', text: block.text })
    else if (block.type === 'tool_use' && block.id && block.name) {
      blocks.push({ type: 'tool_call', id: block.id, name: kernelToolName(block.name) ?? block.name, input: block.input ?? {} })
    }
  }
  return blocks
}

/** The tool results in a `user` message Claude Code emitted (for the tools it ran itself). */
export function toolResultsOf(content: unknown): { callId: string; output: string; isError: boolean }[] {
  if (!Array.isArray(content)) return []
  return (content as SdkBlock[])
    .filter((block) => block.type === 'tool_result' && typeof block.tool_use_id === 'string')
    .map((block) => ({ callId: block.tool_use_id as string, output: resultText(block.content), isError: block.is_error === true }))
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return (content as SdkBlock[])
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n')
}

export function messageText(message: Message): string {
  return message.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n')
}

/** Developer context as Claude Code shows hook context to its model: a system reminder. */
export function reminder(message: Message): string {
  return `<system-reminder>\n${messageText(message)}\n</system-reminder>`
}
