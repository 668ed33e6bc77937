import type { ContentBlock, DriverError, Halt, ModelUsage, ToolCall, TurnEnd, TurnHost } from '@harness-kernel/kernel'
import { textOf } from '@harness-kernel/kernel'
import { toolCallAnswer } from './dynamic-tools.js'
import type { JsonRpcConnection } from './json-rpc-connection.js'
import { LiveSteering } from './live-steering.js'
import { UserMessageReceipts } from './user-message-receipts.js'
import { type ApprovalParams, BUILTIN_CALL_NAMES, type TokenUsage, type ToolCallParams, type WireItem, type WireTurn } from './wire.js'

export interface TurnPort {
  readonly connection: JsonRpcConnection
  readonly threadId: string
  readonly steerTimeoutMs: number
  /** The thread's model as Codex last named it (`thread/start`, `thread/resume`, `model/rerouted`). */
  model(): string | undefined
}

/** How long Codex may take to end a turn after `turn/interrupt` before the driver stops waiting. */
const INTERRUPT_GRACE_MS = 10_000

/**
 * One kernel turn inside a Codex turn: what its notifications and server requests mean for the kernel.
 * Assistant text is logged only from `item/completed` (a steer mid-stream abandons a started message).
 */
export class CodexTurn {
  readonly host: TurnHost
  readonly receipts = new UserMessageReceipts()
  readonly steering: LiveSteering
  /** Settles at `turn/completed` (or when Codex exits); rejects with the signal's reason when interrupted. */
  readonly finished: Promise<TurnEnd>
  readonly #port: TurnPort
  #resolve!: (end: TurnEnd) => void
  #reject!: (reason: unknown) => void
  #turnId: string | undefined
  readonly #named: Promise<string>
  #name!: (turnId: string) => void
  #step = 1
  #afterInput = false
  #parked = 0
  #answered = false
  #pending: ContentBlock[] = []
  readonly #logged = new Set<string>()
  /** Budget checks under way: the turn's outcome waits for them (a step that reached a budget halts it). */
  readonly #budgetChecks = new Set<Promise<void>>()
  #halt: Halt | undefined
  #interruptSent = false
  #broken: unknown
  #ending = false
  /** Settles when the turn has ended (its outcome is decided). */
  readonly #ended: Promise<void>
  #markEnded!: () => void
  /** Aborted when the turn ends: a kernel tool still running then stops, and its result is logged before the end. */
  readonly #tools = new AbortController()
  readonly #running = new Set<Promise<unknown>>()

