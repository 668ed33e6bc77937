import { defineTool, type Session, type ToolDefinition, type ToolOutput, uuidv7 } from '@harness-kernel/kernel'
import { z } from 'zod'
import { type AgentDefinition, CODEX_DEFAULT_AGENT } from './agent-definitions.js'
import type { ChildRun } from './child-run.js'
import type { Children } from './children.js'
import { codexStatus, subagentNotification } from './codex-status.js'

const inputItem = z.object({ type: z.string(), text: z.string().optional() }).passthrough()
const spawnInput = z
  .object({
    message: z.string().optional().describe('Initial plain-text task for the new agent. Use either message or items.'),
    items: z.array(inputItem).optional().describe('Structured input items (text items are used).'),
    agent_type: z.string().optional().describe('Which agent role to start; default "default".'),
    fork_context: z.boolean().optional().describe('Not supported here: the new agent starts with only its task.'),
    model: z.string().optional().describe('Accepted and ignored: the agent runs on the session model.'),
    reasoning_effort: z.string().optional().describe('Accepted and ignored.'),
  })
  .strict()
const waitInput = z
  .object({
    targets: z.array(z.string()).describe('Agent ids to wait on. Pass multiple ids to wait for whichever finishes first.'),
    timeout_ms: z.number().optional().describe('Timeout in milliseconds. Defaults to 30000, min 10000, max 3600000.'),
  })
  .strict()
const sendInput = z
  .object({
    target: z.string().describe('Agent id to message (from spawn_agent).'),
    message: z.string().optional().describe('Plain-text message to send to the agent. Use either message or items.'),
    items: z.array(inputItem).optional().describe('Structured input items (text items are used).'),
    interrupt: z.boolean().optional().describe('True interrupts the current task and handles this message immediately.'),
  })
  .strict()
const closeInput = z.object({ target: z.string().describe('Agent id to close (from spawn_agent).') }).strict()

const NICKNAMES = ['Newton', 'Curie', 'Noether', 'Turing', 'Lovelace', 'Darwin', 'Hopper', 'Faraday', 'Meitner', 'Euler']
const WAIT = { default: 30_000, min: 10_000, max: 3_600_000 }

export interface CodexAgentToolsOptions {
  agents: Readonly<Record<string, AgentDefinition>>
  children: Children
}

/**
 * Codex's multi-agent tools (`multi_agent_v1`): `spawn_agent` starts a subagent in the background and answers with its
 * id; `wait_agent` waits for one to reach a final status; `send_input` gives one more input; `close_agent` ends one.
 * A subagent that reaches a final status tells its parent with a `<subagent_notification>` message.
 */
