import type { ApprovalDecision, ApprovalRequest, Message, ReachedBudget, Session, SessionEvent, ToolOutput } from '@harness-kernel/kernel'
import { errorMessage } from '@harness-kernel/kernel'
import { approvalDecision, approvalServerRequest, COMMAND_APPROVAL } from './approval-requests.js'
import { BUDGET_REQUEST, budgetRequestParams, raisedLimit } from './budget-requests.js'
import { CommandItems } from './command-items.js'
import { hookRunSummary } from './hook-runs.js'
import type { HostChannel } from './host-channel.js'
import { MessageItems } from './message-items.js'
import { inputText, type UserInput } from './params.js'
import { invalidRequest } from './rpc-errors.js'
import { type QueuedSteer, type ThreadSteering, TRANSPORT } from './thread-steering.js'
import type { TokenUsageMeter } from './token-usage.js'
import { uuidv7 } from './uuid-v7.js'
import { type AppServerMeta, stamped, type WireTurn, wireTurnStatus } from './wire-items.js'

export type SteerOnTurnEnd = 'drop' | 'nextTurn'

export interface AppThreadOptions {
  onTurnEnd: SteerOnTurnEnd
  createdMs: number
  /** Where the thread's own failures are logged. Default stderr. */
  log?: (message: string) => void
  /** The server's `onRuleAmendment`: an argv prefix the client allowed from now on. */
  onRuleAmendment?: (prefix: string[]) => void | Promise<void>
}

interface ActiveTurn {
  id: string
  startedMs: number
  /** `turn/interrupt` answers, sent when the turn has ended (after its Interrupt hooks). */
  interruptReplies: (() => void)[]
  /** Carry-over turns do not carry over again. */
  carried: boolean
}

interface Starting {
  reply(turn: WireTurn): void
  fail(error: unknown): void
  carried: boolean
  ready: Promise<string>
  resolveReady(turnId: string): void
}

const seconds = (ms: number) => Math.floor(ms / 1000)

/** One thread: a kernel session, its running turn, and the mapping of its durable events to notifications. */
export class AppThread {
  readonly id: string
  readonly session: Session
  readonly steering: ThreadSteering
  readonly createdMs: number
  readonly onTurnEnd: SteerOnTurnEnd
  readonly #log: (message: string) => void
  readonly #onRuleAmendment: AppThreadOptions['onRuleAmendment']
  /** The turn the client cancelled at an approval request (`cancel`): it ends halted, and is shown interrupted. */
  #cancelledTurnId: string | undefined
  #active: ActiveTurn | undefined
  #starting: Starting[] = []
  /** SessionStart runs recorded before any turn: shown in the first turn, as Codex does. */
  #deferredHookRuns: Extract<SessionEvent, { type: 'hook/run' }>[] = []
  /** Warnings recorded before the thread was shown (`thread/started` or the resume answer), sent right after it. */
  #earlyWarnings: string[] | undefined = []
  readonly #commands: CommandItems
  readonly #messages: MessageItems

  constructor(session: Session, steering: ThreadSteering, options: AppThreadOptions) {
    this.id = session.id
    this.session = session
    this.steering = steering
    this.onTurnEnd = options.onTurnEnd
    this.createdMs = options.createdMs
    this.#log = options.log ?? ((message) => process.stderr.write(`[app-server] ${message}\n`))
    this.#onRuleAmendment = options.onRuleAmendment
    const notify = (method: string, params: Record<string, unknown>) => this.channel?.notify(method, params)
    this.#commands = new CommandItems(this.id, session.cwd, notify)
    this.#messages = new MessageItems(this.id, notify, (item) => this.steering.heldItems.set(item.id, item))
  }

  /** The thread's token usage (seeded from the log on a cold resume). */
  get usage(): TokenUsageMeter {
    return this.#messages.usage
  }

  /** Events recorded while the session was being created or resumed: hook runs and warnings, shown later. */
  deferEarlyEvents(events: SessionEvent[]): void {
    for (const event of events) {
      if (event.type === 'hook/run') this.#deferredHookRuns.push(event)
      else if (event.type === 'notice' && event.level === 'warning') this.#earlyWarnings?.push(event.text)
    }
  }

  /** The thread has been shown to the client: warnings held until then are sent, later ones as they come. */
  shown(): void {
    const held = this.#earlyWarnings ?? []
    this.#earlyWarnings = undefined
    for (const message of held) this.channel?.notify('warning', { threadId: this.id, message })
  }

