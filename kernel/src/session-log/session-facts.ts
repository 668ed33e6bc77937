import type { SessionEvent } from '../session-events.js'
import type { SessionSummary } from '../session-store.js'

/** What a session's events say of it: the fields of `SessionSummary` a store derives from the log itself. */
export type SessionFacts = Pick<
  SessionSummary,
  'cwd' | 'createdAt' | 'updatedAt' | 'turns' | 'ended' | 'firstPrompt' | 'forkedFrom' | 'parent'
>

export const NO_SESSION_FACTS: Readonly<SessionFacts> = {
  cwd: undefined,
  createdAt: undefined,
  updatedAt: undefined,
  turns: 0,
  ended: false,
  firstPrompt: undefined,
  forkedFrom: undefined,
  parent: undefined,
}

/**
 * The facts after `events`, from `facts` before them: every store summarizes a log the same way, whether it reads the
 * whole log (a file) or keeps the facts up to date as it writes (a database).
 */
export function foldSessionEvents(facts: Readonly<SessionFacts>, events: readonly SessionEvent[]): SessionFacts {
  const next = { ...facts }
  for (const event of events) {
    next.updatedAt = event.at
    if (event.type === 'session/start') {
      next.cwd = event.cwd
      next.createdAt = event.createdAt
      next.forkedFrom = event.forkedFrom?.sessionId
      if (event.parent)
        next.parent = { sessionId: event.parent.sessionId, agentId: event.parent.agentId, agentType: event.parent.agentType }
    } else if (event.type === 'turn/start') next.turns++
    else if (event.type === 'session/end') next.ended = true
    else if (event.type === 'message' && next.firstPrompt === undefined && event.message.role === 'user') {
      const block = event.message.content.find((part) => part.type === 'text')
      if (block?.type === 'text') next.firstPrompt = block.text
    }
  }
  return next
}
