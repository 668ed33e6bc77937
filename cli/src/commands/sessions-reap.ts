import { describeReap, type ReapOutcome, reapProcessGroups, type SessionLock, type SessionStore } from '@harness-kernel/kernel'
import { EXIT } from '../exit-codes.js'
import { type CliIo, writeJson } from '../io.js'
import { resolveSessionId } from '../session-id.js'

/** One session's reap: what became of each group its crashed kernel left, or why it was not looked at. */
interface SessionReap {
  sessionId: string
  outcomes: ReapOutcome[]
  /** Set when the session is open in a live process: its processes are that kernel's own. */
  skipped?: string
}

/**
 * `harness sessions reap [id]`: for each session (or the one given) that no live kernel holds, kills what a crashed
 * kernel of it left running, as a resume would. A session a live process holds is left alone.
 */
export async function reapSessions(
  given: string | undefined,
  options: { json?: boolean },
  io: CliIo,
  store: SessionStore,
  sessionsDir: string,
): Promise<number> {
  const ids = given === undefined ? (await store.list()).map((summary) => summary.id) : [await resolveSessionId(store, given, sessionsDir)]
  const reaps: SessionReap[] = []
  for (const sessionId of ids) {
    let lock: SessionLock
    try {
      lock = await store.lock(sessionId)
    } catch (error) {
      if (given !== undefined) reaps.push({ sessionId, outcomes: [], skipped: (error as Error).message })
      continue
    }
    try {
      const ledger = store.processLedger(sessionId)
      const groups = await ledger.unfinished()
      if (groups.length === 0) continue
      reaps.push({ sessionId, outcomes: await reapProcessGroups(groups) })
      await ledger.clear()
    } finally {
      await lock.release()
    }
  }
  if (options.json) {
    writeJson(io.stdout, reaps)
    return EXIT.ok
  }
  const lines = reaps.flatMap((reap) =>
    reap.skipped !== undefined
      ? [`${reap.sessionId}: not reaped: ${reap.skipped}`]
      : describeReap(reap.outcomes).map((line) => `${reap.sessionId}: ${line}`),
  )
  io.stdout.write(lines.length === 0 ? `nothing left running by a crashed kernel in ${sessionsDir}\n` : `${lines.join('\n')}\n`)
  return EXIT.ok
}
