import type { KernelApi, Session } from '@harness-kernel/kernel'
import type { AgentDefinition } from './agent-definitions.js'
import { ChildRun } from './child-run.js'

export interface StartChild {
  parent: Session
  callId: string
  type: string
  definition: AgentDefinition
  /** Default: the child's session id. */
  id?: string
}

/** The subagents each session started, and the rules every one of them runs under. */
export class Children {
  readonly #byParent = new WeakMap<Session, Map<string, ChildRun>>()
  readonly #bySession = new WeakMap<Session, ChildRun>()
  /** Sessions with a turn running (from their `turn/start` and `turn/end` events). */
  readonly #inTurn = new WeakSet<Session>()

  constructor(
    private readonly kernel: KernelApi,
    private readonly limits: { maxSteps: number; maxDepth: number },
  ) {}

  /** Why `parent` may not start a subagent, or undefined. */
  refusal(parent: Session): string | undefined {
    let depth = 0
    for (let at: Session | undefined = parent; at?.parent; at = at.parent.session) depth++
    if (depth >= this.limits.maxDepth) {
      return `this agent is ${depth} level${depth === 1 ? '' : 's'} deep and may not start subagents (maxDepth ${this.limits.maxDepth})`
    }
    return undefined
  }

  async start({ parent, callId, type, definition, id }: StartChild): Promise<ChildRun> {
    const session = await this.kernel.startSubagent({ parent, agent: { type, ...(id === undefined ? {} : { id }) }, callId })
    const agent = session.parent?.agent ?? { id: session.id, type }
    const child = new ChildRun(session, agent, definition.maxSteps ?? this.limits.maxSteps)
    if (definition.instructions) {
      session.inject({
        role: 'developer',
        content: [{ type: 'text', text: definition.instructions }],
        source: { kind: 'plugin', plugin: 'subagents' },
      })
    }
    const started = this.#byParent.get(parent) ?? new Map<string, ChildRun>()
    this.#byParent.set(parent, started)
    started.set(agent.id, child)
    this.#bySession.set(session, child)
    return child
  }

  /** A subagent `parent` started, by agent id. */
  get(parent: Session, agentId: string): ChildRun | undefined {
    return this.#byParent.get(parent)?.get(agentId)
  }

  /** Follows a session's log: whether a turn of it is running. */
  observe(session: Session, event: { type: string }): void {
    if (event.type === 'turn/start') this.#inTurn.add(session)
    else if (event.type === 'turn/end') this.#inTurn.delete(session)
  }

  inTurn(session: Session): boolean {
    return this.#inTurn.has(session)
  }

  /** The run behind a subagent's own session. */
  ofSession(session: Session): ChildRun | undefined {
    return this.#bySession.get(session)
  }
}
