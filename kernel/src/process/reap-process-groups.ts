import { hostname } from 'node:os'
import { liveGroupProcesses, signalGroup, waitForGroupExit } from './process-group.js'
import { currentBootId, type ProcessGroupRecord } from './process-ledger.js'

/** What became of one recorded process group when a session was reaped. */
export type ReapOutcome =
  | { kind: 'reaped'; group: ProcessGroupRecord; pids: number[] }
  | { kind: 'gone'; group: ProcessGroupRecord }
  | { kind: 'left'; group: ProcessGroupRecord; reason: string }

/** How long a SIGKILLed group may take to disappear before it is reported as still there. */
const REAP_TIMEOUT_MS = 2000

/**
 * Kills the survivors of process groups a session's previous kernel started and never saw end (its ledger), but only a
 * group that is provably the same one: on this host and this boot, every live member started no earlier than the
 * recorded leader (a group's members are started after it; a pid is not reused while a group still carries its id).
 * Where that cannot be checked (no /proc), the group is left, with the reason.
 */
export async function reapProcessGroups(groups: readonly ProcessGroupRecord[]): Promise<ReapOutcome[]> {
  return Promise.all(groups.map((group) => reapOne(group)))
}

async function reapOne(group: ProcessGroupRecord): Promise<ReapOutcome> {
  if (group.host !== hostname()) return { kind: 'left', group, reason: `it ran on host ${group.host}` }
  const bootId = currentBootId()
  if (group.bootId !== undefined && bootId !== undefined && group.bootId !== bootId) return { kind: 'gone', group }
  const members = await liveGroupProcesses(group.pgid)
  if (members === undefined) {
    if (!signalGroup(group.pgid, 0)) return { kind: 'gone', group }
    return {
      kind: 'left',
      group,
      reason: `no /proc here to check that group ${group.pgid} is still the one started; see \`ps -g ${group.pgid}\``,
    }
  }
  if (members.length === 0) return { kind: 'gone', group }
  if (group.startTicks === undefined || group.bootId === undefined)
    return { kind: 'left', group, reason: `its start was not recorded, so group ${group.pgid} may be another program's now` }
  const older = members.filter((member) => member.startTicks < (group.startTicks as number))
  if (older.length > 0) {
    return { kind: 'left', group, reason: `group ${group.pgid} now holds processes older than the one started (pid ${older[0]?.pid})` }
  }
  signalGroup(group.pgid, 'SIGKILL')
  const pids = members.map((member) => member.pid).sort((a, b) => a - b)
  if (!(await waitForGroupExit(group.pgid, REAP_TIMEOUT_MS)))
    return { kind: 'left', group, reason: `group ${group.pgid} was sent SIGKILL but is still there after ${REAP_TIMEOUT_MS} ms` }
  return { kind: 'reaped', group, pids }
}

/** One line per group that was reaped or left, for a notice or the CLI. */
export function describeReap(outcomes: readonly ReapOutcome[]): string[] {
  return outcomes.flatMap((outcome) => {
    const what = `process group ${outcome.group.pgid} (\`${outcome.group.command}\`, started ${outcome.group.startedAt})`
    if (outcome.kind === 'reaped')
      return [`killed ${what}: ${outcome.pids.length} process${outcome.pids.length === 1 ? '' : 'es'} (pid ${outcome.pids.join(', ')})`]
    if (outcome.kind === 'left') return [`left ${what}: ${outcome.reason}`]
    return []
  })
}
