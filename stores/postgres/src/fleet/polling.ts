/**
 * Runs `task` every `ms` until `stop`: a run still going makes the next one skip, and a failure waits for the next
 * (the database out of reach for now). The timer does not keep the process alive.
 */
export function startPolling(ms: number, task: () => Promise<void>): { stop(): void } {
  let running = false
  const timer = setInterval(() => {
    if (running) return
    running = true
    task()
      .catch(() => undefined)
      .finally(() => {
        running = false
      })
  }, ms)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
