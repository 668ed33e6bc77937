import type { Session } from './session-types.js'

/** The main session a subagent's session descends from (the session itself when it is not a subagent's). */
export function rootSession(session: Session): Session {
  let at = session
  while (at.parent !== undefined) at = at.parent.session
  return at
}