  constructor(host: TurnHost, port: TurnPort) {
    this.host = host
    this.#port = port
    this.finished = new Promise<TurnEnd>((resolve, reject) => {
      this.#resolve = resolve
      this.#reject = reject
    })
    this.#named = new Promise((resolve) => {
      this.#name = resolve
    })
    this.#ended = new Promise((resolve) => {
      this.#markEnded = resolve
    })
    this.steering = new LiveSteering(host, {
      turnId: () => this.#named,
      step: () => this.#step,
      boundaryNow: () => (this.#parked > 0 ? 'tool' : this.#answered ? 'final' : 'sampling'),
      request: (method, params, timeoutMs) => port.connection.request(method, params, timeoutMs),
      threadId: port.threadId,
      steerTimeoutMs: port.steerTimeoutMs,
      receipts: this.receipts,
      halt: (halt) => this.#haltNow(halt),
    })
    host.signal.addEventListener('abort', () => void this.#interrupt(), { once: true })
  }

  /** The id `turn/start` answered with (a `turn/started` may have named it first). */
  named(turnId: string): void {
    if (this.#turnId !== undefined) return
    this.#turnId = turnId
    this.#name(turnId)
  }

  onNotification(method: string, params: Record<string, unknown>): void {
    const turnId = typeof params.turnId === 'string' ? params.turnId : (params.turn as WireTurn | undefined)?.id
    if (method === 'turn/started' && turnId) this.named(turnId)
    if (turnId !== undefined && this.#turnId !== undefined && turnId !== this.#turnId) return
    if (method === 'item/started') this.#itemStarted(params.item as WireItem)
    else if (method === 'item/completed') this.#itemCompleted(params.item as WireItem)
    else if (method === 'item/agentMessage/delta' && typeof params.delta === 'string' && params.delta)
      this.host.delta(this.#step, params.delta)
    else if (method === 'thread/tokenUsage/updated') this.#usage((params.tokenUsage as { last?: TokenUsage } | undefined)?.last)
    else if (method === 'error') this.#error(params)
    else if (method === 'turn/completed') void this.#end(params.turn as WireTurn)
  }

  /** `item/tool/call`: the kernel's tool step, then the tool boundary's steering, then the answer. */
  async toolCall(params: ToolCallParams): Promise<unknown> {
    const step = this.#step
    const call = { id: params.callId, name: params.tool, input: params.arguments }
    this.#logCall(call)
    this.#parked++
    try {
      const ran = this.#runTool(call, step)
      this.#running.add(ran)
      const { answer, halt } = await ran.finally(() => this.#running.delete(ran))
      if (halt) {
        // As on the native loop, no model request follows a halt: the turn is interrupted while the call is parked.
        this.#haltNow(halt)
      }
      if (halt || this.#halt || this.host.signal.aborted) {
        // Answered only once Codex has ended the turn: an answer that overtook `turn/interrupt` would let it go on.
        await this.#ended
        return answer
      }
      // Input claimed here is steered before the answer goes back, so it lands right after this result.
      await this.steering.at('tool', step).catch((error: unknown) => {
        if (!this.host.signal.aborted) throw error
      })
      return answer
    } finally {
      this.#parked--
    }
  }

  /** The kernel's tool step for one call, its result and context logged. */
  async #runTool(call: ToolCall, step: number): Promise<{ answer: ReturnType<typeof toolCallAnswer>; halt?: Halt | undefined }> {
    const host = this.host
    let outcome: Awaited<ReturnType<TurnHost['runTool']>>
    try {
      outcome = await host.runTool(call, step, { signal: this.#tools.signal })
    } catch (error) {
      // A tap broke (not a denial): as on the native loop, the turn fails with it; the model gets an error result.
      this.#broken ??= error
      const output = `The kernel could not run ${call.name}: ${error instanceof Error ? error.message : String(error)}`
      host.recordToolResult(step, call.id, { output, isError: true })
      return { answer: toolCallAnswer({ output, isError: true }) }
    }
    host.recordToolResult(step, call.id, outcome.result)
    for (const message of outcome.context) host.recordMessage(message)
    return { answer: toolCallAnswer(outcome.result, outcome.context.map(textOf)), halt: outcome.halt }
  }

  /** `item/commandExecution/requestApproval` / `item/fileChange/requestApproval`: `tools/permission-request`. */
  async approval(kind: 'commandExecution' | 'fileChange', params: ApprovalParams): Promise<{ decision: 'accept' | 'decline' }> {
    const input = kind === 'commandExecution' ? { command: params.command, cwd: params.cwd } : { ...params }
    const call = { id: params.itemId, name: BUILTIN_CALL_NAMES[kind] as string, input }
    this.#logCall(call)
    const verdict = await this.host.permission(call, this.#step, params.reason ?? undefined)
    return { decision: verdict.kind === 'allow' ? 'accept' : 'decline' }
  }

  /** Codex exited or its connection broke: the turn fails; unrecorded input goes back. */
  fail(error: DriverError): void {
    void this.#finish(async () => ({ status: 'failed', error }))
  }

  #itemStarted(item: WireItem): void {
    this.steering.progressed()
    if (item.type === 'userMessage') return
    if (this.#afterInput) {
      this.#afterInput = false
      this.#step++
      this.#answered = false
    }
    const builtin = BUILTIN_CALL_NAMES[item.type]
    if (builtin) this.#pending.push({ type: 'tool_call', id: item.id, name: builtin, input: builtinInput(item) })
  }

  #itemCompleted(item: WireItem): void {
    this.steering.progressed()
    switch (item.type) {
      case 'userMessage':
        this.#flush()
        // A steer makes Codex sample again: what follows is the next step. The turn's prompt is step 1's input.
        if (this.receipts.recorded(item.clientId as string | null) === 'steer') this.#afterInput = true
        return
      case 'agentMessage':
        if (typeof item.text === 'string' && item.text) this.#pending.push({ type: 'text', text: item.text })
        this.#answered = true
        void this.steering.at('final').catch(() => {})
        return
      case 'dynamicToolCall':
        this.#afterInput = true
        void this.steering.at('sampling', this.#step + 1).catch(() => {})
        return
    }
    if (BUILTIN_CALL_NAMES[item.type]) {
      this.#flush()
      this.host.recordToolResult(this.#step, item.id, builtinResult(item))
      this.#afterInput = true
    }
  }

  /**
   * `thread/tokenUsage/updated`'s `last`: one sampling request's usage, which Codex reports once the request is done,
   * after its tool calls ran. It goes with the step's text when that is still buffered, else (the step's calls are in
   * the log already) as a `usage` event; then the budgets are checked.
   */
  #usage(last: TokenUsage | undefined): void {
    if (!last) return
    const step = this.#step
    const usage = modelUsage(last)
    const model = this.#port.model()
    const record = { usage, ...(model === undefined ? {} : { model }) }
    if (this.#pending.length > 0) this.#flush(record)
    else this.host.recordUsage({ step, ...record })
    const check = this.host
      .checkBudget(step)
      .then((halt) => {
        if (halt) this.#haltNow(halt)
      })
      .catch((error: unknown) => {
        // A tap broke (not a budget): the turn fails with it, as a broken tool tap does.
        this.#broken ??= error
        this.#haltNow({ reason: 'a budget check failed' })
      })
      .finally(() => this.#budgetChecks.delete(check))
    this.#budgetChecks.add(check)
  }

  #error(params: Record<string, unknown>): void {
    const error = params.error as { message?: string } | undefined
    const retry = params.willRetry === true ? ' (Codex retries)' : ''
    this.host.notice(params.willRetry === true ? 'warning' : 'error', `Codex: ${error?.message ?? 'error'}${retry}`)
  }

  async #end(turn: WireTurn): Promise<void> {
    await Promise.all(this.#budgetChecks)
    await this.#finish(async () => {
      this.#flush()
      if (this.#broken !== undefined) throw this.#broken
      if (this.#halt) {
        this.host.notice('warning', `turn halted: ${this.#halt.reason}`)
        return { status: 'halted', reason: this.#halt.reason }
      }
      if (turn.status === 'completed') return { status: 'completed' }
      const why =
        turn.status === 'interrupted' ? 'Codex interrupted the turn' : `Codex failed the turn: ${turn.error?.message ?? 'no reason given'}`
      return { status: 'failed', error: { code: 'runtime', message: why, retryable: false } }
    }, turn.status === 'completed')
  }

  /** Ends the turn once: no more claims, unrecorded input settled, then the outcome. */
  async #finish(settle: () => Promise<TurnEnd>, completed = false): Promise<void> {
    if (this.#ending) return
    this.#ending = true
    try {
      this.#tools.abort(new Error('the Codex turn ended before the tool call finished'))
      await Promise.allSettled([...this.#running])
      await this.steering.close()
      const ambiguous = this.receipts.settleAtEnd(completed)
      const end = await settle()
      if (this.host.signal.aborted) this.#reject(this.host.signal.reason)
      else this.#resolve(ambiguous ? { status: 'failed', error: withAmbiguity(end, ambiguous) } : end)
    } catch (error) {
      this.#reject(error)
    } finally {
      this.#markEnded()
    }
  }

  #haltNow(halt: Halt): void {
    this.#halt ??= halt
    void this.#sendInterrupt()
  }

  async #interrupt(): Promise<void> {
    if (this.#ending) return
    await this.#sendInterrupt()
    // Codex answers an interrupt with `turn/completed`; should it not, the turn still ends.
    setTimeout(() => void this.#finish(async () => ({ status: 'completed' })), INTERRUPT_GRACE_MS).unref()
  }

  async #sendInterrupt(): Promise<void> {
    if (this.#interruptSent) return
    this.#interruptSent = true
    const turnId = await this.#named
    await this.#port.connection.request('turn/interrupt', { threadId: this.#port.threadId, turnId }).catch(() => {})
  }

  /** A tool call goes into the log before its result: with the response's buffered text, or alone. */
  #logCall(call: { id: string; name: string; input: unknown }): void {
    if (!this.#logged.has(call.id) && !this.#pending.some((block) => block.type === 'tool_call' && block.id === call.id)) {
      this.#pending.push({ type: 'tool_call', ...call })
    }
    this.#flush()
  }

  #flush(meta?: Record<string, unknown>): void {
    const blocks = this.#pending
    if (blocks.length === 0) return
    this.#pending = []
    for (const block of blocks) if (block.type === 'tool_call') this.#logged.add(block.id)
    this.host.recordMessage({ role: 'assistant', content: blocks, source: { kind: 'model' }, ...(meta ? { meta } : {}) })
  }
}

/** The ambiguity is the error to report; a failure beside it stays in the message. */
function withAmbiguity(end: TurnEnd, ambiguous: DriverError): DriverError {
  return end.status === 'failed' ? { ...ambiguous, message: `${end.error.message}; ${ambiguous.message}` } : ambiguous
}

function builtinInput(item: WireItem): unknown {
  if (item.type === 'commandExecution') return { command: item.command, cwd: item.cwd }
  return { changes: item.changes }
}

function builtinResult(item: WireItem): { output: string; isError: boolean } {
  const status = item.status as string | undefined
  const output = typeof item.aggregatedOutput === 'string' ? item.aggregatedOutput : status === 'declined' ? 'declined' : ''
  const exitCode = typeof item.exitCode === 'number' ? item.exitCode : 0
  return { output, isError: status !== 'completed' || exitCode !== 0 }
}

/** Codex's counts in the kernel's terms: the same totals, the cache's and reasoning's parts named as the kernel names them. */
function modelUsage(last: TokenUsage): ModelUsage {
  const usage: ModelUsage = { inputTokens: last.inputTokens, outputTokens: last.outputTokens }
  if (last.cachedInputTokens) usage.cacheReadInputTokens = last.cachedInputTokens
  if (last.cacheWriteInputTokens) usage.cacheCreationInputTokens = last.cacheWriteInputTokens
  if (last.reasoningOutputTokens) usage.reasoningTokens = last.reasoningOutputTokens
  return usage
}
