import { z } from 'zod'
import { messageSchema } from './messages.js'

export const toolSpecSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
})

export const modelRequestSchema = z.object({
  system: z.string().optional(),
  messages: z.array(messageSchema),
  tools: z.array(toolSpecSchema),
})
