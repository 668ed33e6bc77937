import type { ContentBlock, Message, TurnStatus } from '@harness-kernel/kernel'
import { type Attributes, type Context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { GEN_AI, HARNESS } from './attribute-names.js'
import { capped, cappedJson, messagesJson, partsOf } from './captured-content.js'
import { type ResponseMeta, readResponseMeta } from './response-meta.js'
import { countSpend } from './spend-metrics.js'
import type { TraceScope } from './trace-scope.js'

/** One model call as the log shows it: the assistant messages recorded between two inputs. */
interface ModelCall {
  /** When its input was complete (the turn's start, a step's start, the last tool result or input). */
  startedAt: number
  /** When its last assistant message was recorded. */
  respondedAt: number
  step: number
  meta: ResponseMeta
  /** Only when outputs are captured. */
  output: ContentBlock[] | undefined
}

interface ToolTrace {
  span: Span
  context: Context
  name: string
  step: number
  decision: string | undefined
}

/**
 * The spans of one turn, derived from its session events alone, so the native loop, Claude Code and Codex give the same
 * shape: `invoke_agent` for the turn; `chat` for each model call, from the moment its input was complete to its last
 * assistant message (the log has no request event; the native loop's `step/start` comes before its pre-step hooks);
 * `execute_tool` for each call, from the response that asked for it to its result. Tool spans are children of the turn,
 * beside the model calls, as in the GenAI conventions.
 */
export class TurnTrace {
  readonly id: string
  readonly span: Span
  readonly context: Context
  readonly #scope: TraceScope
  readonly #provider: string | undefined
  readonly #startedAt: number
  #inputReadyAt: number
  /** The native loop's step number (`step/start`); other drivers number their model calls. */
  #step: number | undefined
  #calls = 0
  #call: ModelCall | undefined
  readonly #tools = new Map<string, ToolTrace>()
  /** Calls whose result is in, kept for hooks and subagents that report after it. */
  readonly #finished = new Map<string, Context>()
  readonly #prompts: Message[] = []
  /** Model calls closed before their usage came (Codex reports it after the call's tools ran), by step. */
  readonly #awaitingUsage: ModelCall[] = []
  /** The turn's usage and cost so far: the GenAI conventions put them on the agent span too. */
  readonly #total = { inputTokens: 0, outputTokens: 0, costUsd: 0, counted: false, priced: false }

  constructor(scope: TraceScope, parent: Context, id: string, attributes: Attributes, now: number, provider: string | undefined) {
    this.#scope = scope
    this.#provider = provider
    this.id = id
    this.#startedAt = now
    this.#inputReadyAt = now
    const agent = attributes[GEN_AI.agentName] as string
    this.span = scope.tracer.startSpan(`invoke_agent ${agent}`, { kind: SpanKind.INTERNAL, startTime: now, attributes }, parent)
    this.context = trace.setSpan(parent, this.span)
  }

  stepStarted(step: number, now: number): void {
    this.closeModelCall()
    this.#step = step
    this.#inputReadyAt = now
  }

  /** Input for the next model call: a user or developer message, a tool result, accepted steering, a compaction. */
  inputAt(now: number): void {
    this.closeModelCall()
    this.#inputReadyAt = now
  }

  userMessage(message: Message, now: number): void {
    this.inputAt(now)
    if (this.#scope.capture.prompts) this.#prompts.push(message)
  }

  assistantMessage(message: Message, now: number): void {
    let call = this.#call
    if (call === undefined) {
      this.#calls++
      call = { startedAt: this.#inputReadyAt, respondedAt: now, step: this.#step ?? this.#calls, meta: {}, output: undefined }
      this.#call = call
    }
    call.respondedAt = now
    readResponseMeta(message.meta, call.meta)
    if (this.#scope.capture.outputs) call.output = [...(call.output ?? []), ...message.content]
    for (const block of message.content) {
      if (block.type === 'tool_call' && !this.#tools.has(block.id)) this.#startTool(block.id, block.name, block.input, call.step, now)
    }
  }

  /** `tool/call`: the kernel's decision on a call (a program's built-in may have none). */
  toolDecided(callId: string, name: string, input: unknown, step: number, decision: string, now: number): void {
    this.closeModelCall()
    const tool = this.#tools.get(callId) ?? this.#startTool(callId, name, input, step, now)
    tool.decision = decision
    tool.span.setAttribute(HARNESS.toolDecision, decision)
  }

  toolFinished(callId: string, output: string, isError: boolean, now: number): void {
    this.inputAt(now)
    const tool = this.#tools.get(callId)
    if (tool === undefined) return
    this.#tools.delete(callId)
    this.#finished.set(callId, tool.context)
    const outcome = tool.decision?.startsWith('deny') ? 'denied' : isError ? 'error' : 'ok'
    tool.span.setAttribute(HARNESS.toolOutcome, outcome)
    if (this.#scope.capture.outputs) tool.span.setAttribute(GEN_AI.toolResult, capped(output))
    if (outcome === 'error') tool.span.setStatus({ code: SpanStatusCode.ERROR })
    tool.span.end(now)
    this.#scope.instruments?.toolCalls.add(`${tool.name}\n${outcome}`, 1, () => ({
      [GEN_AI.toolName]: tool.name,
      [HARNESS.toolOutcome]: outcome,
    }))
  }

  /** The span a call's hooks and subagents belong under, while it runs or after. */
  callContext(callId: string): Context | undefined {
    return this.#tools.get(callId)?.context ?? this.#finished.get(callId)
  }

  callSpan(callId: string): Span | undefined {
    return this.#tools.get(callId)?.span
  }

  end(status: TurnStatus, now: number, detail: { error?: string | undefined; reason?: string | undefined }): void {
    this.closeModelCall()
    for (const call of this.#awaitingUsage.splice(0)) this.#emit(call)
    for (const tool of this.#tools.values()) {
      tool.span.setAttribute(HARNESS.toolOutcome, 'unfinished')
      tool.span.end(now)
    }
    this.#tools.clear()
    const span = this.span
    span.setAttribute(HARNESS.turnStatus, status)
    if (detail.reason !== undefined) span.setAttribute(HARNESS.turnReason, detail.reason)
    const total = this.#total
    if (total.counted) span.setAttributes({ [GEN_AI.inputTokens]: total.inputTokens, [GEN_AI.outputTokens]: total.outputTokens })
    if (total.priced) span.setAttribute(HARNESS.costUsd, total.costUsd)
    if (status === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, message: detail.error ?? 'the turn failed' })
    if (this.#prompts.length > 0) {
      span.setAttribute(
        GEN_AI.inputMessages,
        messagesJson(this.#prompts.map((message) => ({ role: 'user', parts: partsOf(message.content, false) }))),
      )
    }
    span.end(now)
    const instruments = this.#scope.instruments
    if (instruments === undefined) return
    const agent = { [GEN_AI.operationName]: 'invoke_agent', [HARNESS.turnStatus]: status }
    instruments.turns.add(status, 1, () => ({ [HARNESS.turnStatus]: status }))
    instruments.operationDuration.record((now - this.#startedAt) / 1000, agent)
  }

  /** Ends the open model call at its last response; anything but more of the response closes it. */
  closeModelCall(): void {
    const call = this.#call
    if (call === undefined) return
    this.#call = undefined
    // Its usage may come in a `usage` event of its own: the span waits for it, until the turn ends.
    if (call.meta.usage === undefined) this.#awaitingUsage.push(call)
    else this.#emit(call)
  }

  /**
   * A `usage` event: a step's usage that came after its assistant message, or a driven program's own spend beyond its
   * steps. It completes the waiting model call of that step (else the oldest waiting); spend no call waits for is
   * counted in the metrics and the turn's totals alone.
   */
  usageRecorded(step: number | undefined, meta: ResponseMeta): void {
    const index = this.#awaitingUsage.findIndex((call) => call.step === step)
    const waiting = index >= 0 ? index : meta.usage === undefined ? -1 : 0
    if (waiting >= 0) {
      const [call] = this.#awaitingUsage.splice(waiting, 1)
      Object.assign(call!.meta, meta)
      this.#emit(call!)
      return
    }
    this.#count(meta, this.#provider)
  }

  /** A model call that was no step of the turn (a compaction's summary): in the turn's totals and the metrics alone. */
  spentOutsideCalls(meta: ResponseMeta): void {
    this.#count(meta, this.#provider)
  }

  /** The model call's span, from its input to its last response, with what its response said of itself. */
  #emit(call: ModelCall): void {
    const scope = this.#scope
    const { meta } = call
    const provider = this.#provider
    const attributes: Attributes = {
      ...scope.spanAttributes,
      [GEN_AI.operationName]: 'chat',
      [HARNESS.step]: call.step,
      [HARNESS.turnId]: this.id,
    }
    if (provider !== undefined) attributes[GEN_AI.providerName] = provider
    if (meta.model !== undefined) attributes[GEN_AI.responseModel] = meta.model
    if (meta.responseId !== undefined) attributes[GEN_AI.responseId] = meta.responseId
    if (meta.stopReason !== undefined) attributes[GEN_AI.finishReasons] = [meta.stopReason]
    if (meta.costUsd !== undefined) attributes[HARNESS.costUsd] = meta.costUsd
    const usage = meta.usage
    if (usage !== undefined) {
      if (usage.inputTokens !== undefined) attributes[GEN_AI.inputTokens] = usage.inputTokens
      if (usage.outputTokens !== undefined) attributes[GEN_AI.outputTokens] = usage.outputTokens
      if (usage.cacheReadInputTokens !== undefined) attributes[GEN_AI.cacheReadTokens] = usage.cacheReadInputTokens
      if (usage.cacheCreationInputTokens !== undefined) attributes[GEN_AI.cacheCreationTokens] = usage.cacheCreationInputTokens
      if (usage.reasoningTokens !== undefined) attributes[GEN_AI.reasoningTokens] = usage.reasoningTokens
    }
    if (call.output !== undefined) {
      const message = {
        role: 'assistant',
        parts: partsOf(call.output, true),
        ...(meta.stopReason ? { finish_reason: meta.stopReason } : {}),
      }
      attributes[GEN_AI.outputMessages] = messagesJson([message])
    }
    const name = meta.model === undefined ? 'chat' : `chat ${meta.model}`
    scope.tracer.startSpan(name, { kind: SpanKind.CLIENT, startTime: call.startedAt, attributes }, this.context).end(call.respondedAt)
    const metric = this.#count(meta, provider)
    scope.instruments?.operationDuration.record((call.respondedAt - call.startedAt) / 1000, metric)
  }

  /** Adds a response's usage and cost to the turn's totals and the metrics; returns the metric attributes. */
  #count(meta: ResponseMeta, provider: string | undefined): Attributes {
    const total = this.#total
    const { usage, costUsd } = meta
    if (usage?.inputTokens !== undefined || usage?.outputTokens !== undefined) total.counted = true
    total.inputTokens += usage?.inputTokens ?? 0
    total.outputTokens += usage?.outputTokens ?? 0
    if (costUsd !== undefined) {
      total.priced = true
      total.costUsd += costUsd
    }
    return countSpend(this.#scope, meta, provider)
  }

  #startTool(callId: string, name: string, input: unknown, step: number, now: number): ToolTrace {
    const attributes: Attributes = {
      ...this.#scope.spanAttributes,
      [GEN_AI.operationName]: 'execute_tool',
      [GEN_AI.toolName]: name,
      [GEN_AI.toolCallId]: callId,
      [HARNESS.step]: step,
    }
    if (this.#scope.capture.outputs) attributes[GEN_AI.toolArguments] = cappedJson(input)
    const span = this.#scope.tracer.startSpan(`execute_tool ${name}`, { kind: SpanKind.INTERNAL, startTime: now, attributes }, this.context)
    const tool: ToolTrace = { span, context: trace.setSpan(this.context, span), name, step, decision: undefined }
    this.#tools.set(callId, tool)
    return tool
  }
}
