import { KernelError, type SessionEvent } from '@harness-kernel/kernel'

/** Events a fork does not copy: the source's own lifecycle, and drivers' native session ids. */
const NOT_FORKED = new Set<SessionEvent['type']>(['session/start', 'session/resume', 'session/end', 'driver/session'])

/**
 * The log of a fork of `sessionId` (its `events`) as the JSONL store writes it: a new `session/start` with
 * `forkedFrom`, then the events up to the end of `throughTurnId` (all of them without one), renumbered, their times kept.
 */
export function forkedEvents(
  events: readonly SessionEvent[],
  sessionId: string,
  forkId: string,
  throughTurnId: string | undefined,
  at: string,
): SessionEvent[] {
  const start = events.find((event) => event.type === 'session/start')
  if (start?.type !== 'session/start') throw new KernelError(`session ${sessionId} has no session/start event to fork from`)
  let copied = events
  if (throughTurnId !== undefined) {
    const end = events.findIndex((event) => event.type === 'turn/end' && event.turnId === throughTurnId)
    if (end < 0) {
      const open = events.some((event) => event.type === 'turn/start' && event.turnId === throughTurnId)
      throw new KernelError(
        open ? `turn ${throughTurnId} of session ${sessionId} has not ended` : `session ${sessionId} has no turn ${throughTurnId}`,
      )
    }
    copied = events.slice(0, end + 1)
  }
  const forkedFrom = { sessionId, ...(throughTurnId === undefined ? {} : { turnId: throughTurnId }) }
  const lines: SessionEvent[] = [{ v: 1, seq: 1, at, type: 'session/start', sessionId: forkId, cwd: start.cwd, createdAt: at, forkedFrom }]
  for (const event of copied) if (!NOT_FORKED.has(event.type)) lines.push({ ...event, seq: lines.length + 1 })
  return lines
}
