import { randomUUID } from 'node:crypto'
import { runCompaction } from '../compaction/run-compaction.js'
import type { Halt } from '../decisions.js'
import { errorMessage, type HookTapError } from '../errors.js'
import { assistantMessage, type Message, type ToolCallBlock, toolCallsOf } from '../messages.js'
import type { ModelResponse } from '../model.js'
import { callModel, type ModelCallContext } from '../model-call.js'
import type { SessionRuntime } from '../session-runtime.js'
import type { ModelCallOutcome, ModelRequestPayload, StepPayload } from '../session-types.js'
import { isInputItem } from '../steering/settle-claims.js'
import { runToolCalls } from '../tool-step.js'
import { runtimeOf } from './turn-host.js'
import {
  type ClaimedInput,
  DRIVER_SPEC,
  type Driver,
  type DriverCapabilities,
  type TurnEnd,
  type TurnHost,
  type TurnRequest,
} from './types.js'

export const NATIVE_CAPABILITIES: DriverCapabilities = Object.freeze({
  points: Object.freeze({
    'agent/pre-step': 'decides',
    'model/request': 'decides',
    'model/response': 'observes',
    'model/delta': 'observes',
    'tools/pre-execute': 'decides',
    'tools/permission-request': 'decides',
    'tools/post-execute': 'decides',
    'agent/turn-stopping': 'decides',
  }),
  boundaries: Object.freeze(['sampling', 'final'] as const),
  finalInputContinuesTurn: true,
  toolHosting: 'in-loop',
  resume: 'log-replay',
  model: 'kernel',
})

/** The kernel's own loop (DESIGN §4) as a driver: the default `driver` service. */
export function nativeDriver(): Driver {
  return Object.freeze({
    specificationVersion: DRIVER_SPEC,
    id: 'native',
    capabilities: NATIVE_CAPABILITIES,
    async open() {
      return { runTurn, close: async () => {} }
    },
  })
}

type Continue = { fresh: readonly Message[]; claimed: ClaimedInput }

async function runTurn({ turn, input }: TurnRequest, host: TurnHost): Promise<TurnEnd> {
  const rt = runtimeOf(host)
  const { signal } = host
  let fresh: readonly Message[] = input
  let freshClaimed: ClaimedInput | undefined
  let fromFinalBoundary = false
  let stopHookActive = false
  let continues = 0
  let recordedInput = false
  for (let step = 1; ; step++) {
    signal.throwIfAborted()
    rt.append({ type: 'step/start', turnId: turn.id, step })
    const base: StepPayload = { session: rt.session, turn, step, signal }
    let stepInput = fresh
    let claimed = freshClaimed
    fresh = []
    freshClaimed = undefined
    if (!(step === 1 && stepInput.length > 0) && !fromFinalBoundary) {
      claimed = await host.claim({ kind: 'sampling', step })
      stepInput = [...stepInput, ...claimed.messages]
    }
    const afterFinal = fromFinalBoundary
    fromFinalBoundary = false

    if (step === 1 && rt.pending.halt) {
      const halt = rt.pending.halt
      rt.pending.halt = undefined
      return halted(rt, halt)
    }
    if (step === 1 && stepInput.length === 0) {
      claimed?.settle()
      return { status: 'completed' }
    }

    const entry = await host.enter({ step, messages: stepInput, ...(claimed ? { claimed } : {}) })
    signal.throwIfAborted()
    entry.record()
    const enteredInput = entry.messages.some((message) => message.role === 'user' || isInputItem(message, stepInput))
    recordedInput ||= enteredInput

    if (entry.halt) return halted(rt, entry.halt)
    if (!recordedInput && stepInput.length > 0 && step === 1) {
      const reason = entry.rejected ? entry.rejected.reason : 'every input item was dropped by agent/pre-step'
      if (reason) rt.notice('warning', `turn blocked: ${reason}`, 'kernel')
      return { status: 'blocked', ...(reason === undefined ? {} : { reason }) }
    }
    // Final-boundary input that was all dropped leaves nothing new to sample: back to the final boundary.
    if (!(afterFinal && !enteredInput)) {
      const compactHalt = await compactIfDue(rt, base)
      if (compactHalt) return halted(rt, compactHalt)
      const calls = await sample(rt, host, base)
      const overBudget = await host.checkBudget(step)
      if (overBudget) {
        unrun(rt, base, calls, overBudget)
        return halted(rt, overBudget)
      }
      if (calls.length > 0) {
        const halt = (await runToolCalls(rt, base, calls)) ?? (await host.checkBudget(step))
        signal.throwIfAborted()
        if (halt) return halted(rt, halt)
        continue
      }
    }

    const next = await finalBoundary(host, step)
    if (next) {
      ;({ fresh, claimed: freshClaimed } = next)
      fromFinalBoundary = true
      continues = 0
      continue
    }
    const { decision } = await host.stopping({ step, stopHookActive, continues })
    if (decision.kind === 'stop') return { status: 'completed' }
    if (decision.halt) return halted(rt, decision.halt)
    stopHookActive = true
    continues++
  }
}

