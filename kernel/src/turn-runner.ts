import type { Halt, PreStepDecision, StopDecision } from './decisions.js'
import { errorMessage, HookTapError } from './errors.js'
import { assistantMessage, type Message, textOf, toolCallsOf } from './messages.js'
import { callModel } from './model-call.js'
import type { TurnStatus } from './session-events.js'
import type { SessionRuntime } from './session-runtime.js'
import type { StepPayload, TurnInfo, TurnResult } from './session-types.js'
import { claimBoundary, type HeldClaim, rejectUnsettled } from './steering/boundary-claims.js'
import { runToolCalls } from './tool-step.js'

interface TurnEnd {
  status: TurnStatus
  reason?: string
}

/** Runs one turn to its end (DESIGN §4). Never throws: failures end the turn `failed`. */
export async function runTurn(rt: SessionRuntime, turn: TurnInfo, input: Message[], signal: AbortSignal): Promise<TurnResult> {
  const firstMessage = rt.transcript.messages.length
  rt.append({ type: 'turn/start', turnId: turn.id })
  const held: HeldClaim[] = []
  let end: TurnEnd
  let error: string | undefined
  try {
    end = await loop(rt, turn, input, signal, held)
  } catch (caught) {
    if (signal.aborted) end = { status: 'interrupted', reason: errorMessage(signal.reason) }
    else {
      error = errorMessage(caught)
      end = { status: 'failed' }
      if (caught instanceof HookTapError) rt.logger.error(error)
      rt.notice('error', `turn failed: ${error}`, caught instanceof HookTapError ? caught.plugin : 'kernel')
    }
  } finally {
    rejectUnsettled(held)
  }
  if (end.status === 'interrupted') {
    await rt.hooks.interrupt
      .promise({ session: rt.session, turn, reason: end.reason ?? 'interrupted' })
      .catch((tapError: unknown) => rt.reportTapError(tapError as HookTapError))
  }
  rt.append({
    type: 'turn/end',
    turnId: turn.id,
    status: end.status,
    ...(error === undefined ? {} : { error }),
    ...(end.reason === undefined ? {} : { reason: end.reason }),
  })
  if (rt.options.fsync !== 'never') rt.syncForSteering()
  const messages = rt.transcript.messages.slice(firstMessage)
  const lastAssistant = messages.findLast((message) => message.role === 'assistant')
  return {
    status: end.status,
    turnId: turn.id,
    messages,
    lastAssistantMessage: lastAssistant ? textOf(lastAssistant) || null : null,
    ...(error === undefined ? {} : { error }),
    ...(end.reason === undefined ? {} : { reason: end.reason }),
  }
}