export function codexAgentTools({ agents, children }: CodexAgentToolsOptions): ToolDefinition<never>[] {
  let spawned = 0
  const spawn = defineTool({
    name: 'spawn_agent',
    description: `Spawn a sub-agent for a well-scoped task. Returns the spawned agent id plus its nickname. Agent types: ${Object.entries(
      agents,
    )
      .map(([name, agent]) => `${name} (${agent.description})`)
      .join('; ')}.`,
    inputSchema: spawnInput,
    async execute(input, { session, callId }) {
      if (input.fork_context) return failure('fork_context is not supported by this harness; put what the agent needs in its message')
      if (children.refusal(session)) return failure('unsupported call: multi_agent_v1spawn_agent')
      const task = textOf(input)
      if (task === '') return failure('spawn_agent needs a message or text items')
      const type = input.agent_type ?? CODEX_DEFAULT_AGENT
      const definition = agents[type]
      if (!definition) return failure(`unknown agent_type "${type}"; known: ${Object.keys(agents).join(', ')}`)
      const child = await children.start({ parent: session, callId, type, definition })
      const nickname = NICKNAMES[spawned++ % NICKNAMES.length]
      runInBackground(children, session, child, task)
      return {
        output: JSON.stringify({ agent_id: child.agent.id, nickname }),
        isError: false,
        details: { agentId: child.agent.id, sessionId: child.session.id, transcriptPath: child.session.transcriptPath },
      }
    },
  })

  const wait = defineTool({
    name: 'wait_agent',
    aliases: { codex: 'multi_agent_v1wait_agent' },
    description:
      'Wait for agents to reach a final status. Completed statuses include the agent’s final message. Returns empty status when timed out.',
    inputSchema: waitInput,
    parallel: true,
    async execute({ targets, timeout_ms }, { session, signal }) {
      if (targets.length === 0) return failure('agent ids must be non-empty')
      const timeout = Math.min(WAIT.max, Math.max(WAIT.min, timeout_ms ?? WAIT.default))
      const runs = targets.map((id) => [id, live(children.get(session, id))] as const)
      const final = () => runs.filter(([, child]) => child === undefined || child.status !== 'running')
      if (final().length === 0)
        await firstSettled(
          runs.map(([, child]) => child as ChildRun),
          timeout,
          signal,
        )
      // Codex: `{"status":{id: status, …},"timed_out":false}`; `{"status":{},"timed_out":true}` after the timeout.
      const done = final()
      return {
        output: JSON.stringify({
          status: Object.fromEntries(done.map(([id, child]) => [id, codexStatus(child)])),
          timed_out: done.length === 0,
        }),
        isError: false,
      }
    },
  })

  const send = defineTool({
    name: 'send_input',
    aliases: { codex: 'multi_agent_v1send_input' },
    description: 'Send a message to an existing agent. Use interrupt=true to redirect work immediately.',
    inputSchema: sendInput,
    async execute(input, { session }) {
      const child = live(children.get(session, input.target))
      if (child === undefined) return failure(`agent with id ${input.target} not found`)
      const text = textOf(input)
      if (text === '') return failure('send_input needs a message or text items')
      if (input.interrupt && child.status === 'running') {
        child.session.interrupt('interrupted by send_input')
        await child.settled()
      }
      if (child.status === 'running') child.session.steer(text)
      else runInBackground(children, session, child, text)
      return { output: JSON.stringify({ submission_id: uuidv7() }), isError: false }
    },
  })

  const close = defineTool({
    name: 'close_agent',
    aliases: { codex: 'multi_agent_v1close_agent' },
    description: 'Close an agent when it is no longer needed, and return its status before it was closed.',
    inputSchema: closeInput,
    async execute({ target }, { session }) {
      const child = live(children.get(session, target))
      if (child === undefined) return failure(`agent with id ${target} not found`)
      const before = codexStatus(child)
      await child.close('closed by close_agent')
      // A subagent closed while running tells its parent so (`"status":"shutdown"`); a finished one already did.
      if (before === 'running') notify(children, session, child)
      return { output: JSON.stringify({ previous_status: before }), isError: false }
    },
  })

  return [spawn, wait, send, close] as ToolDefinition<never>[]
}

/** Runs a turn of `child` without waiting for it; when it ends, the parent is told. */
function runInBackground(children: Children, parent: Session, child: ChildRun, input: string): void {
  void child
    .run(input)
    .catch(() => undefined)
    .then(() => {
      if (!child.closing) notify(children, parent, child)
    })
}

/**
 * Tells the parent, once per subagent (Codex sends no second notification), that it reached a final status, as
 * Codex 0.169.0 does: into the parent's running turn at its next boundary (the final one too, so the turn goes on
 * with it), with no UserPromptSubmit; to an idle parent before its next prompt, starting no turn.
 */
function notify(children: Children, parent: Session, child: ChildRun): void {
  if (child.notified) return
  child.notified = true
  const text = subagentNotification(child)
  try {
    if (children.inTurn(parent)) parent.steer([{ type: 'text', text, origin: 'harness' }])
    else parent.inject({ role: 'user', content: [{ type: 'text', text }], source: { kind: 'plugin', plugin: 'subagents' } })
  } catch {
    // The parent has ended: the result stays in the subagent's own log.
  }
}

/** A subagent that is still open: a closed one is `not_found` to Codex's tools. */
function live(child: ChildRun | undefined): ChildRun | undefined {
  return child?.status === 'shutdown' ? undefined : child
}

function firstSettled(runs: ChildRun[], timeoutMs: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const unsubscribe: (() => void)[] = []
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      for (const off of unsubscribe) off()
      resolve()
    }
    const timer = setTimeout(done, timeoutMs)
    signal.addEventListener('abort', done, { once: true })
    for (const run of runs) unsubscribe.push(run.onSettled(done))
  })
}

function textOf(input: { message?: string | undefined; items?: { type: string; text?: string | undefined }[] | undefined }): string {
  if (input.message !== undefined) return input.message
  return (input.items ?? [])
    .filter((item) => item.type === 'text' && typeof item.text === 'string')
    .map((item) => item.text)
    .join('\n')
}

/** An error instead of a result: Codex runs no PostToolUse for it (`details.callError`). */
function failure(output: string): ToolOutput {
  return { output, isError: true, details: { callError: true } }
}
