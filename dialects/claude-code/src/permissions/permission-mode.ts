import type { PermissionMode } from '../io/payload.js'

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
