import type { BoundaryKind } from '@harness-kernel/kernel'
import { z } from 'zod'
import type { hostInputCapabilitySchema } from './params.js'
import { userInputSchema } from './params.js'

/** The negotiated host-input settings of one connection (codex-app-server.md §10.1). */
export interface HostInputSettings {
  version: 1
  /** The boundaries the host is asked at: those it asked for that the session's driver has. */
  boundaries: BoundaryKind[]
  timeoutMs: number
  onTimeout: 'proceed'
}

export const DEFAULT_HOST_INPUT_TIMEOUT_MS = 30_000
export const MIN_HOST_INPUT_TIMEOUT_MS = 1_000
export const MAX_HOST_INPUT_TIMEOUT_MS = 600_000

export function negotiateHostInput(
  asked: z.infer<typeof hostInputCapabilitySchema> | null | undefined,
  defaultTimeoutMs = DEFAULT_HOST_INPUT_TIMEOUT_MS,
  known: readonly BoundaryKind[] = ['sampling', 'final'],
): HostInputSettings | undefined {
  if (!asked) return undefined
  if (asked.version !== undefined && asked.version !== 1) return undefined
  const boundaries = asked.boundaries === undefined ? [...known] : known.filter((kind) => asked.boundaries?.includes(kind))
  const wanted = asked.timeoutMs ?? defaultTimeoutMs
  const timeoutMs = Math.min(MAX_HOST_INPUT_TIMEOUT_MS, Math.max(MIN_HOST_INPUT_TIMEOUT_MS, Math.round(wanted)))
  return { version: 1, boundaries, timeoutMs, onTimeout: 'proceed' }
}

export const hostInputItemSchema = z
  .object({
    role: z.enum(['user', 'developer']),
    authority: z.enum(['user', 'host']),
    content: z.array(userInputSchema).min(1),
    clientId: z.string().nullish(),
  })
  .refine((item) => item.authority !== 'user' || item.role === 'user', { message: 'authority "user" requires role "user"' })
export type HostInputItem = z.infer<typeof hostInputItemSchema>

export const hostInputAnswerSchema = z.object({ items: z.array(hostInputItemSchema) })

export type HostInputRejectReason = 'late' | 'duplicate' | 'unknownRequest' | 'invalid' | 'notRecorded'
