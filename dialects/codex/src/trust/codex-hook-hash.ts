import { canonicalJson, sha256Hex } from '@harness-kernel/hook-protocol'
import { type CodexEvent, eventLabel, MATCHERLESS_EVENTS } from '../events.js'

/** The handler fields that make up its trust identity (a CodexHandler has them all). */
export interface CodexHookIdentity {
  event: CodexEvent
  matcher: string | undefined
  command: string
  /** The effective timeout, after defaulting and clamping. */
  timeoutSec: number
  async: boolean
  statusMessage: string | undefined
  additionalContextLimit: number | undefined
}

export const DEFAULT_ADDITIONAL_CONTEXT_LIMIT = 2500

/**
 * Codex's `currentHash` (codex-hooks.md §2): `sha256:` + hex SHA-256 of the canonical JSON of
 * `{event_name, matcher?, hooks: [{type, command, timeout, async, statusMessage?, additionalContextLimit?}]}`.
 * Absent fields are left out; `commandWindows` never counts; so any edit, reorder or timeout change un-trusts.
 */
export function codexHookHash(hook: CodexHookIdentity): string {
  const handler: Record<string, unknown> = { type: 'command', command: hook.command, timeout: hook.timeoutSec, async: hook.async }
  if (hook.statusMessage !== undefined) handler.statusMessage = hook.statusMessage
  if (hook.additionalContextLimit !== undefined && hook.additionalContextLimit !== DEFAULT_ADDITIONAL_CONTEXT_LIMIT) {
    handler.additionalContextLimit = hook.additionalContextLimit
  }
  const identity: Record<string, unknown> = { event_name: eventLabel(hook.event), hooks: [handler] }
  if (hook.matcher !== undefined && !MATCHERLESS_EVENTS.has(hook.event)) identity.matcher = hook.matcher
  return `sha256:${sha256Hex(canonicalJson(identity))}`
}
