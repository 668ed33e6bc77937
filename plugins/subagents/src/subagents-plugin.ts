import { definePlugin, type Plugin } from '@harness-kernel/kernel'
import { type AgentDefinition, checkAgents, checkSteps, defaultAgents } from './agent-definitions.js'
import { Children } from './children.js'
import { claudeAgentTool } from './claude-agent-tool.js'
import { codexAgentTools } from './codex-agent-tools.js'

export interface SubagentsOptions {
  /**
   * Whose tools the model gets: `claude-code` (default), Claude Code's `Agent`; `codex`, Codex's `spawn_agent`,
   * `wait_agent`, `send_input` and `close_agent`. Each has that program's name and input shape, so hooks match them.
   */
  tools?: 'claude-code' | 'codex'
  /** The agent types the model may start, by name. Default: `general-purpose` (Claude Code) or `default` (Codex). */
  agents?: Record<string, AgentDefinition>
  /** The most model requests one subagent turn may make before it is halted. Default 50. */
  maxSteps?: number
  /** How deep subagents may nest: 1 (default) lets the main session start them, and no subagent. */
  maxDepth?: number
}

/**
 * Subagents: a tool that runs a child session on the same kernel (`kernel.startSubagent`), with its own log linked
 * from the parent's, its own step limit, and the parent's interrupt. Its first turn fires `agent/subagent-start`; each
 * of its turns ends at `agent/subagent-stop`, which may continue it.
 */
export function subagents(options: SubagentsOptions = {}): Plugin {
  const flavor = options.tools ?? 'claude-code'
  if (flavor !== 'claude-code' && flavor !== 'codex') {
    throw new TypeError(`subagents: tools must be "claude-code" or "codex", got ${JSON.stringify(flavor)}`)
  }
  const maxSteps = options.maxSteps ?? 50
  checkSteps(maxSteps, 'subagents: maxSteps')
  const maxDepth = options.maxDepth ?? 1
  if (!(Number.isInteger(maxDepth) && maxDepth >= 0))
    throw new TypeError(`subagents: maxDepth must be a whole number >= 0, got ${maxDepth}`)
  const agents = options.agents ?? defaultAgents[flavor]
  checkAgents(agents, 'subagents')
  return definePlugin({
    name: 'subagents',
    setup(kernel) {
      const children = new Children(kernel, { maxSteps, maxDepth })
      const model = () => {
        try {
          return kernel.resolve('model').id
        } catch {
          return undefined
        }
      }
      if (flavor === 'claude-code') kernel.registerTool(claudeAgentTool({ agents, children, tools: () => kernel.resolve('tools'), model }))
      else for (const tool of codexAgentTools({ agents, children })) kernel.registerTool(tool)

      kernel.hooks.sessionEvent.tap('subagents', ({ session, event }) => children.observe(session, event))

      // The step limit: a subagent's turn is halted before a model request past its `maxSteps`.
      kernel.hooks.preStep.tap('subagents', (decision, { session, step }) => {
        const child = children.ofSession(session)
        if (child === undefined || decision.kind !== 'enter' || step <= child.maxSteps) return decision
        return { ...decision, halt: { reason: `the subagent reached its limit of ${child.maxSteps} model requests in one turn` } }
      })
    },
  })
}