  get channel(): HostChannel | undefined {
    return this.steering.channel
  }

  get activeTurnId(): string | undefined {
    return this.#active?.id
  }

  get busy(): boolean {
    return this.#active !== undefined || this.#starting.length > 0
  }

  /**
   * `turn/start`. Idle: starts a turn; the answer is sent when the kernel opens it, before `turn/started`.
   * Running: the input is queued like a steer and the active turn is returned.
   */
  async startTurn(
    input: UserInput[],
    clientId: string | null,
    reply: (turn: WireTurn) => void,
    fail: (error: unknown) => void,
    /** The input's id when it has one already (an inbox row's): the recorded message carries it, so it is recorded once. */
    itemId?: string,
  ): Promise<WireTurn | undefined> {
    if (this.busy) {
      const turnId = this.#active?.id ?? (await this.#starting.at(-1)!.ready)
      if (this.#active?.id === turnId) {
        this.steering.queue({ id: itemId ?? uuidv7(), content: input, clientId, turnId })
        return this.#wireTurn(this.#active, 'inProgress')
      }
    }
    const message: Message = {
      role: 'user',
      content: [{ type: 'text', text: inputText(input) }],
      source: { kind: 'user' },
      meta: {
        appServer: { kind: 'input', content: input, clientId } satisfies AppServerMeta,
        ...(itemId === undefined ? {} : { steeringItemId: itemId }),
      },
    }
    this.#run([message], false, reply, fail)
    return undefined
  }

