import type { PreStepDecision, StopDecision } from '../decisions.js'
import type { Message } from '../messages.js'
import { textOf } from '../messages.js'
import type { SessionRuntime } from '../session-runtime.js'
import type { ToolCall, TurnInfo } from '../session-types.js'
import { claimBoundary, type HeldClaim, rejectUnsettled } from '../steering/boundary-claims.js'
import { recordReturned } from '../steering/record-returned.js'
import { claimedMessages, settleClaims, steeringItemIdOf } from '../steering/settle-claims.js'
import type { SteeringSource } from '../steering/types.js'
import { permission, runToolCall } from '../tool-step.js'
import type { Admission, ClaimedInput, Entry, StopOutcome, TurnHost } from './types.js'

const runtimes = new WeakMap<TurnHost, SessionRuntime>()
const openEntries = new WeakMap<TurnHost, Set<Entry>>()
const claimsOf = new WeakMap<ClaimedInput, HeldClaim[]>()

/** The session behind a host: for the native driver's model call, which is its own private part. */
export function runtimeOf(host: TurnHost): SessionRuntime {
  const runtime = runtimes.get(host)
  if (!runtime) throw new TypeError('not a kernel turn host')
  return runtime
}

/** At turn end: an entry a driver neither recorded nor abandoned gives its input back (claims, injected context). */
export function abandonOpenEntries(host: TurnHost): void {
  for (const entry of openEntries.get(host) ?? []) entry.abandon()
}

/** Builds the kernel side of one turn. Claims it takes are pushed onto `held` (the frame rejects what is left). */
export function createTurnHost(rt: SessionRuntime, turn: TurnInfo, signal: AbortSignal, held: HeldClaim[], driverId: string): TurnHost {
  const step = (number: number) => ({ session: rt.session, turn, step: number, signal })
  const host: TurnHost = {
    session: rt.session,
    turn,
    signal,
    get tools() {
      return rt.tools.specs().map((spec) => ({ ...spec, parallel: rt.tools.get(spec.name)?.parallel === true }))
    },
    takeSessionHalt() {
      const halt = rt.pending.halt
      rt.pending.halt = undefined
      return halt
    },
    get wantsDeltas() {
      // Not `isUsed()`: the kernel's own register interceptor makes every hook "used".
      return rt.hooks.modelDelta.taps.length > 0
    },
    waitForInput: (waitSignal) => waitForAnySource(rt.steeringSources, AbortSignal.any([signal, waitSignal])),
    async claim({ kind, step: number }) {
      const boundary = { kind, sessionId: rt.session.id, turnId: turn.id, step: number }
      const claims = await claimBoundary(rt.steeringSources, boundary, signal, (claim) => recordReturned(rt, turn.id, claim, signal))
      held.push(...claims)
      const claimed: ClaimedInput = {
        messages: claimedMessages(rt, claims),
        settle: () => {
          if (claimed.messages.length > 0)
            throw new TypeError('claimed input with new messages must go through enter(); settle() is for redeliveries only')
          settleClaims(rt, turn, claims, [], 'already recorded')
        },
      }
      // Most boundaries claim nothing; a WeakMap entry per step would only be work for the collector.
      if (claims.length > 0) claimsOf.set(claimed, claims)
      return claimed
    },
    async enter({ step: number, messages, claimed }) {
      const input = [...messages]
      const decision: PreStepDecision = await rt.hooks.preStep.promise({ kind: 'enter', messages: input }, { ...step(number), input })
      const injected = rt.pending.injected.splice(0)
      const open = openEntries.get(host) as Set<Entry>
      const entry = entryOf(rt, turn, signal, decision, injected, claimed ? (claimsOf.get(claimed) ?? []) : [], () => open.delete(entry))
      open.add(entry)
      return entry
    },
    recordMessage: (message) => rt.recordMessage(turn.id, message),
    recordUsage: (record) => rt.recordUsage(turn.id, record),
    checkBudget: (number) => rt.budget.check({ turn, step: number, signal }),
    get turnCostUsd() {
      return rt.budget.turnOwnCostUsd
    },
    async runTool(call: ToolCall, number, options) {
      const outcome = await runToolCall(
        rt,
        options?.signal ? { ...step(number), signal: AbortSignal.any([signal, options.signal]) } : step(number),
        call,
      )
      if (outcome.halt) return outcome
      const halt = await rt.budget.check({ turn, step: number, signal })
      return halt ? { ...outcome, halt } : outcome
    },
    preExecute: (call, number) => rt.hooks.toolPreExecute.promise({ kind: 'allow' }, { ...step(number), call }),
    permission: (call, number, reason) =>
      permission(rt, { ...step(number), call }, { kind: 'ask', ...(reason === undefined ? {} : { reason }) }),
    postExecute: (call, result, number) => rt.hooks.toolPostExecute.promise({ kind: 'accept' }, { ...step(number), call, result }),
    recordToolResult(number, callId, result) {
      rt.append({ type: 'tool/result', turnId: turn.id, step: number, callId, output: result.output, isError: result.isError })
    },
    async stopping({ step: number, stopHookActive, continues }): Promise<StopOutcome> {
      const last = rt.transcript.messages.findLast((message) => message.role === 'assistant')
      const payload = { ...step(number), stopHookActive, lastAssistantMessage: last ? textOf(last) || null : null }
      const parent = rt.session.parent
      // A subagent's turn ends at `agent/subagent-stop` instead, as both programs fire SubagentStop in place of Stop.
      const decision: StopDecision =
        parent === undefined
          ? await rt.hooks.turnStopping.promise({ kind: 'stop' }, payload)
          : await rt.hooks.subagentStop.promise({ kind: 'stop' }, { ...payload, agent: parent.agent })
      if (decision.kind === 'stop') {
        for (const message of decision.context ?? []) rt.recordMessage(turn.id, message)
        return { decision, capped: false }
      }
      if (continues >= rt.options.maxStopContinuations) {
        rt.notice(
          'warning',
          `turn stopped after ${continues} consecutive continuations by ${parent === undefined ? 'agent/turn-stopping' : 'agent/subagent-stop'} (maxStopContinuations ${rt.options.maxStopContinuations})`,
          'kernel',
        )
        return { decision: { kind: 'stop' }, capped: true }
      }
      for (const message of decision.messages) rt.recordMessage(turn.id, message)
      return { decision, capped: false }
    },
    delta(number, text) {
      if (rt.hooks.modelDelta.taps.length > 0) rt.hooks.modelDelta.call({ ...step(number), text })
    },
    recordNativeId(nativeId) {
      if (rt.transcript.nativeIds.get(driverId) !== nativeId) rt.append({ type: 'driver/session', driver: driverId, nativeId })
    },
    notice: (level, text) => rt.notice(level, text, driverId),
  }
  runtimes.set(host, rt)
  openEntries.set(host, new Set())
  return host
}

