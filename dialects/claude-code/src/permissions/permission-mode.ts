import type { PermissionMode } from '../io/payload.js'
import type { ClaudePermissionSettings } from './types.js'

/** Claude Code 2.1.332's permission modes, as `--permission-mode` and `permissions.defaultMode` take them. */
export const PERMISSION_MODES: readonly PermissionMode[] = ['default', 'acceptEdits', 'plan', 'auto', 'dontAsk', 'bypassPermissions']

/** A mode name (`manual` is Claude Code's other name for `default`), or undefined when it is none. */
export function parsePermissionMode(value: string): PermissionMode | undefined {
  if (value === 'manual') return 'default'
  return (PERMISSION_MODES as readonly string[]).includes(value) ? (value as PermissionMode) : undefined
}

/** Checks a mode given in code or on a command line; the TypeError names the value and the modes there are. */
export function checkPermissionMode(value: unknown, where: string): PermissionMode {
  const mode = typeof value === 'string' ? parsePermissionMode(value) : undefined
  if (mode === undefined) {
    throw new TypeError(
      `${where}: unknown permission mode ${JSON.stringify(value)}; expected one of ${PERMISSION_MODES.join(', ')} (or manual)`,
    )
  }
  return mode
}

/**
 * The mode a session runs in: the flag's, else the settings' `defaultMode`; undefined when neither names one. Under
 * `disableBypassPermissionsMode`, bypassPermissions becomes default (Claude Code 2.1.332 does so silently; `warn` says so).
 */
export function permissionModeInForce(
  settings: ClaudePermissionSettings,
  flagMode: PermissionMode | undefined,
  warn: (text: string) => void = () => {},
): PermissionMode | undefined {
  const named = flagMode ?? settings.defaultMode?.mode
  if (named === 'bypassPermissions' && settings.disableBypassPermissionsMode) {
    warn('bypassPermissions is disabled by permissions.disableBypassPermissionsMode; the session runs in default mode')
    return 'default'
  }
  return named
}
