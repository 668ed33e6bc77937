import type { TrustStore } from '@harness-kernel/hook-protocol'
import type { ShellEnvironmentPolicy } from '@harness-kernel/kernel'

export interface CodexHooksOptions {
  /** Codex's home (user hooks.json, config.toml, trust state). Default `$CODEX_HOME`, else `~/.codex`. */
  codexHome?: string
  /** `codex -c key=value` overrides, e.g. `hooks.PreToolUse=[…]` or `hooks.state."<key>".trusted_hash="sha256:…"`. */
  sessionFlags?: readonly string[]
  /** A `requirements.toml` whose `[hooks]` are managed (always trusted, cannot be disabled). */
  managedRequirementsPath?: string
  /** More hooks.json / config.toml files, loaded after every other source. */
  files?: readonly string[]
  /**
   * `codex` (default): run what Codex would run: managed hooks and hooks whose trusted hash matches (Codex's own
   * `[hooks.state]`, or the harness trust store). `all`: the documented bypass, like Codex's
   * `--dangerously-bypass-hook-trust`; `enabled = false` is still honoured.
   */
  trust?: 'codex' | 'all'
  /** The harness's own trust store (`harness hooks trust`). Default `$HARNESS_HOME/trust/codex.json`; `false` for none. */
  trustStore?: TrustStore | false
  /** `model` in payloads. Default: the model provider's id. */
  model?: string
  /**
   * `permission_mode` in payloads. Default: as Codex, from the session's approval policy: `bypassPermissions` under
   * `never`, `default` otherwise.
   */
  permissionMode?: 'default' | 'bypassPermissions'
  /** Where spilled hook output goes. Default `$TMPDIR`, else the system temp dir. */
  tmpDir?: string
  /** The shell hooks run with. Default `/bin/bash`, as Codex. */
  shell?: string
  /**
   * Opt-in: filter what hook commands inherit from the kernel's environment with the shell tool's policy (Codex's
   * `shell_environment_policy` semantics; e.g. `{}` drops every `*KEY*`, `*SECRET*` and `*TOKEN*` variable). Codex
   * itself passes hooks its whole environment, which is the default here too. The hook's own variables stay.
   */
  hookEnvironment?: ShellEnvironmentPolicy
  /**
   * Where PreToolUse/PostToolUse contexts sit in model requests. `codex` (default): between the tool call and its
   * result, as Codex sends them. `kernel`: after the step's results, as the log records them (for providers whose
   * API cannot put a message between a call and its result).
   */
  toolContextOrder?: 'codex' | 'kernel'
  /** Opt-in fixes for Codex's known defects; off by default (codex-hooks.md §10). */
  fixes?: CodexFixes
}

export interface CodexFixes {
  /** Stop-hook continuations allowed per turn before the dialect stops the turn (Codex has no cap). */
  stopContinuationCap?: number
  /** Drop `. Command: <cmd>` from the PreToolUse block text the model sees. */
  redactBlockedCommand?: boolean
}