/** The first source's `wait` to resolve; the others' waits are released. */
async function waitForAnySource(sources: readonly SteeringSource[], signal: AbortSignal): Promise<void> {
  const done = new AbortController()
  const until = AbortSignal.any([signal, done.signal])
  try {
    await Promise.race(sources.map((source) => source.wait(until)))
  } finally {
    done.abort()
  }
}

function entryOf(
  rt: SessionRuntime,
  turn: TurnInfo,
  signal: AbortSignal,
  decision: PreStepDecision,
  injected: Message[],
  claims: HeldClaim[],
  closed: () => void,
): Entry {
  const entered = decision.kind === 'enter' ? decision.messages : []
  const dropReason = decision.kind === 'reject' ? (decision.reason ?? 'rejected by agent/pre-step') : 'dropped by agent/pre-step'
  let done = false
  const once = (what: string) => {
    if (done) throw new TypeError(`entry ${what} after it was settled`)
    done = true
    closed()
  }
  return {
    messages: entered,
    context: [...injected, ...(decision.context ?? [])],
    ...(decision.kind === 'reject' ? { rejected: { ...(decision.reason === undefined ? {} : { reason: decision.reason }) } } : {}),
    ...(decision.kind === 'enter' && decision.halt ? { halt: decision.halt } : {}),
    record(admissions?: readonly Admission[]) {
      once('recorded')
      // Without admissions (the native loop's every step) everything entered is recorded, with no reasons to keep.
      const outcome = admissions?.length ? new Map(admissions.map((admission) => [admission.id, admission])) : undefined
      const recorded =
        outcome === undefined
          ? entered
          : entered.filter((message) => {
              const id = steeringItemIdOf(message)
              return id === undefined || (outcome.get(id)?.state ?? 'recorded') === 'recorded'
            })
      const reasons = new Map<string, string>()
      for (const admission of outcome?.values() ?? []) if (admission.state === 'dropped') reasons.set(admission.id, admission.reason)
      for (const message of injected) rt.recordMessage(turn.id, message)
      for (const message of recorded) rt.recordMessage(turn.id, message)
      for (const message of decision.context ?? []) rt.recordMessage(turn.id, message)
      settleClaims(rt, turn, claims, recorded, dropReason, reasons)
    },
    abandon() {
      once('abandoned')
      rt.pending.injected.unshift(...injected)
      rejectUnsettled(claims, (claim) => recordReturned(rt, turn.id, claim, signal))
    },
  }
}
