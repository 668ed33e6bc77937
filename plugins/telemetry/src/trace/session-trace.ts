import type { HookRunRecord, SessionEvent } from '@harness-kernel/kernel'
import { type Attributes, type Context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { GEN_AI, HARNESS } from './attribute-names.js'
import { capped } from './captured-content.js'
import { type ResponseMeta, readResponseMeta } from './response-meta.js'
import type { SessionInfo } from './session-info.js'
import type { SpanIds } from './span-ids.js'
import { countSpend } from './spend-metrics.js'
import type { TraceScope } from './trace-scope.js'
import { TurnTrace } from './turn-trace.js'

type EventOf<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>

const MAIN_AGENT = 'harness'

/**
 * The trace of one session, built from its durable events as they are appended (`session/event`): a span for the
 * session, and under it each turn with its model calls and tool calls, the hook runs (under the tool call they ran for,
 * when they name one), steering claims and compactions. A subagent's session span is a child of the tool call that
 * started it, in its parent's trace. Spans end as the events say; nothing waits on export.
 */
export class SessionTrace {
  readonly span: Span
  readonly context: Context
  readonly #scope: TraceScope
  readonly #session: SessionInfo
  readonly #agent: string
  #turn: TurnTrace | undefined
  #turns = 0
  #compactionStartedAt: number | undefined
  /** What the running compaction's summary spent so far. */
  #compactionSpend: Spend | undefined
  #ended = false

  /** `ids`: the ids the session's span must have, where they were chosen before it started. */
  constructor(scope: TraceScope, session: SessionInfo, parent: Context | undefined, first: SessionEvent, now: number, ids?: SpanIds) {
    this.#scope = scope
    this.#session = session
    const link = session.parent
    this.#agent = link?.agentType ?? MAIN_AGENT
    const attributes: Attributes = {
      ...scope.spanAttributes,
      [HARNESS.sessionId]: session.id,
      [GEN_AI.conversationId]: session.id,
      [HARNESS.driver]: session.driver,
      [GEN_AI.agentName]: this.#agent,
    }
    if (link !== undefined) attributes[GEN_AI.agentId] = link.agentId
    if (first.type === 'session/start' && first.forkedFrom !== undefined) attributes[HARNESS.forkedFrom] = first.forkedFrom.sessionId
    if (first.type !== 'session/start') attributes[HARNESS.resumed] = true
    const name = link === undefined ? 'session' : `subagent ${link.agentType}`
    const start = () => scope.tracer.startSpan(name, { kind: SpanKind.INTERNAL, startTime: now, attributes }, parent ?? ROOT_CONTEXT)
    this.span = ids !== undefined && scope.withIds !== undefined ? scope.withIds(ids, start) : start()
    this.context = trace.setSpan(parent ?? ROOT_CONTEXT, this.span)
  }

  get ended(): boolean {
    return this.#ended
  }

  /** The span a tool call's subagent belongs under: the call's, else the turn's, else the session's. */
  contextOfCall(callId: string | undefined): Context {
    return (callId === undefined ? undefined : this.#turn?.callContext(callId)) ?? this.#turn?.context ?? this.context
  }

  /** `agent/pre-compact` fired: the compaction's span starts here and ends at its `compaction` event. */
  compactionStarted(now: number): void {
    this.#compactionStartedAt = now
    this.#compactionSpend = undefined
  }

  on(event: SessionEvent, now: number): void {
    switch (event.type) {
      case 'turn/start':
        this.#turnStart(event, now)
        return
      case 'step/start':
        this.#turn?.stepStarted(event.step, now)
        return
      case 'message':
        this.#message(event, now)
        return
      case 'tool/call':
        this.#turn?.toolDecided(event.callId, event.name, event.input, event.step, event.decision, now)
        return
      case 'tool/result':
        this.#turn?.toolFinished(event.callId, event.output, event.isError, now)
        return
      case 'hook/run':
        this.#hookRun(event, now)
        return
      case 'steering/accepted':
        this.#steeringAccepted(event, now)
        return
      case 'steering/dropped':
        this.#steeringDropped(event, now)
        return
      case 'steering/returned':
        this.#steeringReturned(event, now)
        return
      case 'compaction':
        this.#compaction(event, now)
        return
      case 'usage':
        this.#usage(event)
        return
      case 'subagent/start':
        this.#subagentStarted(event)
        return
      case 'driver/session':
        this.span.setAttribute(HARNESS.nativeSessionId, event.nativeId)
        return
      case 'turn/end':
        this.#turnEnd(event, now)
        return
      case 'session/end':
        this.end(event.reason, now)
        return
    }
  }

  /** Ends what is open: the session's end, or the kernel's dispose for a session that never ended. */
  end(reason: string, now: number): void {
    if (this.#ended) return
    this.#turn?.end('interrupted', now, { reason })
    this.#turn = undefined
    this.#ended = true
    this.span.setAttribute(HARNESS.endReason, reason)
    this.span.end(now)
  }

  #turnStart(event: EventOf<'turn/start'>, now: number): void {
    this.#turn?.end('interrupted', now, { reason: 'a new turn started before this one ended' })
    this.#turns++
    const attributes: Attributes = {
      ...this.#scope.spanAttributes,
      [GEN_AI.operationName]: 'invoke_agent',
      [GEN_AI.agentName]: this.#agent,
      [GEN_AI.conversationId]: this.#session.id,
      [HARNESS.turnId]: event.turnId,
      [HARNESS.turnNumber]: this.#turns,
    }
    const { provider } = this.#session
    if (provider !== undefined) attributes[GEN_AI.providerName] = provider
    this.#turn = new TurnTrace(this.#scope, this.context, event.turnId, attributes, now, provider)
  }

  #turnEnd(event: EventOf<'turn/end'>, now: number): void {
    const turn = this.#turn
    if (turn === undefined || turn.id !== event.turnId) return
    this.#turn = undefined
    turn.end(event.status, now, { error: event.error, reason: event.reason })
  }

  #message(event: EventOf<'message'>, now: number): void {
    const turn = this.#turn
    if (turn === undefined) return
    const { message } = event
    if (message.role === 'assistant') turn.assistantMessage(message, now)
    else if (message.role === 'user') turn.userMessage(message, now)
    else turn.inputAt(now)
  }

  #usage(event: EventOf<'usage'>): void {
    const meta: ResponseMeta = {}
    readResponseMeta(event, meta)
    // A compaction's summary: on the compaction's span when it comes, and counted at once.
    if (event.purpose === 'compaction') this.#compactionSpend = addSpend(this.#compactionSpend, meta)
    const turn = this.#turn
    if (turn === undefined || (event.turnId !== undefined && event.turnId !== turn.id)) {
      if (event.purpose !== undefined) countSpend(this.#scope, meta, this.#session.provider)
      return
    }
    if (event.purpose !== undefined) turn.spentOutsideCalls(meta)
    else turn.usageRecorded(event.step, meta)
  }

  #hookRun(run: HookRunRecord, now: number): void {
    // An async handler's start is recorded too; its span comes with the record of its end.
    if (run.status === 'running') return
    const turn = this.#turn
    const parent =
      (run.toolUseId === undefined ? undefined : turn?.callContext(run.toolUseId)) ??
      (turn !== undefined && (run.turnId === undefined || run.turnId === turn.id) ? turn.context : this.context)
    const failed = run.status === 'failed' || run.timedOut === true
    const attributes: Attributes = {
      ...this.#scope.spanAttributes,
      [HARNESS.hookDialect]: run.dialect,
      [HARNESS.hookEvent]: run.event,
      [HARNESS.hookHandler]: run.key ?? run.id,
      [HARNESS.hookStatus]: run.status,
    }
    if (run.source !== undefined) attributes[HARNESS.hookSource] = run.source
    if (run.executionMode !== undefined) attributes[HARNESS.hookMode] = run.executionMode
    if (typeof run.exitCode === 'number') attributes[HARNESS.hookExitCode] = run.exitCode
    if (run.timedOut !== undefined) attributes[HARNESS.hookTimedOut] = run.timedOut
    const decision = decisionText(run.decision)
    if (decision !== undefined) attributes[HARNESS.hookDecision] = decision
    if (this.#scope.capture.outputs && run.command !== undefined) attributes[HARNESS.hookCommand] = capped(run.command)
    // The record is appended when the run ends; its duration puts the start where it was.
    const durationMs = Number.isFinite(run.durationMs) && run.durationMs > 0 ? run.durationMs : 0
    const span = this.#scope.tracer.startSpan(
      `hook ${run.event}`,
      { kind: SpanKind.INTERNAL, startTime: now - durationMs, attributes },
      parent,
    )
    if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: run.timedOut ? 'the hook timed out' : 'the hook failed' })
    span.end(now)
    const status = run.timedOut ? 'timed_out' : run.status
    this.#scope.instruments?.hookRuns.add(`${run.dialect}\n${run.event}\n${status}`, 1, () => ({
      [HARNESS.hookDialect]: run.dialect,
      [HARNESS.hookEvent]: run.event,
      [HARNESS.hookStatus]: status,
    }))
  }

  #steeringAccepted(event: EventOf<'steering/accepted'>, now: number): void {
    const turn = this.#turn
    turn?.inputAt(now)
    const accepted = event.itemIds.length
    const dropped = event.droppedIds.length
    const outcome = dropped === 0 ? 'accepted' : accepted === 0 ? 'dropped' : 'partly dropped'
    this.#instant(`steering ${event.boundary}`, turn?.context ?? this.context, now, {
      [HARNESS.steeringBoundary]: event.boundary,
      [HARNESS.steeringTransport]: event.transport,
      [HARNESS.step]: event.step,
      [HARNESS.steeringItems]: accepted + dropped,
      [HARNESS.steeringAccepted]: accepted,
      [HARNESS.steeringDropped]: dropped,
      [HARNESS.steeringOutcome]: outcome,
    })
    const counter = this.#scope.instruments?.steeringItems
    const where = { [HARNESS.steeringBoundary]: event.boundary, [HARNESS.steeringTransport]: event.transport }
    const key = `${event.boundary}\n${event.transport}`
    if (accepted > 0) counter?.add(`${key}\naccepted`, accepted, () => ({ ...where, [HARNESS.steeringOutcome]: 'accepted' }))
    if (dropped > 0) counter?.add(`${key}\ndropped`, dropped, () => ({ ...where, [HARNESS.steeringOutcome]: 'dropped' }))
  }

  #steeringDropped(event: EventOf<'steering/dropped'>, now: number): void {
    const turn = this.#turn
    const parent = turn !== undefined && event.turnId === turn.id ? turn.context : this.context
    this.#instant('steering dropped', parent, now, {
      [HARNESS.steeringTransport]: event.transport,
      [HARNESS.steeringItems]: event.itemIds.length,
      [HARNESS.steeringDropped]: event.itemIds.length,
      [HARNESS.steeringOutcome]: 'dropped',
      [HARNESS.steeringReason]: event.reason,
    })
    if (event.itemIds.length > 0) {
      this.#scope.instruments?.steeringItems.add(`\n${event.transport}\ndropped`, event.itemIds.length, () => ({
        [HARNESS.steeringTransport]: event.transport,
        [HARNESS.steeringOutcome]: 'dropped',
      }))
    }
  }

  #steeringReturned(event: EventOf<'steering/returned'>, now: number): void {
    const turn = this.#turn
    const parent = turn !== undefined && event.turnId === turn.id ? turn.context : this.context
    this.#instant(`steering ${event.boundary}`, parent, now, {
      [HARNESS.steeringBoundary]: event.boundary,
      [HARNESS.steeringTransport]: event.transport,
      [HARNESS.step]: event.step,
      [HARNESS.steeringItems]: event.itemIds.length,
      [HARNESS.steeringOutcome]: 'returned',
      [HARNESS.steeringReason]: event.reason,
    })
    const where = { [HARNESS.steeringBoundary]: event.boundary, [HARNESS.steeringTransport]: event.transport }
    this.#scope.instruments?.steeringItems.add(`${event.boundary}\n${event.transport}\nreturned`, event.itemIds.length, () => ({
      ...where,
      [HARNESS.steeringOutcome]: 'returned',
    }))
  }

  #compaction(event: EventOf<'compaction'>, now: number): void {
    const turn = this.#turn
    turn?.inputAt(now)
    const started = this.#compactionStartedAt ?? now
    this.#compactionStartedAt = undefined
    const attributes: Attributes = {
      ...this.#scope.spanAttributes,
      [HARNESS.compactionTrigger]: event.trigger,
      [HARNESS.compactionKept]: event.kept,
    }
    if (event.tokensBefore !== undefined) attributes[HARNESS.compactionTokensBefore] = event.tokensBefore
    const spend = this.#compactionSpend
    this.#compactionSpend = undefined
    if (spend !== undefined) {
      attributes[GEN_AI.inputTokens] = spend.inputTokens
      attributes[GEN_AI.outputTokens] = spend.outputTokens
      if (spend.costUsd !== undefined) attributes[HARNESS.costUsd] = spend.costUsd
    }
    if (this.#scope.capture.outputs) attributes[HARNESS.compactionSummary] = capped(event.summary)
    const parent = turn !== undefined && (event.turnId === undefined || event.turnId === turn.id) ? turn.context : this.context
    this.#scope.tracer.startSpan('compaction', { kind: SpanKind.INTERNAL, startTime: started, attributes }, parent).end(now)
  }

  #subagentStarted(event: EventOf<'subagent/start'>): void {
    if (event.callId === undefined) return
    this.#turn?.callSpan(event.callId)?.setAttributes({
      [HARNESS.subagentId]: event.agentId,
      [HARNESS.subagentType]: event.agentType,
      [HARNESS.subagentSessionId]: event.sessionId,
    })
  }

  /** A span for a moment: what the log records as one event (a claim settled, input dropped). */
  #instant(name: string, parent: Context, now: number, attributes: Attributes): void {
    this.#scope.tracer
      .startSpan(name, { kind: SpanKind.INTERNAL, startTime: now, attributes: { ...this.#scope.spanAttributes, ...attributes } }, parent)
      .end(now)
  }
}

/** A hook's decision word (`block`, `deny`, `allow`…); a structured decision may carry the hook's own texts, which stay out. */
function decisionText(decision: unknown): string | undefined {
  return typeof decision === 'string' && decision.length <= 64 ? decision : undefined
}

interface Spend {
  inputTokens: number
  outputTokens: number
  costUsd: number | undefined
}

function addSpend(spend: Spend | undefined, meta: ResponseMeta): Spend {
  const costUsd = meta.costUsd === undefined ? spend?.costUsd : (spend?.costUsd ?? 0) + meta.costUsd
  return {
    inputTokens: (spend?.inputTokens ?? 0) + (meta.usage?.inputTokens ?? 0),
    outputTokens: (spend?.outputTokens ?? 0) + (meta.usage?.outputTokens ?? 0),
    costUsd,
  }
}