  #run(messages: Message[], carried: boolean, reply: (turn: WireTurn) => void, fail?: (error: unknown) => void): void {
    let resolveReady!: (turnId: string) => void
    const ready = new Promise<string>((resolve) => {
      resolveReady = resolve
    })
    const starting: Starting = { reply, fail: fail ?? (() => {}), carried, ready, resolveReady }
    this.#starting.push(starting)
    this.session.run(messages).catch((error: unknown) => {
      const index = this.#starting.indexOf(starting)
      if (index < 0) return
      this.#starting.splice(index, 1)
      starting.fail(error)
    })
  }

  steer(input: UserInput[], expectedTurnId: string, clientId: string | null): { turnId: string } {
    if (input.length === 0) throw invalidRequest('input must not be empty')
    const active = this.#active
    if (!active) throw invalidRequest('no active turn to steer')
    if (active.id !== expectedTurnId) throw invalidRequest(`expected active turn id \`${expectedTurnId}\` but found \`${active.id}\``)
    this.steering.queue({ id: uuidv7(), content: input, clientId, turnId: active.id })
    return { turnId: active.id }
  }

  /** `turn/interrupt`: `reply` is called when the turn has ended (its Interrupt hooks have run), before `turn/completed`. */
  interrupt(turnId: string, reply: () => void): void {
    const active = this.#active
    if (!active) throw invalidRequest('no active turn to interrupt')
    if (active.id !== turnId) throw invalidRequest(`expected active turn id \`${turnId}\` but found \`${active.id}\``)
    active.interruptReplies.push(reply)
    this.#commands.interrupting()
    this.session.interrupt('interrupted by the user')
  }

  /**
   * `thread/compact/start`: the session's `compact()`, shown as Codex shows it, a turn of its own holding a
   * `contextCompaction` item. It ends `completed`, `interrupted` when a PreCompact hook stopped it (as Codex's), or
   * `failed` with the reason. A thread with a turn running is refused: the compaction would wait behind it.
   */
  compact(): void {
    if (this.busy) throw invalidRequest('a turn is running; compact the thread once it has ended')
    const active: ActiveTurn = { id: uuidv7(), startedMs: Date.now(), interruptReplies: [], carried: true }
    this.#active = active
    this.channel?.notify('thread/status/changed', { threadId: this.id, status: { type: 'active', activeFlags: [] } })
    this.channel?.notify('turn/started', { threadId: this.id, turn: this.#wireTurn(active, 'inProgress') })
    const item = { type: 'contextCompaction', id: uuidv7() }
    this.channel?.notify('item/started', {
      item: stamped(item, active.startedMs, null),
      threadId: this.id,
      turnId: active.id,
      startedAtMs: active.startedMs,
    })
    const ended = (status: WireTurn['status'], error: string | undefined) => {
      const now = Date.now()
      if (status === 'completed')
        this.channel?.notify('item/completed', {
          item: stamped(item, active.startedMs, now),
          threadId: this.id,
          turnId: active.id,
          completedAtMs: now,
        })
      this.#active = undefined
      this.channel?.notify('thread/status/changed', { threadId: this.id, status: { type: 'idle' } })
      const turn: WireTurn = {
        ...this.#wireTurn(active, status),
        itemsView: 'summary',
        error: error === undefined ? null : { message: error, codexErrorInfo: null, additionalDetails: null },
        completedAt: seconds(now),
        durationMs: now - active.startedMs,
      }
      this.channel?.notify('turn/completed', { threadId: this.id, turn })
    }
    this.session.compact().then(
      (result) => {
        if (result.status === 'compacted' || result.status === 'skipped') ended('completed', undefined)
        else if (result.status === 'halted') ended('interrupted', undefined)
        else ended('failed', result.error)
      },
      (error: unknown) => ended('failed', errorMessage(error)),
    )
  }

  /**
   * The session's log was lost to another process, which now runs the thread: a turn running here ends `interrupted`
   * for this server's clients (nothing of it after the take-over is kept), and the thread is no longer loaded here.
   */
  lost(): void {
    const active = this.#active
    this.#active = undefined
    this.#starting.splice(0)
    if (active) {
      for (const reply of active.interruptReplies.splice(0)) reply()
      const now = Date.now()
      this.channel?.notify('turn/completed', {
        threadId: this.id,
        turn: {
          ...this.#wireTurn(active, 'interrupted'),
          error: {
            message: 'another process took this thread over; what ran here since is not kept',
            codexErrorInfo: null,
            additionalDetails: null,
          },
          completedAt: seconds(now),
          durationMs: now - active.startedMs,
        },
      })
    }
    this.#commands.turnEnded()
  }

  readonly #recordedWaiters = new Map<string, ((turnId: string) => void)[]>()

  /** Settles with the turn a message carrying `itemId` (its `steeringItemId`) is recorded in, once it is. */
  whenRecorded(itemId: string): Promise<string> {
    return new Promise((resolve) => this.#recordedWaiters.set(itemId, [...(this.#recordedWaiters.get(itemId) ?? []), resolve]))
  }

  #itemRecorded(event: Extract<SessionEvent, { type: 'message' }>): void {
    const itemId = event.message.meta?.steeringItemId
    if (typeof itemId !== 'string' || event.turnId === undefined) return
    const waiters = this.#recordedWaiters.get(itemId) ?? []
    this.#recordedWaiters.delete(itemId)
    for (const waiter of waiters) waiter(event.turnId)
  }

  /** Interrupts whatever runs (host gone, shutdown). */
  interruptAll(reason: string): void {
    if (this.busy) this.session.interrupt(reason)
  }

  inject(messages: Message[]): void {
    for (const message of messages) this.session.inject(message)
  }

  /**
   * Asks the client about a call (§6): `item/commandExecution/requestApproval`, or `item/fileChange/requestApproval`
   * for a file change, with `thread/status/changed` `waitingOnApproval` around it and `serverRequest/resolved` after.
   * Fails closed: no connected client, a client gone or the turn ended (interrupted) while waiting is a refusal.
   */
  async approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    const channel = this.channel
    if (!channel || channel.closed)
      return { kind: 'deny', reason: `The call to ${request.call.name} needs approval, and no host is connected.` }
    channel.notify('thread/status/changed', { threadId: this.id, status: { type: 'active', activeFlags: ['waitingOnApproval'] } })
    const asked = approvalServerRequest(request, this.id, this.session.cwd)
    // Codex's order (observed): the command's item starts before the request goes out.
    const { call } = request
    if (asked.method === COMMAND_APPROVAL)
      this.#commands.asking({ callId: call.id, name: call.name, input: call.input, turnId: request.turnId })
    const { entry, response } = channel.request('approval', this.id, request.turnId, asked.method, asked.params)
    let onAbort: (() => void) | undefined
    const aborted = new Promise<'aborted'>((resolve) => {
      onAbort = () => {
        channel.expire(entry)
        resolve('aborted')
      }
      if (request.signal.aborted) onAbort()
      else request.signal.addEventListener('abort', onAbort, { once: true })
    })
    const answer = await Promise.race([response, aborted])
    request.signal.removeEventListener('abort', onAbort!)
    if (answer === 'aborted') return { kind: 'deny', reason: 'interrupted while waiting for approval' }
    channel.resolved(entry)
    const decision = approvalDecision(asked.method, answer)
    // A refused command's item completes before the thread leaves `waitingOnApproval`, as Codex's does.
    if (decision.kind === 'deny' && asked.method === COMMAND_APPROVAL) this.#commands.declined(call.id, decision.reason)
    channel.notify('thread/status/changed', { threadId: this.id, status: { type: 'active', activeFlags: [] } })
    if (decision.kind === 'deny' && decision.interrupt) this.#cancelledTurnId = request.turnId
    if (decision.kind === 'allow' && decision.rule !== undefined && this.#onRuleAmendment) {
      try {
        await this.#onRuleAmendment([...decision.rule])
      } catch (error) {
        this.#log(`could not keep the rule ${JSON.stringify(decision.rule)}: ${errorMessage(error)}`)
      }
    }
    return decision
  }

  /**
   * A budget of a turn of this thread is reached (the bridge's `agent/budget-reached` tap): the connection that started
   * the turn is asked with `turn/budget/request` when it opted in; its `{limit}` raises the budget. No opt-in, no
   * connection, an error, no number above what is used, the timeout or the turn's interrupt: no raise (it halts).
   */
  async raiseBudget(request: { turnId: string; budget: ReachedBudget; signal: AbortSignal }): Promise<number | undefined> {
    const channel = this.channel
    const settings = channel?.budget
    if (!channel || channel.closed || settings === undefined) return undefined
    const turnId = this.activeTurnId ?? request.turnId
    // Kind `approval`: a decision asked once, whose late or repeated answers are ignored, as an approval's are.
    const { entry, response } = channel.request(
      'approval',
      this.id,
      turnId,
      BUDGET_REQUEST,
      budgetRequestParams(this.id, turnId, request.budget),
    )
    let timer: NodeJS.Timeout | undefined
    let onAbort: (() => void) | undefined
    const gaveUp = new Promise<'gave up'>((resolve) => {
      onAbort = () => resolve('gave up')
      timer = setTimeout(onAbort, settings.timeoutMs)
      if (request.signal.aborted) onAbort()
      else request.signal.addEventListener('abort', onAbort, { once: true })
    })
    const answer = await Promise.race([response, gaveUp])
    clearTimeout(timer)
    request.signal.removeEventListener('abort', onAbort!)
    if (answer === 'gave up') {
      channel.expire(entry)
      return undefined
    }
    channel.resolved(entry)
    return raisedLimit(answer, request.budget)
  }

  /**
   * Streamed model text (the bridge's `model/delta` tap): the first delta of a message starts its `agentMessage` item,
   * each one is an `item/agentMessage/delta`, and the recorded message completes the same item.
   */
  onDelta(turnId: string, delta: string): void {
    this.#messages.delta(turnId, delta)
  }

  /** A tool's streamed output (the bridge's `tools/output` tap). */
  onToolOutput(callId: string, text: string): void {
    this.#commands.output(callId, text)
  }

  /** A tool has run, before any post-execute hook (the bridge's `tools/post-execute` tap, stage -1000). */
  onToolExecuted(callId: string, result: ToolOutput, aborted: boolean): void {
    this.#commands.executed(callId, result, aborted)
  }

  /** Every durable event of the session, synchronously (the bridge's `session/event` tap). */
  onEvent(event: SessionEvent): void {
    const channel = this.channel
    switch (event.type) {
      case 'turn/start':
        this.#turnStarted(event.turnId)
        return
      case 'message':
        this.#messages.recorded(event, channel?.hostInput !== undefined)
        this.#itemRecorded(event)
        return
      case 'step/start':
        this.#messages.reportUsage()
        return
      case 'usage':
        this.#messages.usageRecorded(event)
        return
      case 'tool/call':
        this.#commands.started(event)
        return
      case 'tool/result':
        this.#commands.result(event)
        return
      case 'notice':
        if (event.level !== 'warning') return
        if (this.#earlyWarnings) this.#earlyWarnings.push(event.text)
        else channel?.notify('warning', { threadId: this.id, message: event.text })
        return
      case 'hook/run': {
        // The hook runs of a tool call the interrupt stopped are not shown (Codex runs no PostToolUse for it).
        if (this.#commands.hidden(event.toolUseId)) return
        if (!this.#active && event.turnId === undefined) this.#deferredHookRuns.push(event)
        else this.#hookRun(event, event.turnId ?? this.#active?.id ?? null)
        return
      }
      case 'turn/end':
        this.#turnEnded(event)
        return
      default:
        return
    }
  }

  #hookRun(event: Extract<SessionEvent, { type: 'hook/run' }>, turnId: string | null): void {
    if (event.executionMode === 'async' || event.status === 'running') return
    const run = hookRunSummary(event, Date.parse(event.at))
    this.channel?.notify('hook/started', {
      threadId: this.id,
      turnId,
      run: { ...run, status: 'running', completedAt: null, durationMs: null },
    })
    this.channel?.notify('hook/completed', { threadId: this.id, turnId, run })
  }

  #turnStarted(turnId: string): void {
    const starting = this.#starting.shift()
    const active: ActiveTurn = {
      id: turnId,
      startedMs: Date.now(),
      interruptReplies: [],
      carried: starting?.carried ?? false,
    }
    this.#active = active
    this.#messages.turnStarted(turnId)
    starting?.reply(this.#wireTurn(active, 'inProgress', false))
    this.channel?.notify('thread/status/changed', { threadId: this.id, status: { type: 'active', activeFlags: [] } })
    this.channel?.notify('turn/started', { threadId: this.id, turn: this.#wireTurn(active, 'inProgress') })
    if (this.#earlyWarnings) this.shown()
    for (const event of this.#deferredHookRuns.splice(0)) this.#hookRun(event, turnId)
    starting?.resolveReady(turnId)
  }

  #turnEnded(event: Extract<SessionEvent, { type: 'turn/end' }>): void {
    const active = this.#active
    if (!active || active.id !== event.turnId) return
    // Codex interrupts the turn a client cancels at an approval request; the kernel ends it halted.
    const cancelled = event.status === 'halted' && this.#cancelledTurnId === event.turnId
    const status = cancelled ? 'interrupted' : wireTurnStatus(event.status)
    const lastAgent = this.#messages.turnEnded()
    const leftover = this.steering.takeSteers()
    const carry = leftover.length > 0 && status === 'completed' && this.onTurnEnd === 'nextTurn' && !active.carried
    if (leftover.length > 0 && !carry) this.#dropSteers(event.turnId, leftover, status === 'completed' ? 'turnCompleted' : status)
    for (const reply of active.interruptReplies.splice(0)) reply()
    this.#active = undefined
    this.channel?.notify('thread/status/changed', { threadId: this.id, status: { type: 'idle' } })
    // An interrupted turn completes without its items, as Codex's.
    const interrupted = status === 'interrupted'
    const ended: WireTurn = {
      ...this.#wireTurn(active, status),
      items: lastAgent && !interrupted ? [lastAgent] : [],
      itemsView: interrupted ? 'notLoaded' : 'summary',
      error: event.error === undefined ? null : { message: event.error, codexErrorInfo: null, additionalDetails: null },
      completedAt: seconds(Date.now()),
      durationMs: Date.now() - active.startedMs,
    }
    this.channel?.notify('turn/completed', { threadId: this.id, turn: ended })
    this.#commands.turnEnded()
    if (carry) {
      // Opt-in (`steer.onTurnEnd: "nextTurn"`): input that missed the turn starts the next one, at most once.
      const messages = leftover.map((steer) => steerMessage(steer))
      queueMicrotask(() => this.#run(messages, true, () => {}))
    }
  }

  #dropSteers(turnId: string, steers: QueuedSteer[], reason: string): void {
    try {
      this.session.record({ type: 'steering/dropped', turnId, transport: TRANSPORT, itemIds: steers.map((steer) => steer.id), reason })
    } catch (error) {
      this.#log(`could not log steering/dropped: ${errorMessage(error)}`)
    }
    for (const steer of steers) {
      this.channel?.notify('turn/steer/dropped', {
        threadId: this.id,
        turnId: steer.turnId,
        input: steer.content,
        clientUserMessageId: steer.clientId,
        reason,
      })
    }
  }

  #wireTurn(active: ActiveTurn, status: WireTurn['status'], started = true): WireTurn {
    return {
      id: active.id,
      rootTurnId: active.id,
      items: [],
      itemsView: 'notLoaded',
      status,
      error: null,
      startedAt: started ? seconds(active.startedMs) : null,
      completedAt: null,
      durationMs: null,
    }
  }
}

/** A steer that missed its turn, starting the next: its id goes with it, so a store can tell it was recorded. */
function steerMessage(steer: QueuedSteer): Message {
  return {
    role: 'user',
    content: [{ type: 'text', text: inputText(steer.content) }],
    source: { kind: 'user' },
    meta: {
      appServer: { kind: 'input', content: steer.content, clientId: steer.clientId } satisfies AppServerMeta,
      steeringItemId: steer.id,
    },
  }
}
