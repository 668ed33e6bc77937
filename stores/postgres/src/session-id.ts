import { KernelError } from '@harness-kernel/kernel'

/** The ids the JSONL store accepts, so a session can move between stores under the same id. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

export function assertSessionId(sessionId: string): void {
  if (!SESSION_ID.test(sessionId)) throw new KernelError(`invalid session id "${sessionId}": use letters, digits, '.', '_' and '-'`)
}