async function loop(rt: SessionRuntime, turn: TurnInfo, input: Message[], signal: AbortSignal, held: HeldClaim[]): Promise<TurnEnd> {
  const sessionId = rt.session.id
  let fresh = input
  let freshClaims: HeldClaim[] = []
  let fromFinalBoundary = false
  let stopHookActive = false
  let continues = 0
  let recordedInput = false
  for (let step = 1; ; step++) {
    signal.throwIfAborted()
    rt.append({ type: 'step/start', turnId: turn.id, step })
    const base: StepPayload = { session: rt.session, turn, step, signal }
    let stepInput = fresh
    let stepClaims = freshClaims
    fresh = []
    freshClaims = []
    if (!(step === 1 && stepInput.length > 0) && !fromFinalBoundary) {
      stepClaims = await claimBoundary(rt.steeringSources, { kind: 'sampling', sessionId, turnId: turn.id, step }, signal)
      held.push(...stepClaims)
      stepInput = [...stepInput, ...claimedMessages(rt, stepClaims)]
    }
    const afterFinal = fromFinalBoundary
    fromFinalBoundary = false

    if (step === 1 && rt.pending.halt) {
      const halt = rt.pending.halt
      rt.pending.halt = undefined
      return halted(rt, halt)
    }
    if (step === 1 && stepInput.length === 0) return settleEmptyStep(rt, turn, stepClaims)

    const decision: PreStepDecision = await rt.hooks.preStep.promise({ kind: 'enter', messages: stepInput }, { ...base, input: stepInput })
    signal.throwIfAborted()
    for (const message of rt.pending.injected.splice(0)) rt.recordMessage(turn.id, message)
    const entered = decision.kind === 'enter' ? decision.messages : []
    for (const message of entered) rt.recordMessage(turn.id, message)
    for (const message of decision.context ?? []) rt.recordMessage(turn.id, message)
    const dropReason = decision.kind === 'reject' ? (decision.reason ?? 'rejected by agent/pre-step') : 'dropped by agent/pre-step'
    settleClaims(rt, turn, stepClaims, entered, dropReason)
    const enteredInput = entered.some((message) => message.role === 'user' || isInputItem(message, stepInput))
    recordedInput ||= enteredInput

    if (decision.kind === 'enter' && decision.halt) return halted(rt, decision.halt)
    if (!recordedInput && stepInput.length > 0 && step === 1) {
      const reason = decision.kind === 'reject' ? decision.reason : 'every input item was dropped by agent/pre-step'
      if (reason) rt.notice('warning', `turn blocked: ${reason}`, 'kernel')
      return { status: 'blocked', ...(reason === undefined ? {} : { reason }) }
    }
    // Final-boundary input that was all dropped leaves nothing new to sample: back to the final boundary.
    const sample = !(afterFinal && !enteredInput)
    if (sample) {
      const request = await rt.hooks.modelRequest.promise(
        {
          ...(rt.options.system === undefined ? {} : { system: rt.options.system }),
          messages: [...rt.transcript.messages],
          tools: rt.tools.specs(),
        },
        base,
      )
      const response = await callModel(rt.model, request, {
        signal,
        sessionId,
        turnId: turn.id,
        step,
        retry: rt.options.modelRetry,
        onRetry: (message) => rt.notice('warning', message, 'kernel'),
        ...(rt.hooks.modelDelta.isUsed() ? { onTextDelta: (text: string) => rt.hooks.modelDelta.call({ ...base, text }) } : {}),
      })
      const assistant = assistantMessage(response.content)
      // Token counts stay with the message they paid for (in `meta`, which no model sees).
      if (response.usage) assistant.meta = { usage: response.usage, ...(response.stopReason ? { stopReason: response.stopReason } : {}) }
      rt.recordMessage(turn.id, assistant)
      const calls = toolCallsOf(assistant)
      if (calls.length > 0) {
        const halt = await runToolCalls(rt, base, calls)
        signal.throwIfAborted()
        if (halt) return halted(rt, halt)
        continue
      }
    }

    const end = await finalBoundary(rt, turn, step, signal, held)
    if ('continueWith' in end) {
      ;({ fresh, freshClaims, fromFinalBoundary } = end.continueWith)
      continues = 0
      continue
    }
    const outcome = await stopping(rt, base, stopHookActive, continues)
    if (outcome.end) return outcome.end
    stopHookActive = true
    continues = outcome.continues
  }
}

type FinalBoundary = { continueWith: { fresh: Message[]; freshClaims: HeldClaim[]; fromFinalBoundary: true } } | { stop: true }

async function finalBoundary(
  rt: SessionRuntime,
  turn: TurnInfo,
  step: number,
  signal: AbortSignal,
  held: HeldClaim[],
): Promise<FinalBoundary> {
  const claims = await claimBoundary(rt.steeringSources, { kind: 'final', sessionId: rt.session.id, turnId: turn.id, step }, signal)
  held.push(...claims)
  const messages = claimedMessages(rt, claims)
  if (messages.length === 0) {
    settleClaims(rt, turn, claims, [], 'already recorded')
    return { stop: true }
  }
  return { continueWith: { fresh: messages, freshClaims: claims, fromFinalBoundary: true } }
}