/**
 * Before a request: when the `compactor` says the conversation is too long for it, compact first (`auto`). A
 * session-start tap that halts after the compaction (a SessionStart hook's `continue: false`) ends the turn.
 */
async function compactIfDue(rt: SessionRuntime, base: StepPayload): Promise<Halt | undefined> {
  const { compactor } = rt
  if (!compactor) return undefined
  const request = {
    ...(rt.options.system === undefined ? {} : { system: rt.options.system }),
    messages: rt.transcript.messages,
    tools: rt.tools.specs(),
  }
  if (!compactor.shouldCompact(request)) return undefined
  await runCompaction(rt, compactor, { trigger: 'auto', turn: base.turn, signal: base.signal })
  base.signal.throwIfAborted()
  const halt = rt.pending.halt
  rt.pending.halt = undefined
  return halt
}

/**
 * One model call: `model/request`, the provider (retries inside), the assistant message recorded, `model/response`
 * (also when the call failed or was cancelled, before the error goes on).
 */
async function sample(rt: SessionRuntime, host: TurnHost, base: StepPayload) {
  const { system } = rt.options
  // A copy: what taps and the provider do to the request's list never reaches the transcript.
  const messages = [...rt.transcript.messages]
  const tools = rt.tools.specs()
  // Built field by field rather than with a spread, and `model/response` only when tapped: this runs once per step.
  const { session, turn, step, signal } = base
  const call: ModelRequestPayload = { session, turn, step, signal, requestId: randomUUID() }
  const request = await rt.hooks.modelRequest.promise(system === undefined ? { messages, tools } : { system, messages, tools }, call)
  const context: ModelCallContext = {
    signal: base.signal,
    sessionId: rt.session.id,
    turnId: base.turn.id,
    step: base.step,
    retry: rt.options.modelRetry,
    onRetry: (message) => rt.notice('warning', message, 'kernel'),
  }
  if (host.wantsDeltas) context.onTextDelta = (text: string) => host.delta(base.step, text)
  let response: ModelResponse
  try {
    response = await callModel(rt.model, request, context)
  } catch (error) {
    const outcome: ModelCallOutcome = signal.aborted ? { status: 'cancelled' } : { status: 'failed', error: errorMessage(error) }
    // The call's own error is what ends the turn; a tap that fails on top of it is reported, not thrown.
    await rt.hooks.modelResponse
      .promise({ session, turn, step, signal, requestId: call.requestId, outcome })
      .catch((tapError: unknown) => rt.reportTapError(tapError as HookTapError))
    throw error
  }
  // A copy of the provider's list: it lives as long as the session, and a list built with push() keeps spare room.
  const assistant = assistantMessage(response.content.slice())
  // Token counts and the model stay with the message they paid for (in `meta`, which no model sees); the kernel prices it.
  if (response.usage || response.model) {
    assistant.meta = {
      ...(response.usage ? { usage: response.usage } : {}),
      ...(response.model ? { model: response.model } : {}),
      ...(response.stopReason ? { stopReason: response.stopReason } : {}),
    }
  }
  host.recordMessage(assistant)
  if (rt.hooks.modelResponse.isUsed()) {
    await rt.hooks.modelResponse.promise({ session, turn, step, signal, requestId: call.requestId, outcome: completedOutcome(response) })
  }
  return toolCallsOf(assistant)
}

function completedOutcome({ usage, id }: ModelResponse): ModelCallOutcome {
  const outcome: ModelCallOutcome & { status: 'completed' } = { status: 'completed' }
  if (usage !== undefined) outcome.usage = usage
  if (id !== undefined) outcome.responseId = id
  return outcome
}

async function finalBoundary(host: TurnHost, step: number): Promise<Continue | undefined> {
  const claimed = await host.claim({ kind: 'final', step })
  if (claimed.messages.length === 0) {
    claimed.settle()
    return undefined
  }
  return { fresh: claimed.messages, claimed }
}

/** A step that reached a budget runs none of its calls: each is answered with why, so the log stays a valid conversation. */
function unrun(rt: SessionRuntime, { turn, step }: StepPayload, calls: readonly ToolCallBlock[], halt: Halt): void {
  for (const call of calls) {
    rt.append({ type: 'tool/result', turnId: turn.id, step, callId: call.id, output: `Not run: ${halt.reason}.`, isError: true })
  }
}

function halted(rt: SessionRuntime, halt: Halt): TurnEnd {
  rt.notice('warning', `turn halted: ${halt.reason}`, 'kernel')
  return { status: 'halted', reason: halt.reason }
}
