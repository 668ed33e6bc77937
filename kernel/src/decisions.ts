import { z } from 'zod'
import type { SandboxConfinement } from './guardrails/types.js'
import type { Message } from './messages.js'
import { messageSchema } from './messages.js'
import type { ApprovalDecision } from './services.js'

export interface Halt {
  reason: string
}
const haltSchema = z.object({ reason: z.string() })
const context = z.array(messageSchema).optional()

export const preStepDecisionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('enter'), messages: z.array(messageSchema), context, halt: haltSchema.optional() }),
  z.object({ kind: z.literal('reject'), reason: z.string().optional(), context }),
])
export type PreStepDecision =
  | { kind: 'enter'; messages: Message[]; context?: Message[]; halt?: Halt }
  | { kind: 'reject'; reason?: string; context?: Message[] }

const confinementSchema = z.object({
  writableRoots: z.array(z.string()),
  denyWrite: z.array(z.string()),
  denyRead: z.array(z.string()),
  proxy: z.object({ socketPath: z.string() }).optional(),
  env: z.record(z.string(), z.string()).optional(),
})

export const preToolDecisionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('allow'),
    input: z.unknown().optional(),
    context,
    halt: haltSchema.optional(),
    confine: confinementSchema.optional(),
  }),
  z.object({ kind: z.literal('ask'), reason: z.string().optional(), context, confine: confinementSchema.optional() }),
  z.object({ kind: z.literal('deny'), reason: z.string(), context, halt: haltSchema.optional() }),
])
/**
 * `deny` with `halt`: the call is answered with `reason` and the turn ends after this step (a deferred call). `confine`
 * runs the call's processes under more confinement than the guardrails' policy (a dialect's sandbox settings).
 */
export type PreToolDecision =
  | { kind: 'allow'; input?: unknown; context?: Message[]; halt?: Halt; confine?: SandboxConfinement }
  | { kind: 'ask'; reason?: string; context?: Message[]; confine?: SandboxConfinement }
  | { kind: 'deny'; reason: string; context?: Message[]; halt?: Halt }

export const permissionDecisionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('undecided'),
    refusal: z.string().optional(),
    onAnswer: z.custom<(answer: ApprovalDecision) => void>((value) => typeof value === 'function').optional(),
  }),
  z.object({ kind: z.literal('allow'), input: z.unknown().optional() }),
  z.object({ kind: z.literal('deny'), reason: z.string() }),
])
/** `allow` with `input`: the call runs with that input instead (a permission hook's rewrite). */
/**
 * `undecided` goes on to the approver; `refusal` is what the model is told if the approver refuses (a dialect's own text
 * for a refused prompt), in place of the approver's reason; `onAnswer` hears the approver's answer (a dialect that keeps
 * an approval given for the session).
 */
export type PermissionDecision =
  | { kind: 'undecided'; refusal?: string; onAnswer?: (answer: ApprovalDecision) => void }
  | { kind: 'allow'; input?: unknown }
  | { kind: 'deny'; reason: string }

export const postToolDecisionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('accept'), output: z.string().optional(), context, halt: haltSchema.optional() }),
  z.object({ kind: z.literal('block'), feedback: z.string(), context }),
])
export type PostToolDecision =
  | { kind: 'accept'; output?: string; context?: Message[]; halt?: Halt }
  | { kind: 'block'; feedback: string; context?: Message[] }

export const stopDecisionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stop'), context }),
  z.object({ kind: z.literal('continue'), messages: z.array(messageSchema), halt: haltSchema.optional() }),
])
export type StopDecision = { kind: 'stop'; context?: Message[] } | { kind: 'continue'; messages: Message[]; halt?: Halt }

export const compactDecisionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('proceed'), context }),
  z.object({ kind: z.literal('halt'), reason: z.string() }),
])
export type CompactDecision = { kind: 'proceed'; context?: Message[] } | { kind: 'halt'; reason: string }

export const budgetDecisionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('undecided') }),
  z.object({ kind: z.literal('raise'), limit: z.number().positive().finite() }),
  z.object({ kind: z.literal('halt'), reason: z.string().optional() }),
])
/**
 * `agent/budget-reached`: `undecided` (the default) halts the turn; `raise` sets the reached budget's limit to `limit`
 * and the turn goes on (a turn budget for this turn, a session budget for the session's life in this process); `halt`
 * halts it with `reason` in place of the kernel's, and is final.
 */
export type BudgetDecision = { kind: 'undecided' } | { kind: 'raise'; limit: number } | { kind: 'halt'; reason?: string }

export type AnyDecision =
  | PreStepDecision
  | PreToolDecision
  | PermissionDecision
  | PostToolDecision
  | StopDecision
  | CompactDecision
  | BudgetDecision

/** A veto is final: once the running value is one of these, later taps are not called for it. */
export function isVeto(decision: unknown): boolean {
  if (decision === null || typeof decision !== 'object') return false
  const { kind, halt } = decision as { kind?: unknown; halt?: unknown }
  return kind === 'deny' || kind === 'reject' || kind === 'block' || kind === 'halt' || (halt !== undefined && halt !== null)
}
