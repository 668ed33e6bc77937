import type { Options, PermissionMode, query } from '@anthropic-ai/claude-agent-sdk'
import type { Session } from '@harness-kernel/kernel'

export interface ClaudeCodeDriverOptions {
  /** The model Claude Code uses. Default: Claude Code's own choice (it reads `ANTHROPIC_MODEL`). */
  model?: string
  /**
   * The system prompt. Default: the kernel's `system` option, else the Agent SDK's short default.
   * `{ type: 'preset', preset: 'claude_code' }` gives Claude Code's own main prompt.
   */
  systemPrompt?: Options['systemPrompt']
  /** Claude Code's built-in tools to offer besides the kernel's (e.g. `['Bash', 'Read']`). Default: none. */
  builtinTools?: string[]
  /** Built-in tools that run without asking the kernel's `tools/permission-request` first. Default: none. */
  allowedBuiltinTools?: string[]
  /** Claude Code's permission mode for built-in tools. Default `default`. */
  permissionMode?: PermissionMode
  /** The `claude` binary. Default: the one the Agent SDK's platform package installed. */
  executable?: string
  /**
   * Claude Code's environment: `process.env` with these over it (`undefined` removes a variable).
   * Its endpoint and key come from here as when it runs alone (`ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`).
   */
  env?: Record<string, string | undefined>
  /**
   * More of Claude Code's environment for one session, over `env`, asked for when its process starts: what a plugin
   * needs Claude Code to have. `telemetry().claudeCodeEnvironment` (`@harness-kernel/telemetry`) makes Claude Code
   * export its own telemetry to the harness's collector, its spans under the session's span.
   */
  environment?: (session: Session) => Record<string, string | undefined>
  /**
   * Where Claude Code keeps its settings, transcripts and state. `isolated` (default): a folder of the
   * session's own under the kernel's state, so `~/.claude` is neither read nor written; `user`: Claude
   * Code's usual place; any other string: that folder.
   */
  configDir?: 'isolated' | 'user' | (string & {})
  /** How long a steer may wait for Claude Code's `queued` receipt before it is cancelled. Default 2,000 ms. */
  admissionTimeoutMs?: number
  /**
   * More Agent SDK options (`hooks`, `settingSources`, `agents`, …), under the driver's own: the driver
   * keeps `tools`, `mcpServers`, `canUseTool` and its own hooks (yours run beside them).
   */
  queryOptions?: Partial<Options>
  /** Replaces the SDK's `query` (an offline transport double in tests). */
  query?: typeof query
}

export const DEFAULT_ADMISSION_TIMEOUT_MS = 2_000
