/** How long a wait may take before it fails, by default: a bound for a stuck test, never a measure of speed. */
export const WAIT_BOUND_MS = 10_000

export interface WaitUntilOptions {
  /** How long before the wait fails. Default `WAIT_BOUND_MS`. */
  boundMs?: number
}

/**
 * Checks `probe` until it returns something other than `undefined` or `false`, and resolves with that value. For a
 * state that has no event of its own to wait on (a file another process writes, a process that exits, a row in a
 * database); the probe may be async; a throw (or a rejection) counts as "not yet", and the last one is named if the wait gives up.
 */
export async function waitUntil<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  options: WaitUntilOptions = {},
): Promise<T> {
  const deadline = Date.now() + (options.boundMs ?? WAIT_BOUND_MS)
  let lastError: unknown
  for (;;) {
    try {
      const value = await probe()
      if (value !== undefined && value !== false) return value
    } catch (error) {
      lastError = error
    }
    if (Date.now() > deadline) {
      const cause = lastError === undefined ? '' : ` (last: ${lastError instanceof Error ? lastError.message : String(lastError)})`
      throw new Error(`gave up waiting for ${what}${cause}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
