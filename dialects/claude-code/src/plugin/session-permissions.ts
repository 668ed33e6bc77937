import type { Session } from '@harness-kernel/kernel'
import type { PermissionMode } from '../io/payload.js'
import {
  type ClaudePermissionSettings,
  checkBeforeHooks,
  decidePermission,
  type PermissionContext,
  type PermissionDecision,
  permissionModeInForce,
  removedTools,
} from '../permissions/index.js'
import type { PermissionCall } from '../permissions/rule-match.js'
import type { ClaudeSandboxSettings } from '../permissions/sandbox-settings.js'
import { SessionSandbox } from './session-sandbox.js'

export interface SessionPermissionsOptions {
  settings: ClaudePermissionSettings
  sandbox: ClaudeSandboxSettings
  /** `--permission-mode`: wins over `permissions.defaultMode`. */
  flagMode: PermissionMode | undefined
  /** `--add-dir`: working directories besides the cwd and `additionalDirectories`. */
  addDirs: readonly string[]
  cwd: string
  projectDir: string
  warn: (text: string) => void
}

/** A session's Claude Code permissions: the settings, the mode in force, the working directories, and pending asks. */
export class SessionPermissions {
  settings: ClaudePermissionSettings
  /** The mode a flag or `defaultMode` names; undefined when none does (the kernel's guardrails policy governs). */
  mode: PermissionMode | undefined
  context: PermissionContext
  /** Tools a tool-wide deny takes away from the model. */
  readonly removed: ReadonlySet<string>
  /** Claude Code's sandbox for Bash calls (`sandbox.enabled`). */
  readonly sandbox: SessionSandbox
  /** Calls the permissions asked about, by call id: their reason and `permission_suggestions`. */
  readonly asks = new Map<string, Extract<PermissionDecision, { behavior: 'ask' }>>()

  constructor(options: SessionPermissionsOptions) {
    this.settings = options.settings
    this.mode = permissionModeInForce(options.settings, options.flagMode, options.warn)
    this.context = {
      mode: this.mode,
      cwd: options.cwd,
      workingDirectories: [...new Set([options.cwd, ...options.settings.additionalDirectories, ...options.addDirs])],
    }
    this.removed = removedTools(options.settings)
    this.sandbox = new SessionSandbox({
      settings: options.sandbox,
      permissions: options.settings,
      cwd: options.cwd,
      projectDir: options.projectDir,
      workingDirectories: () => this.context.workingDirectories,
      mode: this.mode,
    })
  }

  /** `permission_mode` in payloads: the mode named, else what the kernel's approval policy amounts to. */
  payloadMode(session: Session): PermissionMode {
    if (this.mode !== undefined) return this.mode
    return session.guardrails.policy.approval === 'never' ? 'bypassPermissions' : 'default'
  }

  /**
   * An approval "for the rest of the session": what the prompt suggested applies from now on, as Claude Code applies
   * the suggestions of a "Yes, and don't ask again" (rules added, the mode switched, directories added), for this
   * session only: nothing is written to settings.
   */
  approveForSession(suggestions: readonly unknown[]): void {
    for (const suggestion of suggestions as SessionSuggestion[]) {
      if (suggestion.type === 'addRules') {
        const behavior = suggestion.behavior ?? 'allow'
        const added = (suggestion.rules ?? []).map((rule) => ({
          text: rule.ruleContent === undefined ? rule.toolName : `${rule.toolName}(${rule.ruleContent})`,
          tool: rule.toolName,
          content: rule.ruleContent,
          behavior,
          source: 'session' as const,
          path: '<session>',
          root: this.context.cwd,
        }))
        this.settings = { ...this.settings, rules: [...this.settings.rules, ...added] }
      } else if (suggestion.type === 'setMode' && suggestion.mode !== undefined) {
        this.mode = suggestion.mode
        this.context = { ...this.context, mode: suggestion.mode }
      } else if (suggestion.type === 'addDirectories') {
        const directories = [...new Set([...this.context.workingDirectories, ...(suggestion.directories ?? [])])]
        this.context = { ...this.context, workingDirectories: directories }
      }
    }
  }

  beforeHooks(call: PermissionCall): string | undefined {
    return checkBeforeHooks(this.settings, call, this.context, this.removed)
  }

  decide(call: PermissionCall): PermissionDecision {
    return decidePermission(this.settings, call, this.context)
  }
}

/** A `permission_suggestions` entry, as the engine makes them. */
interface SessionSuggestion {
  type: string
  rules?: { toolName: string; ruleContent?: string }[]
  behavior?: 'allow' | 'ask' | 'deny'
  mode?: PermissionMode
  directories?: string[]
}
