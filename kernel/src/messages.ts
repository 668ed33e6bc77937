import { z } from 'zod'

export const sourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user') }),
  z.object({ kind: z.literal('model') }),
  z.object({ kind: z.literal('tool') }),
  z.object({ kind: z.literal('plugin'), plugin: z.string().min(1) }),
  z.object({ kind: z.literal('steering'), transport: z.string().min(1) }),
])
export type Source = z.infer<typeof sourceSchema>

export const contentBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('tool_call'), id: z.string().min(1), name: z.string().min(1), input: z.unknown() }),
  z.object({ type: z.literal('tool_result'), callId: z.string().min(1), output: z.string(), isError: z.boolean() }),
])
export type ContentBlock = z.infer<typeof contentBlockSchema>
export type TextBlock = Extract<ContentBlock, { type: 'text' }>
export type ToolCallBlock = Extract<ContentBlock, { type: 'tool_call' }>
export type ToolResultBlock = Extract<ContentBlock, { type: 'tool_result' }>

export const roleSchema = z.enum(['user', 'assistant', 'developer', 'tool'])
export type Role = z.infer<typeof roleSchema>

export const messageSchema = z.object({
  role: roleSchema,
  content: z.array(contentBlockSchema),
  source: sourceSchema,
  /** Free-form provenance kept in the log (a steering item id, a hook run id, …); never sent to a model. */
  meta: z.record(z.string(), z.unknown()).optional(),
})
export interface Message {
  role: Role
  content: ContentBlock[]
  source: Source
  meta?: Record<string, unknown>
}

export function userMessage(text: string, meta?: Record<string, unknown>): Message {
  return withMeta({ role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } }, meta)
}

/** Model-visible context attributed to a plugin (rendered with the `developer` role). */
export function contextMessage(plugin: string, text: string, meta?: Record<string, unknown>): Message {
  return withMeta({ role: 'developer', content: [{ type: 'text', text }], source: { kind: 'plugin', plugin } }, meta)
}

export function assistantMessage(content: ContentBlock[]): Message {
  return { role: 'assistant', content, source: { kind: 'model' } }
}

export function textOf(message: Message): string {
  let text = ''
  for (const block of message.content) if (block.type === 'text') text += block.text
  return text
}

export function toolCallsOf(message: Message): ToolCallBlock[] {
  return message.content.filter((block): block is ToolCallBlock => block.type === 'tool_call')
}

function withMeta(message: Message, meta: Record<string, unknown> | undefined): Message {
  if (meta) message.meta = meta
  return message
}
