import { TurnInterruptedError } from './abort.js'
import type { Halt } from './decisions.js'
import { abandonOpenEntries, runtimeOf } from './driver/turn-host.js'
import type { DriverSession, TurnEnd, TurnHost } from './driver/types.js'
import { errorMessage, HookTapError } from './errors.js'
import type { Message } from './messages.js'
import { textOf } from './messages.js'
import type { TurnStatus } from './session-events.js'
import type { SessionRuntime } from './session-runtime.js'
import type { TurnInfo, TurnResult } from './session-types.js'
import { type HeldClaim, rejectUnsettled } from './steering/boundary-claims.js'
import { recordReturned } from './steering/record-returned.js'
import { claimsSettled } from './steering/settle-claims.js'

interface FrameEnd {
  status: TurnStatus
  reason?: string
}

export interface TurnFrame {
  turn: TurnInfo
  input: Message[]
  /** The host of this turn; claims it takes go onto `held`. */
  host: TurnHost
  held: HeldClaim[]
  driverId: string
  /** Opens the driver's session on first use (a failure fails the turn, like any driver error). */
  driverSession(): Promise<DriverSession>
}

/**
 * Runs one turn on the session's driver: the frame every driver shares (DESIGN §4). Never throws:
 * failures end the turn `failed`, and a throw after the signal aborted ends it `interrupted`.
 */
export async function runTurn({ turn, input, host, held, driverId, driverSession }: TurnFrame): Promise<TurnResult> {
  const rt = runtimeOf(host)
  const { signal } = host
  const firstMessage = rt.transcript.messages.length
  rt.append({ type: 'turn/start', turnId: turn.id })
  rt.budget.startTurn()
  let end: FrameEnd
  let error: string | undefined
  try {
    // A session over its budget (or a subagent's parent over its own) starts nothing: no input is taken.
    const overBudget = await rt.budget.check({ turn, step: 0, signal, atStart: true })
    const parent = rt.session.parent
    if (overBudget === undefined && parent !== undefined && turn.number === 1) {
      await rt.hooks.subagentStart.promise({ session: rt.session, turn, step: 0, signal, agent: parent.agent })
    }
    const driven: TurnEnd =
      overBudget === undefined ? await (await driverSession()).runTurn({ turn, input }, host) : budgetHalt(rt, overBudget, driverId)
    // Steering is accepted once its record is durable: a log that could not get there fails the turn.
    await claimsSettled(held)
    if (driven.status === 'failed') {
      error = driven.error.message
      end = { status: 'failed' }
      rt.notice('error', `turn failed: ${error}`, driverId)
    } else end = driven
  } catch (caught) {
    if (signal.aborted) end = { status: 'interrupted', reason: errorMessage(signal.reason) }
    else {
      error = errorMessage(caught)
      end = { status: 'failed' }
      if (caught instanceof HookTapError) rt.logger.error(error)
      rt.notice('error', `turn failed: ${error}`, caught instanceof HookTapError ? caught.plugin : 'kernel')
    }
  } finally {
    rt.budget.endTurn()
    abandonOpenEntries(host)
    rejectUnsettled(held, (claim) => recordReturned(rt, turn.id, claim, signal, error))
  }
  // What a failed turn left settling is accepted or given back before the turn ends.
  await claimsSettled(held).catch(() => {})
  if (end.status === 'interrupted') {
    const origin = signal.reason instanceof TurnInterruptedError ? signal.reason.origin : undefined
    await rt.hooks.interrupt
      .promise({ session: rt.session, turn, reason: end.reason ?? 'interrupted', ...(origin === undefined ? {} : { origin }) })
      .catch((tapError: unknown) => rt.reportTapError(tapError as HookTapError))
  }
  // A session whose log was lost writes nothing more: the next opener closes the open turn, as after a crash.
  if (rt.lost === undefined) {
    rt.append({
      type: 'turn/end',
      turnId: turn.id,
      status: end.status,
      ...(error === undefined ? {} : { error }),
      ...(end.reason === undefined ? {} : { reason: end.reason }),
    })
    await rt.syncForSteering().catch((syncError: unknown) => {
      // Lost meanwhile: reported as such (`onLost`), and the result below says the turn was not kept.
      if (rt.lost === undefined) throw syncError
    })
  }
  // What this process ran is not the session's record once another process owns the log: never reported completed.
  if (rt.lost !== undefined && end.status !== 'interrupted') end = { status: 'interrupted', reason: errorMessage(rt.lost) }
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

function budgetHalt(rt: SessionRuntime, halt: Halt, driverId: string): TurnEnd {
  rt.notice('warning', `turn halted: ${halt.reason}`, driverId)
  return { status: 'halted', reason: halt.reason }
}
