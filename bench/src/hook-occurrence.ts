import { rmSync } from 'node:fs'
import { definePlugin, type Kernel, type Plugin, type Session, type SessionEvent, type ToolCallPayload } from '@harness-kernel/kernel'

/** A kernel with a started session (the dialects load their settings and keep their state per session) and one occurrence's call. */
export interface HookSetup {
  kernel: Kernel
  session: Session
  /** One PreToolUse occurrence: `kernel.hooks.toolPreExecute.promise({ kind: 'allow' }, payload)` for a `shell` call. */
  occurrence: () => Promise<unknown>
}

/** Waits for `kernel`, starts a session and returns the call of one PreToolUse occurrence: `shell` (`Bash` to both dialects) `echo hi`. */
export async function preToolUseSetup(kernel: Kernel): Promise<HookSetup> {
  await kernel.ready
  const session = await kernel.startSession()
  const payload: ToolCallPayload = {
    session,
    turn: { id: 'bench-turn', number: 1 },
    step: 1,
    signal: new AbortController().signal,
    call: { id: 'call_bench', name: 'shell', input: { command: 'echo hi' } },
  }
  const occurrence = () => kernel.hooks.toolPreExecute.promise({ kind: 'allow' }, payload)
  return { kernel, session, occurrence }
}

/** Ends every setup's session, disposes its kernel, then removes `root` (a benchmark's `finally`). */
export async function closeSetups(setups: readonly HookSetup[], root: string): Promise<void> {
  for (const setup of setups) {
    await setup.session.end()
    await setup.kernel.dispose()
  }
  rmSync(root, { recursive: true, force: true })
}

/** Counts what the occurrences write to the session log, and keeps the last `hook/run` record. */
export function logProbe() {
  const counts = new Map<string, number>()
  const last: { hookRun?: SessionEvent } = {}
  const plugin = definePlugin({
    name: 'bench-log-probe',
    setup(kernel) {
      kernel.hooks.sessionEvent.tap('bench-log-probe', ({ event }) => {
        counts.set(event.type, (counts.get(event.type) ?? 0) + 1)
        if (event.type === 'hook/run') last.hookRun = event
      })
    },
  })
  return { plugin, counts, last }
}

/** When one handler ran (ms since the epoch), from its `hook/run` record. */
export interface RunWindow {
  startedAt: number
  completedAt: number
}

/** Counts the `hook/run` records and keeps each one's window, for `take()`. */
export function hookRunProbe(): { plugin: Plugin; runs: () => number; take: () => RunWindow[] } {
  let runs = 0
  let windows: RunWindow[] = []
  const plugin = definePlugin({
    name: 'bench-hook-runs',
    setup(kernel) {
      kernel.hooks.sessionEvent.tap('bench-hook-runs', ({ event }) => {
        if (event.type !== 'hook/run') return
        runs++
        if (event.startedAt !== undefined && event.completedAt !== undefined) {
          windows.push({ startedAt: event.startedAt, completedAt: event.completedAt })
        }
      })
    },
  })
  /** The windows recorded since the last `take()`. */
  const take = () => {
    const taken = windows
    windows = []
    return taken
  }
  return { plugin, runs: () => runs, take }
}
