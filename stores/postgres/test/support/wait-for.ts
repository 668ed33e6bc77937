import { waitUntil } from '@harness-kernel/testing'

/**
 * The testing kit's `waitUntil` with this package's bound (20 s: a stuck test's limit on a loaded machine, never a
 * measure of speed), for a state with no event of its own (a row another process writes, a lease running out).
 */
export function waitFor<T>(probe: () => Promise<T | undefined | false>, what: string, boundMs = 20_000): Promise<T> {
  return waitUntil(probe, what, { boundMs })
}
