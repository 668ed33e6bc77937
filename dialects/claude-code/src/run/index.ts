export { type BashCommandParts, splitBashCommand } from './bash-command-parts.js'
export { dedupHandlers, handlerDedupKey } from './dedup-handlers.js'
export { describeFetchError } from './fetch-error.js'
export type { HandlerRunOutcome, HandlerRunResult, HandlerRunSpec, HandlerVerdict, RunnableHandler, RunnerServices } from './handler-run.js'
export { interpolateHeaderValue } from './header-interpolation.js'
export {
  DEFAULT_HOOK_AGENT_NAME,
  EFFORT_ENV_EVENTS,
  HOOK_ENV_NOT_PROVIDED,
  HOOK_ENV_SET,
  HOOK_ENV_STRIPPED_PREFIXES,
  type HookEnvInput,
  hookEnv,
} from './hook-env.js'
export { HOOK_SHELLS, hookShell } from './hook-shell.js'
export {
  asMcpToolCaller,
  MCP_CLIENTS_SERVICE,
  type McpToolCaller,
  type McpToolCallResult,
  type McpToolContentBlock,
} from './mcp-tool-caller.js'
export { mcpToolArguments } from './mcp-tool-input.js'
export { PATH_PLACEHOLDERS, substitutePathPlaceholders } from './path-placeholders.js'
export { matchesPathPattern, type PathRuleContext } from './path-rule.js'
export { payloadJsonOf } from './payload-json.js'
export {
  matchesPermissionRule,
  type ParsedPermissionRule,
  type PermissionRuleMatch,
  type PermissionRuleOptions,
  parsePermissionRule,
} from './permission-rule.js'
export { PROMPT_HOOK_SYSTEM, promptHookRequest, promptHookText } from './prompt-request.js'
export { parsePromptVerdict } from './prompt-verdict.js'
export { commandSpecOf, runCommandHandler } from './run-command-handler.js'
export { runHandler, runHandlers } from './run-handlers.js'
export { httpHeaders, runHttpHandler } from './run-http-handler.js'
export { mcpServerNotConnected, mcpToolUnavailableOn, runMcpToolHandler } from './run-mcp-tool-handler.js'
export { PROMPT_HOOK_TIMEOUT_MS, runPromptHandler } from './run-prompt-handler.js'
