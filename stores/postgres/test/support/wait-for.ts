/** How long a wait may take before it fails: a bound for a stuck test, never a measure of speed. */
const BOUND_MS = 20_000

/**
 * Asks `probe` again until it gives something other than `undefined` or `false`: for a state with no event of its own
 * to wait on (a row another process writes, a lease running out by the database's clock). A throw counts as "not yet".
 */
export async function waitFor<T>(probe: () => Promise<T | undefined | false>, what: string, boundMs = BOUND_MS): Promise<T> {
  const deadline = Date.now() + boundMs
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
