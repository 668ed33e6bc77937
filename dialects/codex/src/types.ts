import type { CodexEvent } from './events.js'

/** Where a handler was configured, as Codex reports it in `source`. */
export type CodexHookSource = 'managed' | 'system' | 'user' | 'project' | 'sessionFlags' | 'explicit'

export type TrustStatus = 'managed' | 'trusted' | 'modified' | 'untrusted'

/** One loaded command handler (codex-hooks.md §1–§3). */
export interface CodexHandler {
  /** `<sourcePath>:<event_label>:<groupIndex>:<handlerIndex>`: the trust key. */
  key: string
  event: CodexEvent
  /** The effective matcher: undefined when absent, and always for UserPromptSubmit, Stop, Interrupt. */
  matcher: string | undefined
  /** The raw command string; never rewritten. */
  command: string
  /** Effective timeout in seconds (600 default, 0 → 1; SessionEnd/Interrupt default 1, clamped to 3). */
  timeoutSec: number
  async: boolean
  statusMessage: string | undefined
  /** Spill threshold in approximate tokens; undefined = the default 2,500; 0 = never spill. */
  additionalContextLimit: number | undefined
  source: CodexHookSource
  /** Absolute path of the hooks.json or config.toml (`/<session-flags>/config.toml` for -c flags). */
  sourcePath: string
  /** One global counter across sources, in Codex's order (§1.2). */
  displayOrder: number
  groupIndex: number
  handlerIndex: number
  /** `sha256:<hex>` of the handler's identity (§2). */
  currentHash: string
  /** false when `[hooks.state."<key>"] enabled = false`. Managed handlers are always enabled. */
  enabled: boolean
  trustStatus: TrustStatus
}

export interface LoadedCodexHooks {
  handlers: CodexHandler[]
  /** Codex's load-time warnings, exact texts, in the order Codex gives them. */
  warnings: string[]
  /** `[features] hooks` (default true; `codex_hooks` is a deprecated alias). */
  featureEnabled: boolean
  /** Set when the project's `.codex/` folders hold hooks that are not loaded because Codex does not trust the project. */
  untrustedProject?: UntrustedProject
}

/** A project whose `.codex/` hooks Codex does not load, because the project is not trusted. */
export interface UntrustedProject {
  /** The project as Codex records its trust: the repository root (a worktree's main repository), else the working directory. */
  path: string
  /** The user config.toml where Codex reads `[projects."<path>"] trust_level` (and `harness hooks trust --project` writes it). */
  configPath: string
  /** The `.codex/` folders not loaded, from the project root down to the working directory. */
  layers: UntrustedProjectLayer[]
}

export interface UntrustedProjectLayer {
  /** The folder holding `.codex/`. */
  dir: string
  dotCodex: string
  /** Its files that hold hooks: hooks.json, and config.toml when it has a `[hooks]` table (or cannot be read as TOML). */
  hookFiles: string[]
  /** The `[projects."<key>"]` entry that keeps the folder untrusted; undefined when no entry names it. */
  trustEntry: { key: string; level: string } | undefined
}

/** A handler runs iff enabled and (managed or trusted or the trust bypass is on). */
export function handlerRuns(handler: CodexHandler, bypassTrust: boolean): boolean {
  if (!handler.enabled) return false
  return handler.trustStatus === 'managed' || handler.trustStatus === 'trusted' || bypassTrust
}
