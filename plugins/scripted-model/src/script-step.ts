import { z } from 'zod'

export interface ScriptToolCall {
  name: string
  input: unknown
  /** Defaults to `call_<n>`, with a counter unique across the provider's life. */
  id?: string
}

/** A model turn: an optional text block, then one `tool_call` block per tool call. */
export interface ScriptReplyStep {
  text?: string
  tool_calls?: ScriptToolCall[]
  /** Milliseconds to wait before answering, as a model that takes time to answer; the call's abort ends the wait. */
  delayMs?: number
  /** Token counts the answer reports, as a provider's would. */
  usage?: { inputTokens?: number; outputTokens?: number }
  /** The answer's id, as a provider's response id. */
  id?: string
}

/** A failed sampling attempt: `generate()` throws `ModelError(message, { retryable, status })`. */
export interface ScriptErrorStep {
  error: { message: string; retryable: boolean; status?: number }
}

/** One scripted response; each `generate()` call consumes one step. */
export type ScriptStep = ScriptReplyStep | ScriptErrorStep

export const scriptToolCallSchema = z.strictObject({
  name: z.string().min(1),
  input: z.unknown(),
  id: z.string().min(1).optional(),
})

export const scriptReplyStepSchema = z.strictObject({
  text: z.string().optional(),
  tool_calls: z.array(scriptToolCallSchema).optional(),
  delayMs: z.number().int().nonnegative().optional(),
  usage: z
    .strictObject({ inputTokens: z.number().int().nonnegative().optional(), outputTokens: z.number().int().nonnegative().optional() })
    .optional(),
  id: z.string().min(1).optional(),
})

export const scriptErrorStepSchema = z.strictObject({
  error: z.strictObject({
    message: z.string().min(1),
    retryable: z.boolean(),
    status: z.number().int().optional(),
  }),
})

export function isErrorStep(step: ScriptStep): step is ScriptErrorStep {
  return 'error' in step
}
