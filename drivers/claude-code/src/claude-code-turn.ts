import { randomUUID } from 'node:crypto'
import type { HookJSONOutput, PermissionResult, SDKUserMessage } from '@anthropic-ai/claude-agent-sdk'
import type { ContentBlock, DriverError, Halt, Message, ToolCall, TurnEnd, TurnHost } from '@harness-kernel/kernel'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { LifecycleFrame } from './command-lifecycle.js'
import { kernelBlocks, messageText, reminder, toolResultsOf } from './content.js'
import { type HostToolCall, kernelToolName } from './host-tools.js'
import { LiveSteering, type SteeringPort } from './live-steering.js'
import { modelUsageOf, StreamedResponse, type WireUsage } from './response-usage.js'

export interface TurnPort extends SteeringPort {
  /** `interrupt({ cancelQueued: true })`; resolves with the uuids Claude Code cancelled. */
  interrupt(): Promise<readonly string[]>
  /** What Claude Code spent since its last `result`, from this result's running `total_cost_usd`. */
  programCost(totalCostUsd: number): number
}

interface ResultMessage {
  type: 'result'
  subtype: string
  terminal_reason?: string
  num_turns?: number
  errors?: string[]
  user_message_uuids?: string[]
  /** Claude Code's running total for the process (every turn so far), not this turn's. */
  total_cost_usd?: number
}

interface SdkAssistant {
  id?: string
  model?: string
  usage?: WireUsage
  content?: unknown
}

interface StreamEvent {
  type?: string
  delta?: { type?: string; text?: string }
  message?: { id?: string; usage?: WireUsage }
  usage?: WireUsage
}

const INTERRUPTED = 'The tool call was interrupted before a result was received.'
/** How long after a result Claude Code may take to start the input it holds (it starts it within milliseconds). */
const FOLLOW_UP_TIMEOUT_MS = 10_000

/** One kernel turn inside Claude Code: what its messages, tool calls and hook callbacks mean for the kernel. */
export class ClaudeCodeTurn {
  readonly host: TurnHost
  readonly steering: LiveSteering
  /** Settles at the turn's `result` (or when Claude Code exits); rejects with the signal's reason when interrupted. */
  readonly finished: Promise<TurnEnd>
  readonly #port: TurnPort
  #resolve!: (end: TurnEnd) => void
  #reject!: (reason: unknown) => void
  #step = 0
  readonly #responses = new Set<string>()
  #pending: { id: string; step: number; blocks: ContentBlock[]; model: string | undefined; usage: WireUsage | undefined } | undefined
  /** Each main-loop response as streamed, by id; the one streaming now. */
  readonly #streamed = new Map<string, StreamedResponse>()
  #streaming: StreamedResponse | undefined
  /** Responses logged before they ended (a built-in's result overtook them): their usage is recorded when they end. */
  readonly #usageOwed = new Map<string, { step: number; model: string | undefined }>()
  /** Budget checks under way: the turn's end waits for them (a step that reached a budget halts the turn). */
  readonly #budgetChecks = new Set<Promise<void>>()
  /** What Claude Code reported spending in this kernel turn (its results' running totals, differenced). */
  #programCostUsd = 0
  /** Tool calls already in the log, and those the kernel ran (their results are the kernel's). */
  readonly #loggedCalls = new Set<string>()
  readonly #kernelCalls = new Set<string>()
  readonly #askReasons = new Map<string, string>()
  #halt: Halt | undefined
  #haltSent = false
  #continues = 0
  #ended = false
  #broken: unknown
  /** Kernel tool calls whose results are parked now. */
  #parked = 0
  /** Every message uuid the results of this kernel turn named (a follow-up's result comes after the first). */
  readonly #consumed: string[] = []
  /** The Stop callback let the answer end because Claude Code held input it runs next, as a follow-up. */
  #followUp = false
  /** Set while a result has been seen and the follow-up has not started. */
  #followUpWatchdog: NodeJS.Timeout | undefined
  /** The result after which the turn waits for Claude Code to start (or drop) the input it holds. */
  #awaiting: ResultMessage | undefined
  /** Every message this turn sent Claude Code: its prompt, steers, continuations. */
  readonly #submitted = new Set<string>()
  /** `idle` is not to be relied on for the frames of an interrupt with `cancel_queued` (Claude Code's own note). */
  #interruptSent = false

