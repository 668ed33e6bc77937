import type { ContentBlock } from '@harness-kernel/kernel'

/** The most characters one captured text keeps: a tool's output can be megabytes, a span attribute should not be. */
export const CONTENT_LIMIT = 16 * 1024

/** A text cut to `CONTENT_LIMIT`, saying how much was left out. */
export function capped(text: string): string {
  return text.length <= CONTENT_LIMIT ? text : `${text.slice(0, CONTENT_LIMIT)}…[${text.length - CONTENT_LIMIT} more characters]`
}

/** A value as JSON for an attribute (tool arguments), capped. */
export function cappedJson(value: unknown): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? 'null'
  } catch {
    text = String(value)
  }
  return capped(text)
}

type Part = { type: 'text'; content: string } | { type: 'tool_call'; id: string; name: string; arguments: unknown }

/** Blocks as the GenAI conventions' message parts (`gen_ai.input.messages`, `gen_ai.output.messages`). */
export function partsOf(blocks: readonly ContentBlock[], withCalls: boolean): Part[] {
  const parts: Part[] = []
  for (const block of blocks) {
    if (block.type === 'text') parts.push({ type: 'text', content: capped(block.text) })
    else if (block.type === 'tool_call' && withCalls)
      parts.push({ type: 'tool_call', id: block.id, name: block.name, arguments: block.input })
  }
  return parts
}

/** `[{ role, parts, finish_reason? }]` as one JSON attribute value. */
export function messagesJson(messages: readonly { role: string; parts: Part[]; finish_reason?: string }[]): string {
  return JSON.stringify(messages)
}
