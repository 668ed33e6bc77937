import type { HookCallbackMatcher, HookEvent, HookJSONOutput } from '@anthropic-ai/claude-agent-sdk'
import type { ClaudeCodeTurn } from './claude-code-turn.js'
import { NOT_HOST_TOOL } from './host-tools.js'

type ToolHookInput = { tool_name: string; tool_input: unknown; tool_use_id: string; tool_response?: unknown; error?: string }

/**
 * The SDK callbacks through which the kernel's tool points see Claude Code's own (built-in) tools. Kernel
 * tools are left alone here: their points run inside the MCP handler, exactly once, and the matcher keeps Claude Code
 * from calling back for them at all (two round trips fewer per kernel tool step).
 */
export function builtinToolHooks(turn: () => ClaudeCodeTurn | undefined): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
  const on = (run: (current: ClaudeCodeTurn, input: ToolHookInput) => Promise<HookJSONOutput>): HookCallbackMatcher[] => [
    {
      matcher: NOT_HOST_TOOL,
      hooks: [
        async (input) => {
          const current = turn()
          return current ? run(current, input as unknown as ToolHookInput) : {}
        },
      ],
    },
  ]
  return {
    PreToolUse: on((current, input) => current.preToolUse(input)),
    PostToolUse: on((current, input) => current.postToolUse(input, false)),
    PostToolUseFailure: on((current, input) => current.postToolUse(input, true)),
  }
}
