import { randomBytes } from 'node:crypto'
import { defineTool, type Session, type ToolDefinition, type ToolOutput, type ToolRegistry } from '@harness-kernel/kernel'
import { z } from 'zod'
import { type AgentDefinition, CLAUDE_DEFAULT_AGENT } from './agent-definitions.js'
import { agentResponse } from './agent-response.js'
import { type ChildRun, runError } from './child-run.js'
import type { Children } from './children.js'
import { taskNotification } from './task-notification.js'

/** Claude Code 2.1.332's `Agent` tool input (its JSON Schema, observed in a request's tool list). */
const agentInput = z
  .object({
    description: z.string().describe('A short (3-5 word) description of the task'),
    prompt: z.string().describe('The task for the agent to perform'),
    subagent_type: z.string().optional().describe('The type of specialized agent to use for this task'),
    model: z.enum(['sonnet', 'opus', 'haiku', 'fable']).optional().describe('Accepted and ignored: the subagent runs on the session model'),
    effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).optional().describe('Accepted and ignored'),
    run_in_background: z
      .boolean()
      .optional()
      .describe(
        'Agents run in the background by default; you will be notified when one completes. Set to false when your very next action depends on its result.',
      ),
    isolation: z.enum(['worktree', 'remote']).optional().describe('Not supported here'),
  })
  .strict()
type AgentInput = z.infer<typeof agentInput>

export interface ClaudeAgentToolOptions extends AgentContext {
  agents: Readonly<Record<string, AgentDefinition>>
  children: Children
}

/** What the tool reads of the kernel when a subagent ends: its tools (for Claude Code's names) and the model's id. */
export interface AgentContext {
  tools: () => ToolRegistry
  model: () => string | undefined
}

/** Claude Code's `Agent` tool: a subagent in the foreground (its final text is the result) or the background. */
export function claudeAgentTool({ agents, children, ...context }: ClaudeAgentToolOptions): ToolDefinition<AgentInput> {
  const types = Object.entries(agents)
    .map(([name, agent]) => `- ${name}: ${agent.description}`)
    .join('\n')
  return defineTool({
    name: 'Agent',
    description: `Launch a new agent to handle a complex, multi-step task on its own. It knows only what you put in the prompt, and its final message comes back to you.\n\nAvailable agent types:\n${types}`,
    inputSchema: agentInput,
    parallel: true,
    async execute(input, { session, callId, signal }) {
      if (input.isolation !== undefined) return failure(`isolation "${input.isolation}" is not supported by this harness`)
      const refusal = children.refusal(session)
      if (refusal) return failure(refusal)
      const type = input.subagent_type ?? CLAUDE_DEFAULT_AGENT
      const definition = agents[type]
      if (!definition) return failure(`Agent type '${type}' not found. Available agents: ${Object.keys(agents).join(', ')}`)
      const child = await children.start({ parent: session, callId, type, definition, id: claudeAgentId() })
      if (input.run_in_background ?? true) return launchInBackground(session, child, input, callId)
      const stop = () => child.session.interrupt('the parent turn was interrupted')
      signal.addEventListener('abort', stop, { once: true })
      try {
        const result = await child.run(input.prompt)
        return foregroundOutput(child, input, result.status === 'completed', context)
      } catch (error) {
        return failure(`the subagent failed: ${error instanceof Error ? error.message : String(error)}`)
      } finally {
        signal.removeEventListener('abort', stop)
        await child.close('the task is done')
      }
    },
  })
}

/** Claude Code's agent ids: `a` and 16 hex digits. */
export function claudeAgentId(): string {
  return `a${randomBytes(8).toString('hex')}`
}

function foregroundOutput(child: ChildRun, input: AgentInput, completed: boolean, context: AgentContext): ToolOutput {
  const text = child.lastMessage ?? ''
  if (!completed) return failure(`${runError(child.result)}${text ? `\n\nIts last message:\n${text}` : ''}`)
  const { notes, toolResponse } = agentResponse(child, input, { tools: context.tools(), model: context.model() })
  return {
    // Claude Code puts its notes (the tools used) before the report, and frames it; the kernel gives the notes and the report.
    output: [...notes, text].join(''),
    isError: false,
    details: { toolResponse, agentId: child.agent.id, sessionId: child.session.id, transcriptPath: child.session.transcriptPath },
  }
}

function launchInBackground(parent: Session, child: ChildRun, input: AgentInput, callId: string): ToolOutput {
  void child
    .run(input.prompt)
    .catch(() => undefined)
    .then(async () => {
      const notification = taskNotification({ child, callId, description: input.description, toolUses: toolUses(child) })
      await child.close('the task is done')
      try {
        parent.steer(notification)
      } catch {
        // The parent has ended: the result stays in the subagent's own log.
      }
    })
    .catch(() => undefined)
  return {
    output: [
      'Async agent launched successfully.',
      `agentId: ${child.agent.id}`,
      'The agent is working in the background. You will be notified automatically when it completes.',
      `output_file: ${child.session.transcriptPath}`,
    ].join('\n'),
    isError: false,
    details: {
      toolResponse: {
        isAsync: true,
        status: 'async_launched',
        agentId: child.agent.id,
        description: input.description,
        prompt: input.prompt,
        outputFile: child.session.transcriptPath,
      },
      agentId: child.agent.id,
      sessionId: child.session.id,
      transcriptPath: child.session.transcriptPath,
    },
  }
}

function toolUses(child: ChildRun): number {
  return child.session.messages.filter((message) => message.role === 'tool').length
}

function failure(output: string): ToolOutput {
  return { output, isError: true }
}