async function stopping(
  rt: SessionRuntime,
  base: StepPayload,
  stopHookActive: boolean,
  continues: number,
): Promise<{ end: TurnEnd; continues: number } | { end: undefined; continues: number }> {
  const last = rt.transcript.messages.findLast((message) => message.role === 'assistant')
  const decision: StopDecision = await rt.hooks.turnStopping.promise(
    { kind: 'stop' },
    { ...base, stopHookActive, lastAssistantMessage: last ? textOf(last) || null : null },
  )
  if (decision.kind === 'stop') {
    for (const message of decision.context ?? []) rt.recordMessage(base.turn.id, message)
    return { end: { status: 'completed' }, continues }
  }
  if (continues >= rt.options.maxStopContinuations) {
    rt.notice(
      'warning',
      `turn stopped after ${continues} consecutive continuations by agent/turn-stopping (maxStopContinuations ${rt.options.maxStopContinuations})`,
      'kernel',
    )
    return { end: { status: 'completed' }, continues }
  }
  for (const message of decision.messages) rt.recordMessage(base.turn.id, message)
  if (decision.halt) return { end: halted(rt, decision.halt), continues }
  return { end: undefined, continues: continues + 1 }
}

function halted(rt: SessionRuntime, halt: Halt): TurnEnd {
  rt.notice('warning', `turn halted: ${halt.reason}`, 'kernel')
  return { status: 'halted', reason: halt.reason }
}

function settleEmptyStep(rt: SessionRuntime, turn: TurnInfo, claims: HeldClaim[]): TurnEnd {
  settleClaims(rt, turn, claims, [], 'already recorded')
  return { status: 'completed' }
}

/** Claimed items not yet consumed (a redelivered item, recorded or dropped before, is recognised by id). */
function claimedMessages(rt: SessionRuntime, claims: HeldClaim[]): Message[] {
  const { recordedSteeringIds, droppedSteeringIds } = rt.transcript
  const messages: Message[] = []
  for (const held of claims) {
    for (const message of held.messages) {
      const id = message.meta?.steeringItemId as string
      if (!recordedSteeringIds.has(id) && !droppedSteeringIds.has(id)) messages.push(message)
    }
  }
  return messages
}

/**
 * Accepts each claim after its items are in the log: recorded ones as `recorded`, the rest as dropped
 * by policy (logged, a notice, never redelivered). The log reaches disk before any `accept()`.
 */
function settleClaims(rt: SessionRuntime, turn: TurnInfo, claims: HeldClaim[], entered: readonly Message[], reason: string): void {
  const open = claims.filter((held) => !held.settled)
  if (open.length === 0) return
  const enteredIds = new Set(entered.map(steeringItemIdOf))
  const recorded = (message: Message) => entered.includes(message) || enteredIds.has(steeringItemIdOf(message))
  for (const held of open) {
    const itemIds: string[] = []
    const droppedIds: string[] = []
    for (const message of held.messages) {
      const id = message.meta?.steeringItemId as string
      if (recorded(message) || rt.transcript.recordedSteeringIds.has(id)) itemIds.push(id)
      else droppedIds.push(id)
    }
    rt.append({
      type: 'steering/accepted',
      turnId: turn.id,
      step: held.boundary.step,
      boundary: held.boundary.kind,
      transport: held.transport,
      itemIds,
      droppedIds,
    })
    if (droppedIds.length > 0 && reason !== 'already recorded') {
      rt.notice('warning', `steering input from ${held.transport} was consumed by policy: ${reason}`, 'kernel')
    }
  }
  rt.syncForSteering()
  for (const held of open) {
    held.settled = true
    for (const message of held.messages) {
      const id = message.meta?.steeringItemId as string
      if (!recorded(message) && !rt.transcript.recordedSteeringIds.has(id)) held.claim.drop?.(id, reason)
    }
    held.claim.accept()
  }
}

function steeringItemIdOf(message: Message): string | undefined {
  const id = message.meta?.steeringItemId
  return typeof id === 'string' ? id : undefined
}

/** A message that came from this step's input: the same object, or a tap's rewrite of the same steering item. */
function isInputItem(message: Message, input: readonly Message[]): boolean {
  if (input.includes(message)) return true
  const id = steeringItemIdOf(message)
  return id !== undefined && input.some((item) => steeringItemIdOf(item) === id)
}
