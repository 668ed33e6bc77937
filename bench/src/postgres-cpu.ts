import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100

/** Fields of `/proc/<pid>/stat` after the command's closing parenthesis (index 0 is field 3, the state). */
function statFields(pid: string): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return text.slice(text.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

function postmasterPid(dataDir: string): string | undefined {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
      if (args[args.indexOf('-D') + 1] === dataDir && /postgres$/.test(args[0] ?? '')) return pid
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined
}

/**
 * CPU time (user + system, ms) the PostgreSQL server of `dataDir` has used so far: the postmaster, its live children
 * (backends, WAL writer, checkpointer…) and the children it has reaped. Linux only; undefined elsewhere. Read before and
 * after a run, it says how much of the machine's two cores the database took.
 */
export function postgresCpuMs(dataDir: string): number | undefined {
  const postmaster = postmasterPid(dataDir)
  if (postmaster === undefined) return undefined
  let ticks = 0
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const fields = statFields(pid)
    if (fields === undefined || (pid !== postmaster && fields[1] !== postmaster)) continue
    // utime, stime (fields 14, 15); for the postmaster also cutime, cstime (16, 17): backends that have exited.
    ticks += Number(fields[11]) + Number(fields[12])
    if (pid === postmaster) ticks += Number(fields[13]) + Number(fields[14])
  }
  return (ticks / TICKS_PER_SECOND) * 1000
}
