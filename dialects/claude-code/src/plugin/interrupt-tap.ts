import type { InterruptOrigin, KernelApi } from '@harness-kernel/kernel'
import { PLUGIN_NAME } from '../render/hook-text.js'
import { detach } from './observer-taps.js'
import { runFor, stateOf, type TapContext } from './tap-context.js'

/**
 * Interrupt, as Claude Code 2.1.336 runs it (observed through the Agent SDK; see the README): once when an interrupt
 * ends a turn of the main session, never for a subagent's turn (its interrupt is the main turn's), matched on
 * `source`. Claude Code runs it detached after the turn's result, and the next turn does not wait for it; the
 * session's end waits for it within the SessionEnd budget, then kills it. Its output is ignored.
 */
export function tapInterruptEvent(kernel: KernelApi, ctx: TapContext): void {
  kernel.hooks.interrupt.tap(PLUGIN_NAME, ({ session, turn, origin }) => {
    const state = stateOf(ctx, session)
    if (!state || session.parent !== undefined) return
    const fields = interruptFields(origin)
    detach(session, state, () =>
      runFor(ctx, session, { event: 'Interrupt', turnId: turn?.id, subject: fields.source, fields, detached: true }),
    )
  })
}

/**
 * Claude Code's `source`, `reason` and `via` for an interrupt the kernel was told about. A caller that says nothing is
 * a host's program asking to stop, which Claude Code reports as an SDK program's `interrupt()`: a user's, via a client.
 * The harness stopping a turn itself (a PermissionRequest hook's `interrupt`) is `system`, with no `via`.
 */
function interruptFields(origin: InterruptOrigin | undefined): { source: string; reason: string; via?: string } {
  const source = origin?.by ?? 'user'
  const reason = origin?.cause === 'permission-denied' ? 'permission_denied' : 'stop'
  const via = origin?.via ?? (source === 'user' ? 'client' : undefined)
  return via === undefined ? { source, reason } : { source, reason, via }
}