  constructor(host: TurnHost, port: TurnPort) {
    this.host = host
    this.#port = {
      ...port,
      submit: (message) => {
        if (message.uuid) this.#submitted.add(message.uuid)
        port.submit(message)
      },
    }
    this.steering = new LiveSteering(this.#port, host, () => this.step)
    this.finished = new Promise<TurnEnd>((resolve, reject) => {
      this.#resolve = resolve
      this.#reject = reject
    })
    host.signal.addEventListener('abort', () => void this.#interrupted(), { once: true })
    this.steering.start()
  }

  get step(): number {
    return Math.max(this.#step, 1)
  }

  /** The turn's prompt (its uuid gets receipts like any steer). */
  prompt(message: SDKUserMessage): void {
    this.#port.submit(message)
  }

  onLifecycle(frame: LifecycleFrame): void {
    if (frame.state === 'started') {
      clearTimeout(this.#followUpWatchdog)
      this.steering.started(frame.command_uuid)
    } else if (frame.state === 'cancelled') {
      this.steering.cancelled(frame.command_uuid)
      // Claude Code says it owes no result: a turn waiting for it to start held input ends now, not at the watchdog.
      if (this.#awaiting && this.#idleAfter(frame)) void this.#end(this.#awaiting, true)
    } else this.steering.progressed()
  }

  /** An `idle` frame counts once Claude Code has read everything this turn sent (it does not cover unread messages). */
  #idleAfter(frame: LifecycleFrame): boolean {
    const lifecycle = this.#port.lifecycle
    if (frame.idle !== true || !lifecycle.idleAdvertised || this.#interruptSent) return false
    if (!this.#submitted.has(frame.command_uuid)) return false
    return [...this.#submitted].every((uuid) => lifecycle.read(uuid))
  }

  onMessage(message: { type: string; [key: string]: unknown }): void {
    if (message.isReplay === true) return
    if (message.type === 'assistant') this.#onAssistant(message.message as SdkAssistant)
    else if (message.type === 'user') this.#onToolResults((message.message as { content?: unknown } | undefined)?.content)
    else if (message.type === 'stream_event') this.#onStream(message.event as StreamEvent, message.parent_tool_use_id != null)
    else if (message.type === 'result') void this.#end(message as unknown as ResultMessage)
  }

  /** Claude Code exited or the transport broke: the turn fails; what it held is returned, unless it may have run. */
  fail(error: DriverError): void {
    this.#streaming?.end()
    void this.#finish(async () => {
      const ambiguous = await this.steering.settleAtEnd(this.#consumed)
      return { status: 'failed', error: ambiguous ?? error }
    })
  }

  /** A kernel tool call, parked inside Claude Code's MCP request until the kernel has decided and steering is admitted. */
  async callTool(call: HostToolCall): Promise<CallToolResult> {
    // The call may overtake its response on the way in: let that response be read first (it names the step).
    if (!this.#knows(call.id)) await new Promise((resolve) => setImmediate(resolve))
    // Claude Code may start a tool before its response has ended: the step is logged once its usage is whole.
    if (this.#streaming !== undefined && !this.#streaming.ended) await this.#streaming.whenEnded
    const step = this.step
    this.#logCall(call.id, call.name, call.input)
    this.#kernelCalls.add(call.id)
    // From here until its result is released, input folds in with that result.
    this.#parked++
    this.steering.boundary = 'tool'
    try {
      return await this.#runKernelTool(call, step)
    } finally {
      if (--this.#parked === 0) this.steering.boundary = 'sampling'
    }
  }

  async #runKernelTool(call: HostToolCall, step: number): Promise<CallToolResult> {
    const host = this.host
    let outcome: Awaited<ReturnType<TurnHost['runTool']>>
    try {
      outcome = await host.runTool({ id: call.id, name: call.name, input: call.input }, step, { signal: call.signal })
    } catch (error) {
      // A tap broke (not a denial): as on the native loop, the turn fails with it; the model gets an error result.
      this.#broken ??= error
      const output = `The kernel could not run ${call.name}: ${error instanceof Error ? error.message : String(error)}`
      host.recordToolResult(step, call.id, { output, isError: true })
      return { content: [{ type: 'text', text: output }], isError: true }
    }
    if (call.signal.aborted) {
      // Claude Code has already answered the call itself; the kernel's result would be discarded.
      host.recordToolResult(step, call.id, { output: INTERRUPTED, isError: true })
      return { content: [{ type: 'text', text: INTERRUPTED }], isError: true }
    }
    host.recordToolResult(step, call.id, outcome.result)
    for (const message of outcome.context) host.recordMessage(message)
    if (outcome.halt) {
      // As on the native loop, no model request follows a halt: end the turn while the call is still parked
      // (Claude Code then answers the call itself; the kernel's result is in the log).
      this.#halt ??= outcome.halt
      await this.#haltNow()
      return { content: [{ type: 'text', text: outcome.result.output }], isError: true }
    }
    let steered: Message[] = []
    try {
      steered = await this.steering.atToolBoundary(step)
    } catch (error) {
      if (!host.signal.aborted) throw error
    }
    const context = [...outcome.context, ...steered].map((message) => ({ type: 'text' as const, text: reminder(message) }))
    return {
      content: [{ type: 'text', text: outcome.result.output }, ...context],
      ...(outcome.result.isError ? { isError: true } : {}),
    }
  }

  /** The SDK's Stop callback: `agent/turn-stopping`; a continue is one more request in the same turn. */
  async onStop(input: { stop_hook_active?: boolean }): Promise<HookJSONOutput> {
    this.#flush()
    // The answer's step may have reached a budget: the turn ends here, as on the native loop, without turn-stopping.
    await Promise.all(this.#budgetChecks)
    if (this.#halt) return {}
    // Input waiting, or already queued: Claude Code runs it after this answer's result, and the turn goes on there.
    if (await this.steering.atFinal(this.step)) {
      this.#followUp = true
      return {}
    }
    const decision = await this.#stopping(input.stop_hook_active === true)
    return decision === undefined ? {} : { decision: 'block', reason: decision }
  }

  /** `agent/turn-stopping` at the real end of the answer: the continuation's text, or undefined when the turn stops. */
  async #stopping(stopHookActive: boolean): Promise<string | undefined> {
    const { decision } = await this.host.stopping({ step: this.step, stopHookActive, continues: this.#continues })
    if (decision.kind === 'stop') return undefined
    this.#continues++
    if (decision.halt) {
      this.#halt ??= decision.halt
      return undefined
    }
    this.steering.reopen()
    return decision.messages.map(messageText).join('\n\n')
  }

  /** A built-in tool Claude Code runs itself: `tools/pre-execute` through the SDK's PreToolUse callback. */
  async preToolUse(input: { tool_name: string; tool_input: unknown; tool_use_id: string }): Promise<HookJSONOutput> {
    if (kernelToolName(input.tool_name) !== undefined) return {}
    const decision = await this.host.preExecute(builtinCall(input), this.step)
    const context = contextText(decision.context)
    const base = { hookEventName: 'PreToolUse' as const, ...(context ? { additionalContext: context } : {}) }
    if (decision.kind === 'deny') {
      if (decision.halt) this.#halt ??= decision.halt
      return { hookSpecificOutput: { ...base, permissionDecision: 'deny', permissionDecisionReason: decision.reason } }
    }
    if (decision.kind === 'ask') {
      if (decision.reason) this.#askReasons.set(input.tool_use_id, decision.reason)
      return { hookSpecificOutput: { ...base, permissionDecision: 'ask' } }
    }
    if (decision.halt) this.#halt ??= decision.halt
    if (decision.input !== undefined) {
      return { hookSpecificOutput: { ...base, permissionDecision: 'allow', updatedInput: decision.input as Record<string, unknown> } }
    }
    return context ? { hookSpecificOutput: base } : {}
  }

  /** A built-in tool ran: `tools/post-execute` through the SDK's PostToolUse / PostToolUseFailure callbacks. */
  async postToolUse(
    input: { tool_name: string; tool_input: unknown; tool_use_id: string; tool_response?: unknown; error?: string },
    failed: boolean,
  ): Promise<HookJSONOutput> {
    if (kernelToolName(input.tool_name) !== undefined) return {}
    const output = failed ? (input.error ?? 'the tool failed') : responseText(input.tool_response)
    const decision = await this.host.postExecute(builtinCall(input), { output, isError: failed }, this.step)
    const event = failed ? ('PostToolUseFailure' as const) : ('PostToolUse' as const)
    const context = [decision.kind === 'accept' && decision.output !== undefined ? decision.output : '', contextText(decision.context)]
      .filter(Boolean)
      .join('\n\n')
    if (decision.kind === 'accept' && decision.halt) this.#halt ??= decision.halt
    if (decision.kind === 'block') {
      return {
        decision: 'block',
        reason: decision.feedback,
        ...(context ? { hookSpecificOutput: { hookEventName: event, additionalContext: context } } : {}),
      }
    }
    return context ? { hookSpecificOutput: { hookEventName: event, additionalContext: context } } : {}
  }

  /** `canUseTool`: a built-in call Claude Code would ask about goes to `tools/permission-request`, then the approver. */
  async canUseTool(name: string, input: Record<string, unknown>, toolUseId: string): Promise<PermissionResult> {
    if (kernelToolName(name) !== undefined) return { behavior: 'allow', updatedInput: input }
    const verdict = await this.host.permission({ id: toolUseId, name, input }, this.step, this.#askReasons.get(toolUseId))
    if (verdict.kind === 'deny') return { behavior: 'deny', message: verdict.reason }
    return { behavior: 'allow', updatedInput: (verdict.input as Record<string, unknown> | undefined) ?? input }
  }

  #onAssistant(message: SdkAssistant): void {
    const id = message.id ?? `response-${this.#responses.size + 1}`
    if (!this.#responses.has(id)) {
      this.#flush()
      this.#responses.add(id)
      this.#step = this.#responses.size
      // A model response began: steering taken at the boundary before it goes into the log first.
      this.steering.settleTaken()
    }
    const blocks = kernelBlocks(message.content).filter((block) => !(block.type === 'tool_call' && this.#loggedCalls.has(block.id)))
    // Text without a tool call ends the answer (Claude Code's Stop comes next): input now is the final boundary's.
    if (this.#parked === 0) this.steering.boundary = blocks.some((block) => block.type === 'tool_call') ? 'sampling' : 'final'
    this.steering.progressed()
    if (this.#pending?.id === id) this.#pending.blocks.push(...blocks)
    else {
      this.#flush()
      this.#pending = { id, step: this.#step, blocks, model: message.model, usage: message.usage }
    }
  }

  #onToolResults(content: unknown): void {
    const results = toolResultsOf(content)
    if (results.length === 0) return
    this.#flush()
    for (const result of results) {
      if (this.#kernelCalls.has(result.callId)) continue
      this.host.recordToolResult(this.step, result.callId, { output: result.output, isError: result.isError })
    }
    // A halt from a built-in's callbacks: Claude Code has taken the results; end the turn before the model goes on.
    if (this.#halt) void this.#haltNow()
  }

  #onStream(event: StreamEvent, subagent: boolean): void {
    if (event.type === 'content_block_delta' && event.delta?.type === 'text_delta' && event.delta.text) {
      this.host.delta(this.#step + 1, event.delta.text)
    }
    // Usage is counted for the main loop's responses (a Task subagent's are Claude Code's, in its result's cost).
    if (subagent) return
    if (event.type === 'message_start' && typeof event.message?.id === 'string') {
      this.#endStreaming()
      this.#streaming = new StreamedResponse(event.message.id, event.message.usage)
      this.#streamed.set(event.message.id, this.#streaming)
    } else if (event.type === 'message_delta') this.#streaming?.update(event.usage)
    else if (event.type === 'message_stop') this.#endStreaming()
  }

  /** The streaming response has ended (or gave way to another, or the turn ends): a step logged before owes its usage. */
  #endStreaming(): void {
    const ended = this.#streaming
    if (ended === undefined || ended.ended) return
    ended.end()
    const owed = this.#usageOwed.get(ended.id)
    this.#usageOwed.delete(ended.id)
    const usage = ended.usage
    if (owed === undefined || usage === undefined) return
    this.host.recordUsage({ step: owed.step, usage, ...(owed.model === undefined ? {} : { model: owed.model }) })
    this.#checkBudget(owed.step)
  }

  /** After a step's usage is recorded: a reached budget halts the turn through the halt path a hook's halt takes. */
  #checkBudget(step: number): void {
    const check = this.host
      .checkBudget(step)
      .then((halt) => {
        if (!halt) return
        this.#halt ??= halt
        return this.#haltNow()
      })
      .catch((error: unknown) => {
        // A tap broke (not a budget): the turn fails with it, as a broken tool tap does.
        this.#broken ??= error
        this.#halt ??= { reason: 'a budget check failed' }
        return this.#haltNow()
      })
      .finally(() => this.#budgetChecks.delete(check))
    this.#budgetChecks.add(check)
  }

  /**
   * Claude Code's own cost since its last result: what it spent beyond the kernel's prices of this turn's steps (calls
   * that are no step of the turn, such as a compaction or a classifier, or a model the prices do not know) is recorded
   * as a `usage` event, so the turn's recorded cost is at least Claude Code's.
   */
  #recordProgramCost(result: ResultMessage): void {
    if (typeof result.total_cost_usd !== 'number') return
    this.#programCostUsd += this.#port.programCost(result.total_cost_usd)
    const beyond = this.#programCostUsd - this.host.turnCostUsd
    if (beyond <= 1e-12) return
    this.host.recordUsage({ step: this.step, costUsd: beyond })
    this.#checkBudget(this.step)
  }

  async #end(result: ResultMessage, givenUp = false): Promise<void> {
    if (this.#ended) return
    clearTimeout(this.#followUpWatchdog)
    this.#awaiting = undefined
    if (!givenUp) this.#consumed.push(...(result.user_message_uuids ?? []))
    this.#endStreaming()
    this.#flush()
    if (!givenUp) this.#recordProgramCost(result)
    const succeeded = result.subtype === 'success' && !this.host.signal.aborted && this.#halt === undefined && this.#broken === undefined
    if (succeeded && !givenUp && this.steering.pending()) {
      // Claude Code starts what it holds by itself, next: that follow-up is this turn's too. Should it never start
      // it, the turn ends there and the input goes back (settleAtEnd cancels it); an `idle` frame ends it at once.
      this.#followUp = true
      this.#awaiting = result
      clearTimeout(this.#followUpWatchdog)
      this.#followUpWatchdog = setTimeout(() => {
        this.host.notice('warning', `Claude Code did not start the steering input it held within ${FOLLOW_UP_TIMEOUT_MS} ms of its result`)
        void this.#end(result, true)
      }, FOLLOW_UP_TIMEOUT_MS)
      return
    }
    if (succeeded && this.#followUp && result.num_turns === 0) {
      // The follow-up never reached the model (its UserPromptSubmit blocked it) and no Stop fired: the answer before it
      // was the real end.
      this.#followUp = false
      const continuation = await this.#stopping(false)
      if (continuation !== undefined) {
        this.#port.submit({
          type: 'user',
          message: { role: 'user', content: continuation },
          parent_tool_use_id: null,
          uuid: randomUUID(),
          priority: 'next',
        } as SDKUserMessage)
        return
      }
    }
    this.#followUp = false
    // A budget the turn's last usage reached halts it: its check decides before the outcome does.
    await Promise.all(this.#budgetChecks)
    await this.#finish(async () => {
      const ambiguous = await this.steering.settleAtEnd(this.#consumed)
      if (this.#broken !== undefined) throw this.#broken
      if (ambiguous) return { status: 'failed', error: ambiguous }
      if (this.#halt) {
        this.host.notice('warning', `turn halted: ${this.#halt.reason}`)
        return { status: 'halted', reason: this.#halt.reason }
      }
      if (result.subtype === 'success' && (result.terminal_reason === undefined || result.terminal_reason === 'completed')) {
        return { status: 'completed' }
      }
      const detail = [result.terminal_reason, ...(result.errors ?? [])].filter(Boolean).join('; ')
      return {
        status: 'failed',
        error: {
          code: 'runtime',
          message: `Claude Code ended the turn with ${result.subtype}${detail ? ` (${detail})` : ''}`,
          retryable: false,
        },
      }
    })
  }

  async #finish(settle: () => Promise<TurnEnd>): Promise<void> {
    if (this.#ended) return
    this.#ended = true
    try {
      const end = await settle()
      if (this.host.signal.aborted) this.#reject(this.host.signal.reason)
      else this.#resolve(end)
    } catch (error) {
      this.#reject(error)
    }
  }

  async #haltNow(): Promise<void> {
    if (this.#haltSent) return
    this.#haltSent = true
    this.#interruptSent = true
    for (const uuid of await this.#port.interrupt()) this.steering.cancelled(uuid)
  }

  async #interrupted(): Promise<void> {
    if (this.#ended) return
    this.#streaming?.end()
    // Nothing more goes in; what is in flight settles first, so the interrupt cancels it too.
    await this.steering.close()
    this.#interruptSent = true
    for (const uuid of await this.#port.interrupt()) this.steering.cancelled(uuid)
  }

  #knows(id: string): boolean {
    return this.#loggedCalls.has(id) || (this.#pending?.blocks.some((block) => block.type === 'tool_call' && block.id === id) ?? false)
  }

  /** Makes sure a tool call is in the log before its result: the buffered response, or the call alone. */
  #logCall(id: string, name: string, input: unknown): void {
    const known = this.#knows(id)
    this.#flush()
    if (known) return
    this.#loggedCalls.add(id)
    this.host.recordMessage({ role: 'assistant', content: [{ type: 'tool_call', id, name, input }], source: { kind: 'model' } })
  }

  /**
   * Logs the buffered response: with its usage (`meta.usage`, as streamed, else as Claude Code's message gave it) and
   * model (`meta.model`), then checks the budgets. A response logged before it ended records its usage when it ends.
   */
  #flush(): void {
    const pending = this.#pending
    this.#pending = undefined
    if (!pending || pending.blocks.length === 0) return
    for (const block of pending.blocks) if (block.type === 'tool_call') this.#loggedCalls.add(block.id)
    const streamed = this.#streamed.get(pending.id)
    if (streamed !== undefined && !streamed.ended) this.#usageOwed.set(pending.id, { step: pending.step, model: pending.model })
    const usage = streamed === undefined ? modelUsageOf(pending.usage) : streamed.ended ? streamed.usage : undefined
    const meta = { ...(usage === undefined ? {} : { usage }), ...(pending.model === undefined ? {} : { model: pending.model }) }
    this.host.recordMessage({
      role: 'assistant',
      content: pending.blocks,
      source: { kind: 'model' },
      ...(Object.keys(meta).length > 0 ? { meta } : {}),
    })
    if (usage !== undefined) this.#checkBudget(pending.step)
  }
}

function builtinCall(input: { tool_name: string; tool_input: unknown; tool_use_id: string }): ToolCall {
  return { id: input.tool_use_id, name: input.tool_name, input: input.tool_input }
}

function contextText(context: readonly Message[] | undefined): string {
  return (context ?? []).map(messageText).join('\n\n')
}

function responseText(response: unknown): string {
  if (typeof response === 'string') return response
  if (response && typeof response === 'object' && 'stdout' in response) {
    const { stdout, stderr } = response as { stdout?: unknown; stderr?: unknown }
    return [stdout, stderr].filter((part) => typeof part === 'string' && part !== '').join('\n')
  }
  return JSON.stringify(response ?? '')
}
