import type { SessionEvent, SessionEventBody, SessionLog } from '@harness-kernel/kernel'
import type { PostgresServer } from '@harness-kernel/testing/postgres'

/**
 * Appends (and asks for syncs) all the while the server restarts (`immediate`), then at least 50 events: some batches
 * die with their connection, others are refused one. Resolves once the restart is over and every sync has settled.
 */
export async function appendThroughRestart(
  server: PostgresServer,
  log: SessionLog,
  note: (text: string) => SessionEventBody,
): Promise<SessionEvent[]> {
  let restarting = true
  const restart = server.restart({ mode: 'immediate' }).finally(() => {
    restarting = false
  })
  const appended: SessionEvent[] = []
  const syncs: Promise<void>[] = []
  for (let index = 0; restarting || index < 50; index++) {
    appended.push(log.append(note(`during ${index}`)))
    syncs.push(log.sync())
    // Paces the traffic (a few hundred events during the restart); nothing waits on time passing.
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  await restart
  await Promise.all(syncs)
  return appended
}
