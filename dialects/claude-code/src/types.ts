import type { ClaudeSandboxSettings } from './permissions/sandbox-settings.js'
import type { ClaudePermissionSettings } from './permissions/types.js'
/** Where a handler was configured. `flag` is an explicit `--settings`-style file or JSON. */
export type ClaudeHookSource = 'managed' | 'flag' | 'local' | 'project' | 'user' | 'plugin'

interface HandlerCommon {
  /** `<sourcePath>:<event>:<groupIndex>:<handlerIndex>`: stable, unique, shown by `harness hooks list`. */
  key: string
  /** The event key as configured (unknown events are kept, listed and never run). */
  event: string
  /** The group's matcher as configured; undefined when absent. Matcherless events keep it but ignore it. */
  matcher: string | undefined
  /** `timeout` in seconds as configured; undefined = the dialect's default for the handler type and event. */
  timeoutSec: number | undefined
  /** The `if` permission rule (`Bash(git *)`), tool events only. */
  if: string | undefined
  statusMessage: string | undefined
  source: ClaudeHookSource
  /** Absolute path of the settings file (or `<--settings>` for inline JSON). */
  sourcePath: string
  groupIndex: number
  handlerIndex: number
  /** Plugin hooks: the plugin's name, root (`CLAUDE_PLUGIN_ROOT`) and data dir (`CLAUDE_PLUGIN_DATA`). */
  plugin?: { name: string; root: string; data: string } | undefined
  /** Keys of the handler object the dialect does not know; tolerated and reported. */
  unknownFields: string[]
}

export interface CommandHandler extends HandlerCommon {
  type: 'command'
  /** The raw command string: never rewritten; the dedup key and the `<cmd>` of model-visible texts. */
  command: string
  /** Exec form: run `command` with these arguments, no shell, placeholders left literal. */
  args: string[] | undefined
  /** `bash` (default `/bin/sh`) or `powershell`. */
  shell: 'bash' | 'powershell' | undefined
  async: boolean
}

export interface HttpHandler extends HandlerCommon {
  type: 'http'
  url: string
  headers: Record<string, string>
  /** Variables that `$VAR` / `${VAR}` in header values may expand (intersected with `httpHookAllowedEnvVars`). */
  allowedEnvVars: string[]
}

export interface PromptHandler extends HandlerCommon {
  type: 'prompt'
  /** The prompt; `$ARGUMENTS` is replaced by the payload JSON. */
  prompt: string
  model: string | undefined
  /** PreToolUse: a `ok:false` denies the call but does not end the turn. */
  continueOnBlock: boolean
}

/**
 * Calls `tool` on the MCP server `server` (one the kernel's `mcp()` plugin runs) with `input`, its string values
 * interpolated from the payload (`${tool_input.file_path}`); the tool's text is read like a command's stdout.
 */
export interface McpToolHandler extends HandlerCommon {
  type: 'mcp_tool'
  server: string
  tool: string
  /** The tool's arguments as configured (before interpolation); undefined: `{}`. */
  input: Record<string, unknown> | undefined
  /** `block`: a failed call blocks what the event guards (Claude Code's `onFailure`; any value but `continue` reads as `block`). */
  onFailure: 'continue' | 'block'
}

/** `agent` and unknown types: loaded, listed, never run (one notice per session, `hook/run` outcome `skipped`). */
export interface UnsupportedHandler extends HandlerCommon {
  type: string
  raw: Record<string, unknown>
}

export type ClaudeHandler = CommandHandler | HttpHandler | PromptHandler | McpToolHandler | UnsupportedHandler

export function isCommandHandler(handler: ClaudeHandler): handler is CommandHandler {
  return handler.type === 'command'
}
export function isHttpHandler(handler: ClaudeHandler): handler is HttpHandler {
  return handler.type === 'http'
}
export function isPromptHandler(handler: ClaudeHandler): handler is PromptHandler {
  return handler.type === 'prompt'
}
export function isMcpToolHandler(handler: ClaudeHandler): handler is McpToolHandler {
  return handler.type === 'mcp_tool'
}
export function isRunnableType(handler: ClaudeHandler): handler is CommandHandler | HttpHandler | PromptHandler | McpToolHandler {
  return handler.type === 'command' || handler.type === 'http' || handler.type === 'prompt' || handler.type === 'mcp_tool'
}

/** A handler that loaded but will never run, and why (a gate, an unknown event, an unsupported type, a URL not allowed). */
export interface DroppedHandler {
  handler: ClaudeHandler
  reason: string
}

/** One settings source the loader looked at. */
export interface SettingsSourceReport {
  source: ClaudeHookSource
  path: string
  /** false: the file does not exist (not an error). */
  found: boolean
  /**
   * A file that exists but could not be read or parsed: its hooks are skipped, the rest load. For a managed file this
   * fails closed: only the hooks of usable managed files run.
   */
  error?: string | undefined
}

export interface LoadedClaudeCodeHooks {
  /** Handlers that may run, in load order (managed, flag, local, project, user, then plugins; config order within). */
  handlers: ClaudeHandler[]
  /** Handlers that will not run, with the reason; `harness hooks list` shows them. */
  dropped: DroppedHandler[]
  sources: SettingsSourceReport[]
  /** Load problems in plain words (bad JSON, wrong types, unknown events/fields/types). */
  warnings: string[]
  /** Scalar settings after precedence (managed > flag > local > project > user). */
  settings: {
    disableAllHooks: boolean
    allowManagedHooksOnly: boolean
    /** undefined: no restriction. */
    allowedHttpHookUrls: string[] | undefined
    /** undefined: no restriction. */
    httpHookAllowedEnvVars: string[] | undefined
  }
  /** `permissions` (rules, `defaultMode`, `additionalDirectories`, …) merged across the settings files. */
  permissions: ClaudePermissionSettings
  /** `sandbox` (Claude Code's sandbox for Bash) merged across the settings files. */
  sandbox: ClaudeSandboxSettings
  /** The project directory (`CLAUDE_PROJECT_DIR`). */
  projectDir: string
}
