import type { ShellEnvironmentPolicy } from '@harness-kernel/kernel'
import type { PermissionMode } from '../io/payload.js'
import type { ClaudeRenderer } from '../render/renderer.js'

export interface ClaudeCodeHooksOptions {
  /** The project (`CLAUDE_PROJECT_DIR`, `.claude/settings*.json`). Default: the session's cwd. */
  projectDir?: string
  /** Claude's config dir (user `settings.json`). Default `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
  configDir?: string
  /** Managed settings (`managed-settings.json`; its `managed-settings.d/` too). Default: the platform's path; `false` for none. */
  managedSettingsPath?: string | false
  /** `--settings`-style sources: file paths or inline JSON. */
  settings?: readonly string[]
  /** Claude Code plugin directories whose `hooks/hooks.json` load (with `CLAUDE_PLUGIN_ROOT`). */
  plugins?: readonly string[]
  /** Which of the user, project and local files to read. Default all three. */
  settingSources?: readonly ('user' | 'project' | 'local')[]
  /**
   * Let other sources add entries to an `allowedHttpHookUrls` or `httpHookAllowedEnvVars` list that managed settings
   * set, as Claude Code does. Default false: a list managed settings set is the whole list.
   */
  widenManagedAllowLists?: boolean
  /**
   * A managed settings file or drop-in that exists but cannot be read or parsed. `refuse` (default), as Claude Code
   * refuses to start with one: every turn halts with an error naming the file, until it is fixed or removed (the
   * session reads settings when it starts). `managed-hooks-only`: turns run, with only the hooks of the usable managed
   * files. Either way no other hook runs.
   */
  managedPolicyFailure?: 'refuse' | 'managed-hooks-only'
  /**
   * Opt-in: filter what command hooks inherit from the kernel's environment with the shell tool's policy (Codex's
   * `shell_environment_policy` semantics; e.g. `{}` drops every `*KEY*`, `*SECRET*` and `*TOKEN*` variable). Claude
   * Code itself passes hooks its whole environment, which is the default here too. `CLAUDE_PROJECT_DIR` and the other
   * variables the dialect sets stay.
   */
  hookEnvironment?: ShellEnvironmentPolicy
  /**
   * How hook texts reach the model. `auto` (default): `system` when the model provider declares
   * `capabilities.systemMessagesInConversation`, otherwise `classic`. `classic`: `<system-reminder>` blocks in user
   * content, valid everywhere. `system`: system-role messages. Or a custom renderer.
   */
  rendering?: 'auto' | 'classic' | 'system' | ClaudeRenderer
  /**
   * The permission mode, as Claude Code's `--permission-mode` (it wins over `permissions.defaultMode`): `default`,
   * `acceptEdits`, `plan`, `auto` (asks as `default`: the kernel has no classifier), `dontAsk`, `bypassPermissions`.
   * Default: the settings' `defaultMode`; when neither names one, only the permission rules apply and the kernel's
   * guardrails policy decides the rest (`permission_mode` in payloads is then `bypassPermissions` under approval policy
   * `never`, else `default`). See docs/guardrails.md for how both programs' guardrails combine.
   */
  permissionMode?: PermissionMode
  /** Working directories besides the cwd and `permissions.additionalDirectories`, as Claude Code's `--add-dir`. */
  additionalDirectories?: readonly string[]
  /**
   * The model's name: `model` in SessionStart (`compact`) payloads, and the price table the resume fields use
   * (`estimated_cache_write_usd`). Default: the kernel model provider's `id` (a driver that brings its own model: the
   * driver's id).
   */
  model?: string
  /** The model's effort level (`effort` in payloads, `CLAUDE_EFFORT`). Default: none. */
  effort?: string
  /** Default timeout of command and http handlers, seconds. Default 600 (older Claude Code: 60). */
  defaultTimeoutSec?: number
  /** Budget all SessionEnd handlers share. Default `$CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS`, else 1500 ms (at most 60 s). */
  sessionEndTimeoutMs?: number
  /**
   * Stop-hook continuations allowed in a row; the next block ends the turn anyway, with Claude Code's warning.
   * Default `$CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`, else 8 (the 9th block ends it); 0 means no cap. The kernel's own
   * `maxStopContinuations` (default 8) must be at least this for a higher cap to take effect.
   */
  stopHookBlockCap?: number
  /**
   * A PreToolUse hook's `ask`. `deny`: the call is denied with the hook's reason as the tool error, as headless Claude
   * Code does. `approvals`: the kernel's approver decides. Default: `deny` when the kernel has no approver configured.
   */
  hookAsk?: 'deny' | 'approvals'
  /** `CLAUDE_CODE_ENTRYPOINT` and `AI_AGENT` for hooks. Default `harness-kernel`. */
  entrypoint?: string
  /** Where SessionStart hooks get a `CLAUDE_ENV_FILE`. Default `<tmpdir>/harness-claude-code/session-env`. */
  envFileDir?: string
  /** Where hook output over 10,000 characters is saved (one folder per session). Default `<tmpdir>/harness-claude-code/hook-output`. */
  hookOutputDir?: string
  /**
   * What `transcript_path` names. `kernel` (default): the kernel's session log (JSONL, the kernel's format).
   * `claude-code`: a transcript in Claude Code's format, written as the session goes, so hooks that parse it work.
   */
  transcript?: 'kernel' | 'claude-code'
  /** Where `claude-code` transcripts go (`<transcriptDir>/<sessionId>.jsonl`). Default `<configDir>/projects/<project path, non-alphanumerics as ->`. */
  transcriptDir?: string
  /** The environment settings and hooks are read from. Default `process.env`. */
  env?: NodeJS.ProcessEnv
  /** Opt-in fixes for Claude Code's quirks; off by default (claude-code-hooks.md §8). */
  fixes?: ClaudeCodeFixes
}

export interface ClaudeCodeFixes {
  /** PreToolUse `continue:false` halts before the tool runs (Claude Code runs the tool, then halts). */
  haltBeforeTool?: boolean
  /** A hook's `ask` still runs PermissionRequest hooks (Claude Code skips them). */
  askRunsPermissionRequest?: boolean
}
