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

/**
 * Polls until no process of the group is still running, or `timeoutMs` passed; true when none is.
 * Zombies count as gone: orphans are reaped by init, which may take its time.
 */
export async function waitForGroupExit(pgid: number, timeoutMs: number, intervalMs = 5): Promise<boolean> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const live = await liveGroupMembers(pgid)
    if (live === undefined ? !signalGroup(pgid, 0) : live.length === 0) return true
    if (performance.now() >= deadline) return false
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/** Pids of the group's processes that are not zombies, from /proc; undefined where /proc is not available. */
export async function liveGroupMembers(pgid: number): Promise<number[] | undefined> {
  let entries: string[]
  try {
    entries = await readdir('/proc')
  } catch {
    return undefined
  }
  const live: number[] = []
  await Promise.all(
    entries.map(async (entry) => {
      if (!/^\d+$/.test(entry)) return
      const stat = await readProcStat(Number(entry))
      if (stat !== undefined && stat.pgid === pgid && stat.state !== 'Z') live.push(Number(entry))
    }),
  )
  return live
}

async function readProcStat(pid: number): Promise<{ state: string; pgid: number } | undefined> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8')
    // The command name is parenthesised and may itself contain ') ', so split after the last one.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { state: fields[0] ?? '', pgid: Number(fields[2]) }
  } catch {
    return undefined
  }
}
