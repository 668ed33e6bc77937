import type {
  ApprovalDecision,
  ApprovalRequest,
  Approvals,
  Kernel,
  Plugin,
  ReachedBudget,
  Services,
  SessionEvent,
  ToolOutput,
} from '@harness-kernel/kernel'
import { definePlugin, rootSession } from '@harness-kernel/kernel'
import type { HostChannel } from './host-channel.js'
import { ThreadSteering } from './thread-steering.js'

/** What the bridge calls on the server for a thread's session. */
export interface BridgedThread {
  readonly steering: ThreadSteering
  onEvent(event: SessionEvent): void
  /** Streamed model text of the running turn. */
  onDelta(turnId: string, delta: string): void
  /** A tool's streamed output. */
  onToolOutput(callId: string, text: string): void
  /** A tool has run (before any post-execute hook); `aborted` when the turn's interrupt stopped it. */
  onToolExecuted(callId: string, result: ToolOutput, aborted: boolean): void
  /** Asks the thread's client (fails closed). */
  approve(request: ApprovalRequest): Promise<ApprovalDecision>
  /** Asks the client that started the turn for a higher limit, when it opted in; undefined: no raise. */
  raiseBudget(request: { turnId: string; budget: ReachedBudget; signal: AbortSignal }): Promise<number | undefined>
}

export interface AppServerBridgeOptions {
  /** Host-input timeout when the client asks for none (clamped 1,000–600,000 ms). Default 30,000. */
  defaultHostInputTimeoutMs?: number
}

/**
 * The plugin that connects kernel sessions to app-server threads. The kernel composes services at
 * setup, so the plugin provides session-scoped `steering` (a `ThreadSteering` looked up by session
 * id), a kernel-wide `approvals` that routes by session id, and taps `session/event` to forward every
 * durable event to its thread (and `model/delta`, `tools/output`, `tools/post-execute` for what shows live). Put it first in the composition (before dialects) so its pre-step tap
 * gives host-input messages their role before hooks see them.
 */
export class AppServerBridge {
  readonly plugin: Plugin
  readonly threads = new Map<string, BridgedThread>()
  readonly #steering = new Map<string, ThreadSteering>()
  readonly #early = new Map<string, SessionEvent[]>()
  readonly defaultHostInputTimeoutMs: number | undefined
  /** Called when a session's log was lost to another process (a shared store took it over): the server lets the thread go. */
  onSessionLost: ((sessionId: string, reason: string) => void) | undefined

  constructor(options: AppServerBridgeOptions = {}) {
    this.defaultHostInputTimeoutMs = options.defaultHostInputTimeoutMs
    // A session that is no thread of this server (yet, or any more) has nobody to ask: refused, never allowed.
    const approvals: Approvals = {
      request: (request) => {
        const thread = this.threads.get(request.session.id)
        if (!thread)
          return Promise.resolve({ kind: 'deny', reason: `The call to ${request.call.name} needs approval, and no host is connected.` })
        return thread.approve(request)
      },
    }
    this.plugin = definePlugin({
      name: 'app-server',
      setup: (kernel) => {
        kernel.provide('steering', ({ session }: Services) => this.steeringFor(session.id))
        kernel.provide('approvals', approvals)
        kernel.hooks.sessionEvent.tap('app-server', ({ session, event }) => {
          const thread = this.threads.get(session.id)
          if (thread) thread.onEvent(event)
          else if (this.#steering.has(session.id)) {
            // While `startSession`/`resumeSession` runs (SessionStart hooks): kept for the thread's first turn.
            const early = this.#early.get(session.id) ?? []
            early.push(event)
            this.#early.set(session.id, early)
          }
        })
        kernel.hooks.sessionEnd.tap('app-server', ({ session, reason }) => {
          if (reason === 'lost') this.onSessionLost?.(session.id, reason)
        })
        // A subagent's budget is asked about on the thread its session descends from.
        kernel.hooks.budgetReached.tapPromise('app-server', async (decision, { session, turn, budget, signal }) => {
          const thread = this.threads.get(rootSession(session).id)
          const limit = await thread?.raiseBudget({ turnId: turn.id, budget, signal })
          return limit === undefined ? decision : { kind: 'raise', limit }
        })
        kernel.hooks.modelDelta.tap('app-server', ({ session, turn, text }) => this.threads.get(session.id)?.onDelta(turn.id, text))
        kernel.hooks.toolOutput.tap('app-server', ({ session, call, text }) => this.threads.get(session.id)?.onToolOutput(call.id, text))
        // Stage -1000: the command's item completes before any dialect's post-execute tap runs a PostToolUse hook, as in Codex.
        kernel.hooks.toolPostExecute.tap({ name: 'app-server', stage: -1000 }, (decision, { session, call, result, signal }) => {
          this.threads.get(session.id)?.onToolExecuted(call.id, result, signal.aborted)
          return decision
        })
        // Stage -1000: before dialects' taps (wherever the plugin sits), so a developer item never reaches UserPromptSubmit.
        kernel.hooks.preStep.tapPromise({ name: 'app-server', stage: -1000 }, async (decision, payload) => {
          const steering = this.#steering.get(payload.session.id)
          if (decision.kind !== 'enter' || !steering) return decision
          for (const message of decision.messages) {
            const id = message.meta?.steeringItemId
            if (typeof id !== 'string' || message.source.kind !== 'steering' || message.source.transport !== 'app-server') continue
            const meta = steering.claimed.get(id)
            if (!meta) continue
            // The same object stays in the decision: the kernel matches recorded claims by identity or id.
            if (meta.kind === 'hostInput') message.role = meta.role
            message.meta = { ...message.meta, appServer: meta }
          }
          return decision
        })
      },
    })
  }

  /** The steering source of a session (created on first use: the kernel resolves it while creating the session). */
  steeringFor(sessionId: string): ThreadSteering {
    let steering = this.#steering.get(sessionId)
    if (!steering) {
      steering = new ThreadSteering(sessionId, (channel: HostChannel) => channel.hostInput?.timeoutMs ?? 30_000)
      this.#steering.set(sessionId, steering)
    }
    return steering
  }

  /** Events recorded before the thread was registered (SessionStart hook runs), once. */
  takeEarlyEvents(sessionId: string): SessionEvent[] {
    const early = this.#early.get(sessionId) ?? []
    this.#early.delete(sessionId)
    return early
  }

  forget(sessionId: string): void {
    this.#early.delete(sessionId)
    this.#steering.delete(sessionId)
    this.threads.delete(sessionId)
  }
}

export function createAppServerBridge(options?: AppServerBridgeOptions): AppServerBridge {
  return new AppServerBridge(options)
}

export type KernelFactory = (plugins: Plugin[]) => Kernel | Promise<Kernel>
