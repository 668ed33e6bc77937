import { readFileSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'

/** Sends `signal` to every process in the group led by `pgid`; false when the group is already empty. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal)
    return true
  } catch {
    return false
  }
}

/** The longest pause between two looks at a group that is still there. */
const MAX_POLL_MS = 100

/**
 * Polls until no process of the group is still running, or `timeoutMs` passed; true when none is.
 * Zombies count as gone: orphans are reaped by init, which may take its time. A group with no process at all is
 * seen with one `kill(-pgid, 0)`; only one that still has some is looked up in /proc (to tell zombies apart), at
 * pauses doubling from `intervalMs`, so many groups waited on at once do not each read /proc every few ms.
 */
export async function waitForGroupExit(pgid: number, timeoutMs: number, intervalMs = 5): Promise<boolean> {
  const deadline = performance.now() + timeoutMs
  let pause = intervalMs
  for (;;) {
    if (!signalGroup(pgid, 0)) return true
    const live = await liveGroupMembers(pgid)
    if (live !== undefined && live.length === 0) return true
    if (performance.now() >= deadline) return false
    await new Promise((resolve) => setTimeout(resolve, pause))
    pause = Math.min(pause * 2, MAX_POLL_MS)
  }
}

/** Pids of the group's processes that are not zombies, from /proc; undefined where /proc is not available. */
export async function liveGroupMembers(pgid: number): Promise<number[] | undefined> {
  return (await liveGroupProcesses(pgid))?.map((member) => member.pid)
}

/** A live process of a group, with its start as clock ticks since boot (`/proc/<pid>/stat` field 22). */
export interface GroupMember {
  pid: number
  startTicks: number
}

/** The group's processes that are not zombies, from /proc; undefined where /proc is not available. */
export async function liveGroupProcesses(pgid: number): Promise<GroupMember[] | undefined> {
  let entries: string[]
  try {
    entries = await readdir('/proc')
  } catch {
    return undefined
  }
  const live: GroupMember[] = []
  await Promise.all(
    entries.map(async (entry) => {
      if (!/^\d+$/.test(entry)) return
      const stat = await readProcStat(Number(entry))
      if (stat !== undefined && stat.pgid === pgid && stat.state !== 'Z') live.push({ pid: Number(entry), startTicks: stat.startTicks })
    }),
  )
  return live
}

async function readProcStat(pid: number): Promise<ProcStat | undefined> {
  try {
    return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return undefined
  }
}

export interface ProcStat {
  state: string
  pgid: number
  /** When the process started, clock ticks since boot. */
  startTicks: number
}

/** The fields of a `/proc/<pid>/stat` line this package reads. */
export function parseProcStat(text: string): ProcStat {
  // The command name is parenthesised and may itself contain ') ', so split after the last one; what follows starts at
  // field 3 (state), so field N is at index N - 3.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return { state: fields[0] ?? '', pgid: Number(fields[2]), startTicks: Number(fields[19]) }
}

/** Linux: when `pid` started, clock ticks since boot (`/proc/<pid>/stat` field 22); undefined elsewhere or once it is gone. */
export function startTicksOf(pid: number): number | undefined {
  try {
    const ticks = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).startTicks
    return Number.isFinite(ticks) ? ticks : undefined
  } catch {
    return undefined
  }
}
