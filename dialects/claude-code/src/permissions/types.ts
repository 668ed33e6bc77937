import type { PermissionMode } from '../io/payload.js'
import type { ClaudeHookSource } from '../types.js'

export type PermissionBehavior = 'allow' | 'ask' | 'deny'

/** One rule of a settings file's `permissions.allow`, `ask` or `deny`, as written and where it came from. */
export interface PermissionRule {
  /** As written, e.g. `Bash(npm run test:*)`. */
  text: string
  /** Claude Code's tool name (`Bash`, `Read`, `mcp__server__tool`). */
  tool: string
  /** The text between the parentheses; undefined for a tool-wide rule. */
  content: string | undefined
  behavior: PermissionBehavior
  /** `session`: approved "for the rest of the session" at a prompt. */
  source: ClaudeHookSource | 'session'
  /** The settings file (or `<--settings #N>`). */
  path: string
  /**
   * The anchor of a `/path` pattern: the project for project and local settings, the folder of any other settings file
   * (the config dir for user settings), the project for inline `--settings` JSON (observed).
   */
  root: string
}

/** Claude Code's `permissions` settings, merged across the settings files as Claude Code merges them. */
export interface ClaudePermissionSettings {
  /** Every rule in force: rule arrays merge across sources, managed first. */
  rules: PermissionRule[]
  /** `permissions.defaultMode` of the highest-precedence source that sets a valid one. */
  defaultMode: { mode: PermissionMode; path: string } | undefined
  /** `permissions.disableBypassPermissionsMode: "disable"` in any source. */
  disableBypassPermissionsMode: boolean
  /** `permissions.additionalDirectories` of every source, absolute. */
  additionalDirectories: string[]
  /** Managed `allowManagedPermissionRulesOnly`: only managed rules apply. */
  managedRulesOnly: boolean
}
