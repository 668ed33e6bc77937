import type { Driver, DriverSessionContext } from '@harness-kernel/kernel'
import { DRIVER_SPEC } from '@harness-kernel/kernel'
import { CLAUDE_CODE_CAPABILITIES } from './capabilities.js'
import { ClaudeCodeSession } from './claude-code-session.js'
import type { ClaudeCodeDriverOptions } from './options.js'

/**
 * Runs each kernel turn inside the real Claude Code (through the Agent SDK): the kernel's tools as an
 * in-process MCP server, its points where Claude Code lets them fire, steering at tool boundaries.
 * The SDK loads when a session runs its first turn.
 */
export function claudeCodeDriver(options: ClaudeCodeDriverOptions = {}): Driver {
  return Object.freeze({
    specificationVersion: DRIVER_SPEC,
    id: 'claude-code',
    capabilities: CLAUDE_CODE_CAPABILITIES,
    async open(context: DriverSessionContext) {
      const run = options.query ?? (await import('@anthropic-ai/claude-agent-sdk')).query
      return new ClaudeCodeSession(context, options, run)
    },
  })
}
