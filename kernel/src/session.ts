import { setMaxListeners } from 'node:events'
import { TurnInterruptedError } from './abort.js'
import type { Budgets } from './budget/budget-types.js'
import { SessionBudget } from './budget/session-budget.js'
import type { Compactor } from './compaction/compactor.js'
import { defaultCompactor } from './compaction/default-compactor.js'
import { type CompactionResult, runCompaction } from './compaction/run-compaction.js'
import { costOf } from './cost/cost-of.js'
import { createTurnHost } from './driver/turn-host.js'
import type { Driver, DriverSession } from './driver/types.js'
import type { HookTapError } from './errors.js'
import { errorMessage, KernelError } from './errors.js'
import type { Guardrails } from './guardrails/types.js'
import type { KernelHooks } from './hooks.js'
import type { ResolvedKernelOptions } from './kernel-options.js'
import type { Message } from './messages.js'
import { userMessage } from './messages.js'
import type { ModelProvider, ModelUsage } from './model.js'
import type { ProcessRunner } from './process-runner.js'
import type { Approvals, Logger } from './services.js'
import type { HookRunRecord, NoticeLevel, SessionEvent, SessionEventBody, UsageRecord } from './session-events.js'
import type { SessionRuntime } from './session-runtime.js'
import { type PendingSessionState, Transcript } from './session-state.js'
import type { SessionLog } from './session-store.js'
import type { CompactOptions, InterruptOrigin, InterruptReceipt, ParentLink, Session, TurnInput, TurnResult } from './session-types.js'
import type { HeldClaim } from './steering/boundary-claims.js'
import { InProcessSteeringSource } from './steering/in-process-source.js'
import type { InputItem, SteeringSource, SteerOptions, SteerReceipt } from './steering/types.js'
import type { ToolRegistry } from './tool-registry.js'
import { runTurn } from './turn-runner.js'
import { uuidv7 } from './uuid-v7.js'

export interface SessionParts {
  id: string
  cwd: string
  log: SessionLog
  hooks: KernelHooks
  options: ResolvedKernelOptions
  /** Resolved on first use: a driver that brings its own model never asks for one. */
  model(): ModelProvider
  driver: Driver
  /** The driver's own state directory for this session. */
  driverStateDir: string
  tools: ToolRegistry
  approvals: Approvals
  processRunner: ProcessRunner
  /** The `guardrails` service of the session's scope, resolved on first use (after the scope knows the session). */
  guardrails(): Guardrails
  logger: Logger
  /** The `compactor` service, resolved on first use; undefined when none is provided. */
  compactor(): Compactor | undefined
  reportTapError(error: HookTapError): void
  /** Kills the process groups the session's runs have going (its log was lost); says what became of each. */
  killProcessGroups(): Promise<string[]>
  /** This session's limits (the kernel's `budgets` with the session's own over them). */
  budgets: Budgets
  /** Set for a subagent's session. */
  parent?: ParentLink
  onEnd(session: KernelSession): Promise<void>
}

/** A session: serialized turns over one append-only log. */
export class KernelSession implements Session, SessionRuntime {
  readonly id: string
  readonly cwd: string
  readonly transcriptPath: string
  readonly transcript = new Transcript()
  readonly pending: PendingSessionState = { injected: [], halt: undefined }
  readonly hooks: KernelHooks
  readonly options: ResolvedKernelOptions
  readonly driver: Driver
  readonly tools: ToolRegistry
  readonly approvals: Approvals
  readonly processRunner: ProcessRunner
  readonly logger: Logger
  readonly parent: ParentLink | undefined
  readonly budget: SessionBudget
  queue = new InProcessSteeringSource()
  steeringSources: readonly SteeringSource[] = [this.queue]
  readonly #log: SessionLog
  readonly #parts: SessionParts
  #guardrails: Guardrails | undefined
  #chain: Promise<unknown> = Promise.resolve()
  #scheduled = 0
  #active: AbortController | undefined
  #ended = false
  #endCalled = false
  #closing = false
  #lost: Error | undefined
  #autoTurns = true
  #idleWaiters: (() => void)[] = []
  #driverSession: Promise<DriverSession> | undefined
  /** Subagents started from this session and not yet ended. */
  readonly #children = new Set<KernelSession>()
  /** The session this one is a subagent of, when it was started as one here. */
  #adopter: KernelSession | undefined

