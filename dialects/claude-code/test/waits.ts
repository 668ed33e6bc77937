import { readFileSync } from 'node:fs'

/** How long a wait may take before the test fails: a bound for a stuck test, never a measure of speed. */
export const WAIT_BOUND_MS = 10_000

/** Polls `probe` until it returns something other than `undefined` or `false` (a throw counts as "not yet"). */
export async function waitUntil<T>(probe: () => T | undefined | false, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_BOUND_MS
  for (;;) {
    try {
      const value = probe()
      if (value !== undefined && value !== false) return value
    } catch {
      // not there yet
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A live process: it exists and is not a zombie waiting to be reaped. */
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
 * Shell text (sh or bash) that loops until the process whose pid is in `pidFile` has exited and been reaped: the
 * hook that runs it finishes after that one.
 */
export function untilExited(pidFile: string): string {
  return `until [ -s "${pidFile}" ] && ! kill -0 "$(cat "${pidFile}")" 2>/dev/null; do sleep 0.02; done`
}
