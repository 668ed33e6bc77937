import { z } from 'zod'
import { budgetCapabilitySchema } from './budget-requests.js'
import { askForApprovalSchema, sandboxModeSchema, sandboxPolicyNames, sandboxPolicySchema } from './guardrails-params.js'
import { INVALID_REQUEST, RpcError } from './rpc-errors.js'
import { type SerdeNames, serdeErrorData, serdeMessage } from './serde-errors.js'

/** Codex `UserInput`. The kernel renders text; images and audio are kept as a text reference (documented). */
export const userInputSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string(), text_elements: z.array(z.unknown()).optional() }),
  z.object({ type: z.literal('image'), url: z.string().optional(), fileId: z.string().optional(), detail: z.string().nullish() }),
  z.object({ type: z.literal('localImage'), path: z.string(), detail: z.string().nullish() }),
  z.object({ type: z.literal('audio'), url: z.string().optional(), fileId: z.string().optional() }),
  z.object({ type: z.literal('localAudio'), path: z.string() }),
  z.object({ type: z.literal('skill'), name: z.string(), path: z.string() }),
  z.object({ type: z.literal('mention'), name: z.string(), path: z.string() }),
])
export type UserInput = z.infer<typeof userInputSchema>

export const hostInputCapabilitySchema = z.object({
  version: z.number().int().optional(),
  boundaries: z.array(z.string()).optional(),
  timeoutMs: z.number().optional(),
})

export const initializeParamsSchema = z.object({
  clientInfo: z.object({ name: z.string(), title: z.string().nullish(), version: z.string() }),
  capabilities: z
    .object({
      experimentalApi: z.boolean().optional(),
      optOutNotificationMethods: z.array(z.string()).nullish(),
      hostInput: hostInputCapabilitySchema.nullish(),
      budget: budgetCapabilitySchema.nullish(),
    })
    .nullish(),
})

/** The guardrails a thread asks for when it is started, resumed or forked: Codex's `sandbox` mode and `approvalPolicy`. */
export const threadPolicyParams = { sandbox: sandboxModeSchema.nullish(), approvalPolicy: askForApprovalSchema.nullish() }

export const threadStartParamsSchema = z.object({ cwd: z.string().nullish(), model: z.string().nullish(), ...threadPolicyParams }).nullish()
export const threadResumeParamsSchema = z.object({
  threadId: z.string(),
  cwd: z.string().nullish(),
  excludeTurns: z.boolean().nullish(),
  ...threadPolicyParams,
})
export const turnStartParamsSchema = z.object({
  threadId: z.string(),
  input: z.array(userInputSchema),
  clientUserMessageId: z.string().nullish(),
  sandboxPolicy: sandboxPolicySchema.nullish(),
  approvalPolicy: askForApprovalSchema.nullish(),
})
export const turnSteerParamsSchema = z.object({
  threadId: z.string(),
  input: z.array(userInputSchema),
  expectedTurnId: z.string(),
  clientUserMessageId: z.string().nullish(),
})
export const turnInterruptParamsSchema = z.object({ threadId: z.string(), turnId: z.string() })
const responsesContentSchema = z.object({ type: z.string(), text: z.string().optional() })
export const responseItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message'), role: z.enum(['user', 'developer', 'assistant']), content: z.array(responsesContentSchema) }),
  z.object({ type: z.literal('function_call'), call_id: z.string(), name: z.string(), arguments: z.string() }),
  z.object({ type: z.literal('function_call_output'), call_id: z.string(), output: z.string() }),
])
export const injectItemsParamsSchema = z.object({ threadId: z.string(), items: z.array(responseItemSchema) })
export const hooksListParamsSchema = z.object({ cwds: z.array(z.string()).nullish(), threadId: z.string().nullish() }).nullish()

/** serde's names of the params types (for its ``expected struct X`` texts), by schema. */
const serdeNames = new WeakMap<z.ZodType, SerdeNames>()
export function named<T extends z.ZodType>(schema: T, names: SerdeNames): T {
  serdeNames.set(schema, names)
  return schema
}
const INPUT = 'internally tagged enum UserInput'
named(initializeParamsSchema, { '': 'struct InitializeParams', clientInfo: 'struct ClientInfo' })
named(threadStartParamsSchema, { '': 'struct ThreadStartParams' })
named(threadResumeParamsSchema, { '': 'struct ThreadResumeParams' })
named(turnStartParamsSchema, { '': 'struct TurnStartParams', 'input.*': INPUT, ...sandboxPolicyNames('sandboxPolicy') })
named(turnSteerParamsSchema, { '': 'struct TurnSteerParams', 'input.*': INPUT })
named(turnInterruptParamsSchema, { '': 'struct TurnInterruptParams' })
named(injectItemsParamsSchema, { '': 'struct ThreadInjectItemsParams' })
named(hooksListParamsSchema, { '': 'struct HooksListParams' })

/** Parses params, refusing them in Codex's words: ``Invalid request: missing field `x` ``, ``… invalid type: …``. */
export function parseParams<T>(schema: z.ZodType<T>, params: unknown): T {
  const parsed = schema.safeParse(params)
  if (parsed.success) return parsed.data
  const names = serdeNames.get(schema)
  throw new RpcError(
    INVALID_REQUEST,
    `Invalid request: ${serdeMessage(parsed.error.issues, params, names)}`,
    serdeErrorData(parsed.error.issues, params, names),
  )
}

/** The text the model sees for one `UserInput` (the kernel's messages are text only). */
export function inputText(input: readonly UserInput[]): string {
  return input
    .map((entry) => {
      switch (entry.type) {
        case 'text':
          return entry.text
        case 'image':
          return `[image: ${entry.url ?? entry.fileId ?? ''}]`
        case 'localImage':
          return `[image: ${entry.path}]`
        case 'audio':
          return `[audio: ${entry.url ?? entry.fileId ?? ''}]`
        case 'localAudio':
          return `[audio: ${entry.path}]`
        default:
          return `[${entry.type}: ${entry.name} ${entry.path}]`
      }
    })
    .join('\n')
}
