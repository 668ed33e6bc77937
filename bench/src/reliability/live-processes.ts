import { readdir, readFile } from 'node:fs/promises'

export interface LiveProcess {
  pid: number
  command: string
}

/**
 * Processes still running (zombies are not: they are dead and only wait for a parent to reap them) whose argv or
 * environment contains `marker`, read from /proc.
 */
export async function liveProcessesWithMarker(marker: string): Promise<LiveProcess[]> {
  const found: LiveProcess[] = []
  const entries = await readdir('/proc')
  await Promise.all(
    entries.map(async (entry) => {
      if (!/^\d+$/.test(entry)) return
      const pid = Number(entry)
      if (pid === process.pid) return
      const [stat, cmdline, environ] = await Promise.all([
        readProcFile(pid, 'stat'),
        readProcFile(pid, 'cmdline'),
        readProcFile(pid, 'environ'),
      ])
      if (stat === undefined || stateOf(stat) === 'Z') return
      if (cmdline?.includes(marker) || environ?.includes(marker)) found.push({ pid, command: (cmdline ?? '').replaceAll('\0', ' ').trim() })
    }),
  )
  return found.sort((a, b) => a.pid - b.pid)
}

async function readProcFile(pid: number, name: string): Promise<string | undefined> {
  try {
    return await readFile(`/proc/${pid}/${name}`, 'utf8')
  } catch {
    // Gone meanwhile, or not ours to read.
    return undefined
  }
}

/** The state letter of /proc/<pid>/stat; the command name before it is parenthesised and may contain ') '. */
function stateOf(stat: string): string {
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)
}
