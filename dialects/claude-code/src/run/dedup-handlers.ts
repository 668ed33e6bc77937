import { type ClaudeHandler, isCommandHandler, isHttpHandler, isMcpToolHandler, isPromptHandler } from '../types.js'

/**
 * What makes two handlers the same run: a command by its exact string, `args` and shell; an http handler by its URL; a
 * prompt by its text, model and `continueOnBlock`; an MCP tool by its server, tool and input as configured (Claude Code
 * 2.1.332 ran three such handlers once, one of them with another `timeout`; 2 runs). A plugin's handlers never merge with another plugin's or with settings
 * handlers (the plugin root is part of the key). Unsupported types are never deduplicated: undefined.
 */
export function handlerDedupKey(handler: ClaudeHandler): string | undefined {
  const pluginRoot = handler.plugin?.root ?? null
  if (isCommandHandler(handler)) {
    const { command, args, shell } = handler
    // `shell` is ignored in exec form, so it does not tell two exec-form handlers apart.
    return JSON.stringify(['command', command, args ?? null, args === undefined ? (shell ?? null) : null, pluginRoot])
  }
  if (isHttpHandler(handler)) return JSON.stringify(['http', handler.url, pluginRoot])
  if (isPromptHandler(handler))
    return JSON.stringify(['prompt', handler.prompt, handler.model ?? null, handler.continueOnBlock, pluginRoot])
  if (isMcpToolHandler(handler)) return JSON.stringify(['mcp_tool', handler.server, handler.tool, handler.input ?? {}, pluginRoot])
  return undefined
}

/**
 * Within one invocation an identical handler runs once: across groups, within a group and across sources. The first
 * occurrence is kept, in order. Apply it to the handlers that matched (matcher and `if`) for this invocation.
 */
export function dedupHandlers<H extends ClaudeHandler>(handlers: readonly H[]): H[] {
  const seen = new Set<string>()
  return handlers.filter((handler) => {
    const key = handlerDedupKey(handler)
    if (key === undefined) return true
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
