import type { Session } from '@harness-kernel/kernel'
import { waitUntil } from '@harness-kernel/testing'
import { hookRuns } from './codex-harness.js'

export { pidIn, processAlive, waitForExit, waitForPids, waitUntil } from '@harness-kernel/testing'

/** Waits until the session log holds `count` runs of detached (async) handlers. */
export function waitForAsyncRuns(session: Session, count: number): Promise<ReturnType<typeof hookRuns>> {
  return waitUntil(() => {
    const runs = hookRuns(session.transcriptPath).filter((run) => run.executionMode === 'async')
    return runs.length >= count ? runs : undefined
  }, `${count} async hook runs in the session log`)
}
