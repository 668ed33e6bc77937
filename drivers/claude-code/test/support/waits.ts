/**
 * Polls `condition` until it holds; fails after `boundMs`, a bound for a stuck test, never a measure of speed. 60 s
 * by default: a real Claude Code or Codex starts and answers slowly on a loaded machine.
 */
export async function waitUntil(condition: () => boolean, what: string, boundMs = 60_000): Promise<void> {
  const deadline = Date.now() + boundMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
