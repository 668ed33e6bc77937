import { randomUUID } from 'node:crypto'
import { type KernelApi, type Session, textOf } from '@harness-kernel/kernel'
import { PLUGIN_NAME } from '../render/hook-text.js'
import type { ClaudeSessionState } from './session-state.js'
import { runFor, type TapContext } from './tap-context.js'

/**
 * Detached observers on `session/event`: MessageDisplay for each assistant text, StopFailure when a turn fails.
 * Their runs are recorded; they never change the log's messages or the loop.
 */
export function tapObserverEvents(kernel: KernelApi, ctx: TapContext): void {
  kernel.hooks.sessionEvent.tap(`${PLUGIN_NAME}:observers`, ({ session, event }) => {
    const state = ctx.states.get(session)
    if (!state) return
    if (event.type === 'message' && event.message.role === 'assistant') {
      const text = textOf(event.message)
      if (text === '') return
      detach(session, state, () =>
        runFor(ctx, session, {
          event: 'MessageDisplay',
          turnId: event.turnId,
          fields: { turn_id: event.turnId, message_id: randomUUID(), index: 0, final: true, delta: text },
          detached: true,
        }),
      )
    }
    if (event.type === 'turn/end' && event.status === 'failed') {
      const last = session.messages.findLast((message) => message.role === 'assistant')
      detach(session, state, () =>
        runFor(ctx, session, {
          event: 'StopFailure',
          turnId: event.turnId,
          subject: errorType(event.error),
          fields: { error: errorType(event.error), error_details: event.error ?? '', last_assistant_message: last ? textOf(last) : '' },
          detached: true,
        }),
      )
    }
  })
}

/** Not awaited: the loop goes on while the observer's handlers run; the session's end waits for them. */
export function detach(session: Session, state: ClaudeSessionState, run: () => Promise<unknown>): void {
  state.track(
    run().catch((error: unknown) => {
      try {
        session.notice('warning', `observer hook failed: ${error instanceof Error ? error.message : String(error)}`, PLUGIN_NAME)
      } catch {
        // the session already ended
      }
    }),
  )
}

/** Claude Code's error types for StopFailure's matcher, read from the kernel's failure text. */
function errorType(error: string | undefined): string {
  const text = error ?? ''
  if (/\b429\b|rate.?limit/i.test(text)) return 'rate_limit'
  if (/\b40[13]\b|authenticat|api key/i.test(text)) return 'authentication_failed'
  if (/\b5\d\d\b|overloaded|server error/i.test(text)) return 'server_error'
  if (/max.?tokens|context.?(window|length)/i.test(text)) return 'max_output_tokens'
  return 'unknown'
}