  constructor(parts: SessionParts) {
    this.id = parts.id
    this.cwd = parts.cwd
    this.#log = parts.log
    this.transcriptPath = parts.log.path
    this.hooks = parts.hooks
    this.options = parts.options
    this.driver = parts.driver
    this.tools = parts.tools
    this.approvals = parts.approvals
    this.processRunner = parts.processRunner
    this.logger = parts.logger
    this.parent = parts.parent
    this.#parts = parts
    this.budget = new SessionBudget({
      session: this,
      limits: parts.budgets,
      parent: parts.parent?.session instanceof KernelSession ? parts.parent.session.budget : undefined,
      hooks: parts.hooks,
      notice: (level, text) => this.notice(level, text, 'kernel'),
    })
  }

  get guardrails(): Guardrails {
    this.#guardrails ??= this.#parts.guardrails()
    return this.#guardrails
  }

  /**
   * Binds the session scope's `steering` service. The session's own queue (behind `session.steer`)
   * is claimed first; another source (a transport) is claimed after it at every boundary.
   */
  attachSteering(source: SteeringSource): void {
    if (source instanceof InProcessSteeringSource) this.queue = source
    this.steeringSources = source === this.queue ? [this.queue] : [this.queue, source]
    this.queue.onQueued(() => this.#startQueuedTurn())
  }

  /** After a crash: close a turn left open and give unanswered tool calls a result, so requests stay valid. */
  repairAfterCrash(): void {
    for (const [callId, { turnId }] of [...this.transcript.openCalls]) {
      this.append({
        type: 'tool/result',
        turnId: turnId ?? 'unknown',
        step: 0,
        callId,
        output: 'No result: the process ended before this tool call completed.',
        isError: true,
      })
    }
    const turnId = this.transcript.openTurnId
    if (turnId !== undefined) {
      this.append({ type: 'turn/end', turnId, status: 'interrupted', reason: 'the process ended before the turn finished' })
    }
  }

  get session(): Session {
    return this
  }

  get model(): ModelProvider {
    return this.#parts.model()
  }

  get compactor(): Compactor | undefined {
    return this.#parts.compactor()
  }

  async compact(options: CompactOptions = {}): Promise<CompactionResult> {
    this.#assertOpen('compact')
    return this.#enqueue(async () => {
      const controller = new AbortController()
      this.#active = controller
      try {
        return await runCompaction(this, this.compactor ?? defaultCompactor(), {
          trigger: 'manual',
          turn: undefined,
          signal: controller.signal,
          instructions: options.instructions,
        })
      } finally {
        this.#active = undefined
      }
    })
  }

  get messages(): readonly Message[] {
    return this.transcript.messages
  }

  /** Replays loaded events into the derived state without writing them again. */
  replay(events: readonly SessionEvent[]): void {
    for (const event of events) {
      this.transcript.apply(event)
      this.budget.record(event, false)
    }
  }

  async run(input: TurnInput): Promise<TurnResult> {
    this.#assertOpen('run')
    const messages = typeof input === 'string' ? (input === '' ? [] : [userMessage(input)]) : input
    this.#autoTurns = true
    return this.#enqueueTurn(messages)
  }

  steer(input: string | InputItem[], options?: SteerOptions): SteerReceipt {
    this.#assertOpen('steer')
    this.#autoTurns = true
    return this.queue.push(input, options)
  }

  inject(message: Message): void {
    this.#assertOpen('inject')
    this.pending.injected.push(message)
  }

  /** Interrupts the running turn, and those of its subagents. */
  interrupt(reason = 'interrupted by the user', origin?: InterruptOrigin): InterruptReceipt {
    this.#autoTurns = false
    this.#active?.abort(new TurnInterruptedError(reason, origin))
    for (const child of this.#children) child.interrupt(reason, origin)
    return { stillQueued: this.queue.queuedIds() }
  }

  /** A subagent's session: interrupted with this one, ended before it. */
  adoptChild(child: KernelSession): void {
    this.#children.add(child)
    child.#adopter = this
    void child.#whenEnded.then(() => this.#children.delete(child))
  }

  /** A subagent ended: its total spend goes into this log, for the budgets of a later resume. */
  #subagentEnded(child: KernelSession, reason: string): void {
    if (this.#ended || this.#lost !== undefined) return
    const link = child.parent
    try {
      this.append({ type: 'subagent/end', sessionId: child.id, agentId: link?.agent.id ?? child.id, reason, spent: child.budget.total })
    } catch (error) {
      this.logger.warn(`session ${this.id}: could not record the end of subagent ${child.id}: ${errorMessage(error)}`)
    }
  }

  async idle(): Promise<void> {
    while (this.#scheduled > 0) await new Promise<void>((resolve) => this.#idleWaiters.push(resolve))
  }

  /** Ends the session once idle. A second call while the first is under way returns at once. */
  async end(reason = 'other'): Promise<void> {
    if (this.#endCalled) return
    this.#endCalled = true
    await this.idle()
    // Closing: no new input from here on, but session-end taps may still record (a dialect's hook runs).
    this.#closing = true
    await this.#endChildren(reason)
    const cancelled = this.queue.cancelAll(`session ended (${reason})`)
    if (cancelled.length > 0 && this.#lost === undefined) {
      this.append({ type: 'steering/dropped', transport: this.queue.transport, itemIds: cancelled, reason: `session ended (${reason})` })
    }
    try {
      await this.hooks.sessionEnd.promise({ session: this, reason })
    } catch (error) {
      this.reportTapError(error as HookTapError)
    }
    await this.#closeDriver()
    if (this.#lost === undefined) this.append({ type: 'session/end', reason })
    this.#ended = true
    if (this.#adopter !== undefined) this.#adopter.#subagentEnded(this, reason)
    try {
      await this.#log.close()
    } catch (error) {
      if (this.#lost === undefined) this.logger.error(`session ${this.id}: closing its log failed: ${errorMessage(error)}`)
    } finally {
      await this.#parts.onEnd(this)
      this.#markEnded()
    }
  }

  /** Set once the store can no longer write the session's log (`SessionLog.onLost`): nothing is appended after it. */
  get lost(): Error | undefined {
    return this.#lost
  }

  /**
   * The store lost the session's log (another process took it over, or its storage failed for good): interrupts the
   * running turn (and its subagents'), kills the process groups the session's runs have going, tells the notice hook
   * (nothing is logged any more) and ends the session.
   */
  async lose(error: Error): Promise<void> {
    if (this.#lost !== undefined || this.#ended) return
    this.#lost = error
    const reason = `${errorMessage(error)}; this process stopped writing session ${this.id}`
    this.interrupt(reason, { by: 'system' })
    const killed = await this.#parts.killProcessGroups()
    this.notice('error', [reason, ...killed].join('; '), 'kernel')
    await this.end('lost')
  }

  get ended(): boolean {
    return this.#ended
  }

  /** True from the moment `end()` stops taking input. */
  get closing(): boolean {
    return this.#closing || this.#ended
  }

  #markEnded!: () => void
  readonly #whenEnded = new Promise<void>((resolve) => {
    this.#markEnded = resolve
  })

  async #endChildren(reason: string): Promise<void> {
    const children = [...this.#children]
    for (const child of children) child.interrupt(`the parent session ended (${reason})`)
    await Promise.all(children.map((child) => child.end(`parent ended: ${reason}`)))
  }

  append(body: SessionEventBody): SessionEvent {
    if (this.#lost !== undefined) throw new KernelError(`session ${this.id} can no longer write its log: ${this.#lost.message}`)
    const event = this.#log.append(body)
    if (this.options.fsync === 'always') this.#syncNow()
    this.transcript.apply(event)
    this.budget.record(event, true)
    this.hooks.sessionEvent.call({ session: this, event })
    return event
  }

  record(body: SessionEventBody): SessionEvent {
    if (this.#ended) throw new KernelError(`session ${this.id} has ended; cannot record`)
    return this.append(body)
  }

  recordHookRun(run: HookRunRecord): SessionEvent {
    return this.record({ ...run, type: 'hook/run' })
  }

  recordMessage(turnId: string | undefined, message: Message): void {
    const priced = message.role === 'assistant' ? this.#priced(message.meta) : message.meta
    if (priced !== message.meta) message = { ...message, meta: priced }
    this.append(turnId === undefined ? { type: 'message', message } : { type: 'message', turnId, message })
  }

  recordUsage(turnId: string | undefined, record: UsageRecord): void {
    const priced = this.#priced(record) ?? record
    this.append(turnId === undefined ? { type: 'usage', ...priced } : { type: 'usage', turnId, ...priced })
  }

  /** A step's record with `costUsd` from the `prices` table when it has usage and a priced model and no cost yet. */
  #priced<T extends { usage?: unknown; model?: unknown; costUsd?: unknown }>(record: T | undefined): T | undefined {
    if (record?.usage === undefined || record.costUsd !== undefined) return record
    const model = typeof record.model === 'string' ? record.model : undefined
    const costUsd = model === undefined ? undefined : costOf({ usage: record.usage as ModelUsage, model, prices: this.options.prices })
    if (costUsd === undefined) {
      this.budget.unpriced(model)
      return record
    }
    return { ...record, costUsd }
  }

  async syncForSteering(): Promise<void> {
    if (this.options.fsync !== 'never') await this.#log.sync()
  }

  /** `fsync: 'always'`: each append's sync is started in order and not waited for; a log lost on it says so (`onLost`). */
  #syncNow(): void {
    this.#log.sync().catch((error: unknown) => {
      if (this.#lost === undefined) this.logger.error(`session ${this.id}: syncing its log failed: ${errorMessage(error)}`)
    })
  }

  /** Logged and told to the notice hook; once the log is lost, only told. */
  notice(level: NoticeLevel, text: string, source: string): void {
    if (this.#lost === undefined) this.append({ type: 'notice', level, text, source })
    this.hooks.notice.call({ session: this, level, text, source })
  }

  reportTapError(error: HookTapError): void {
    this.#parts.reportTapError(error)
  }

  #enqueueTurn(input: Message[]): Promise<TurnResult> {
    return this.#enqueue(() => this.#runOne(input))
  }

  /** Runs `work` after whatever is scheduled (turns, compactions), one at a time. */
  #enqueue<T>(work: () => Promise<T>): Promise<T> {
    this.#scheduled++
    const result = this.#chain.then(async () => {
      try {
        return await work()
      } finally {
        this.#scheduled--
        this.#startQueuedTurn()
        if (this.#scheduled === 0) for (const resolve of this.#idleWaiters.splice(0)) resolve()
      }
    })
    this.#chain = result.catch(() => {})
    return result
  }

  async #runOne(input: Message[]): Promise<TurnResult> {
    const controller = new AbortController()
    // Every running tool and hook process listens to the turn's signal; many at once is normal.
    setMaxListeners(0, controller.signal)
    this.#active = controller
    try {
      const turn = { id: uuidv7(), number: this.transcript.turns + 1 }
      const held: HeldClaim[] = []
      const host = createTurnHost(this, turn, controller.signal, held, this.driver.id)
      const result = await runTurn({ turn, input, host, held, driverId: this.driver.id, driverSession: () => this.#openDriver() })
      // A budget that stops a turn before it began stops queued input from starting one turn after another.
      if (result.status === 'interrupted' || result.status === 'failed' || this.budget.haltedAtStart(turn.id)) this.#autoTurns = false
      return result
    } finally {
      this.#active = undefined
    }
  }

  #openDriver(): Promise<DriverSession> {
    if (this.#driverSession) return this.#driverSession
    const nativeId = this.transcript.nativeIds.get(this.driver.id)
    const opening = this.driver.open({
      sessionId: this.id,
      cwd: this.cwd,
      stateDir: this.#parts.driverStateDir,
      logger: this.logger,
      guardrails: this.guardrails,
      ...(nativeId === undefined ? {} : { nativeId }),
      ...(this.options.system === undefined ? {} : { system: this.options.system }),
    })
    this.#driverSession = opening
    // A failed open fails that turn; the next turn tries again.
    opening.catch(() => {
      if (this.#driverSession === opening) this.#driverSession = undefined
    })
    return opening
  }

  async #closeDriver(): Promise<void> {
    const opening = this.#driverSession
    this.#driverSession = undefined
    if (!opening) return
    try {
      await (await opening).close()
    } catch (error) {
      this.notice('error', `driver ${this.driver.id} did not close cleanly: ${errorMessage(error)}`, this.driver.id)
    }
  }

  /** Input queued while idle (or left when a turn ends) starts the next turn: it never vanishes. */
  #startQueuedTurn(): void {
    if (this.#ended || this.#closing || !this.#autoTurns || this.#scheduled > 0 || !this.queue.hasClaimable(true)) return
    this.#enqueueTurn([]).catch(() => {})
  }

  #assertOpen(what: string): void {
    if (this.#lost !== undefined) throw new KernelError(`session ${this.id} was lost (${this.#lost.message}); cannot ${what}`)
    if (this.#ended || this.#closing) throw new KernelError(`session ${this.id} has ended; cannot ${what}`)
  }
}
