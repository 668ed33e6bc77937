import { type Driver, type KernelApi, type ModelCallOutcome, type ModelUsage, STAGE_OBSERVE } from '@harness-kernel/kernel'
import type { CodexTokenUsage } from '../io/payload.js'
import type { CodexHandler } from '../types.js'
import { PLUGIN_NAME } from './run-event.js'
import { runFor, type TapContext } from './tap-context.js'

/**
 * PreModelRequest and PostModelRequest: Codex runs them around every model request of a turn and waits for them, but
 * reads nothing of their output (observed with Codex 0.169.0 and 0.171.0). The kernel's provider retries inside one
 * call, as Codex's HTTP retries do, so every request is attempt 1. Under a driver without these points the dialect
 * names the handlers that will not run (`modelRequestGap`), only when there are some.
 */
export function tapModelRequestEvents(kernel: KernelApi, ctx: TapContext): void {
  const tap = { name: PLUGIN_NAME, stage: STAGE_OBSERVE, reportsOwnGaps: true } as never
  kernel.hooks.modelRequest.tapPromise(tap, async (request, { session, turn, requestId, signal }) => {
    await runFor(ctx, session, {
      event: 'PreModelRequest',
      turnId: turn.id,
      requestId,
      fields: requestFields(session.id, requestId),
      signal,
    })
    return request
  })

  // A cancelled request's hooks still run to the end: the turn's signal has fired by then.
  kernel.hooks.modelResponse.tapPromise(tap, async ({ session, turn, requestId, outcome }) => {
    await runFor(ctx, session, {
      event: 'PostModelRequest',
      turnId: turn.id,
      requestId,
      fields: { ...requestFields(session.id, requestId), ...outcomeFields(outcome) },
    })
  })
}

function requestFields(threadId: string, requestId: string) {
  return { kind: 'sampling', requestId, attemptNumber: 1, threadId }
}

function outcomeFields(outcome: ModelCallOutcome) {
  switch (outcome.status) {
    case 'completed':
      return {
        status: 'completed',
        error: null,
        tokenUsage: outcome.usage === undefined ? null : tokenUsage(outcome.usage),
        responseId: outcome.responseId ?? null,
      }
    case 'failed':
      return { status: 'failed', error: outcome.error, tokenUsage: null, responseId: null }
    case 'cancelled':
      return { status: 'cancelled', error: null, tokenUsage: null, responseId: null }
  }
}

function tokenUsage({ inputTokens = 0, outputTokens = 0 }: ModelUsage): CodexTokenUsage {
  return {
    input_tokens: inputTokens,
    cached_input_tokens: 0,
    cache_write_input_tokens: 0,
    output_tokens: outputTokens,
    reasoning_output_tokens: 0,
    total_tokens: inputTokens + outputTokens,
  }
}

/** The notice for model-request handlers a driver will never run, or undefined when there are none or it runs them. */
export function modelRequestGap(handlers: readonly CodexHandler[], driver: Driver): string | undefined {
  if (driver.capabilities.points['model/request'] !== undefined) return undefined
  const unrun = handlers.filter(
    (handler) => handler.enabled && (handler.event === 'PreModelRequest' || handler.event === 'PostModelRequest'),
  )
  if (unrun.length === 0) return undefined
  const which = unrun.map((handler) => `${handler.event}: ${handler.command}`).join('; ')
  return `Codex hooks on model requests will not run: the ${driver.id} driver's program makes its model requests itself (${which})`
}
