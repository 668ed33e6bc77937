import { isTable, type TomlTable } from '../config/toml-table.js'

/** The effective `[hooks.state."<key>"]` of one handler. */
export interface HookState {
  enabled?: boolean
  trustedHash?: string
}

export type HookStates = Map<string, HookState>

/**
 * Layers one source of hook state onto `states`, field by field (a later `enabled` does not erase an earlier
 * `trusted_hash`). Keys are trimmed; an entry with a mistyped field is ignored whole, as Codex does.
 */
function layer(states: HookStates, key: string, enabled: unknown, trustedHash: unknown): void {
  const trimmed = key.trim()
  if (trimmed === '') return
  if (enabled !== undefined && typeof enabled !== 'boolean') return
  if (trustedHash !== undefined && typeof trustedHash !== 'string') return
  const state = states.get(trimmed) ?? {}
  if (enabled !== undefined) state.enabled = enabled
  if (trustedHash !== undefined) state.trustedHash = trustedHash
  states.set(trimmed, state)
}

/** `[hooks.state]` of a user config.toml or of the session flags (the only layers Codex reads it from). */
export function layerConfigHookStates(states: HookStates, config: TomlTable | undefined): void {
  const hooks = config?.hooks
  const table = isTable(hooks) ? hooks.state : undefined
  if (!isTable(table)) return
  for (const [key, entry] of Object.entries(table)) {
    if (isTable(entry)) layer(states, key, entry.enabled, entry.trusted_hash)
  }
}

/** The harness's own trust store entries (`{ trustedHash, enabled }` per key). */
export function layerStoredHookStates(states: HookStates, entries: Record<string, unknown> | undefined): void {
  for (const [key, entry] of Object.entries(entries ?? {})) {
    if (entry !== null && typeof entry === 'object') {
      const { enabled, trustedHash } = entry as Record<string, unknown>
      layer(states, key, enabled, trustedHash)
    }
  }
}
