import { readFileSync } from 'node:fs'
import { waitUntil } from './wait-until.js'

/** A live process: it exists and is not a zombie waiting to be reaped (Linux: reads /proc). */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** The pid in a file written whole (`echo $$ > f.tmp; mv f.tmp f`), or undefined while it is not there. */
export function pidIn(path: string): number | undefined {
  const text = readFileSync(path, 'utf8')
  return /^\d+\n$/.test(text) ? Number(text) : undefined
}

/** Waits for the pids written to these files (see `pidIn`) and returns them. */
export function waitForPids(...paths: string[]): Promise<number[]> {
  return waitUntil(
    () => {
      const pids = paths.map(pidIn)
      return pids.every((pid) => pid !== undefined) ? (pids as number[]) : undefined
    },
    `pids in ${paths.join(', ')}`,
  )
}

/** Waits until every one of these processes has exited. */
export async function waitForExit(pids: readonly number[], what: string): Promise<void> {
  await waitUntil(() => !pids.some(processAlive), `${what} to exit`)
}

/**
 * Shell text (sh or bash) that loops until the process whose pid is in `pidFile` has exited and been reaped: a hook
 * that runs it finishes after that one.
 */
export function untilExited(pidFile: string): string {
  return `until [ -s "${pidFile}" ] && ! kill -0 "$(cat "${pidFile}")" 2>/dev/null; do sleep 0.02; done`
}
