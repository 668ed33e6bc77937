import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SessionEvent } from '@harness-kernel/kernel'
import { commandGroup, hookKernel } from './hook-kernel.js'
import { type LiveProcess, liveProcessesWithMarker } from './live-processes.js'

/**
 * How a hanging hook hangs: in the foreground, with a background child also hanging, or ignoring SIGTERM (the runner
 * then needs its SIGKILL after the grace period; `trap ''` is inherited, so the background child ignores it too).
 */
const HANGS = ['sleep 1000', 'sleep 1000 & sleep 1000', "trap '' TERM; sleep 1000 & sleep 1000"] as const

export interface HangingHooksResult {
  hooks: number
  /** Hooks that wrote their pid file, i.e. that were started. */
  started: number
  /** `hook/run` records of a timed-out run. */
  timedOut: number
  turnStatus: string
  /** The most marked processes seen alive at once while the turn ran (shows the /proc scan finds them). */
  peakAlive: number
  /** Marked processes alive once the turn has ended: there must be none. */
  orphans: LiveProcess[]
  durationMs: number
}

/**
 * One turn whose shell call has `hooks` PreToolUse handlers that hang, half Codex and half Claude Code, each with a
 * 1 s timeout. Every process a hook starts carries `marker` in its environment, so the ones left alive can be found
 * in /proc.
 */
export async function runHangingHooks(options: { hooks: number; marker: string }): Promise<HangingHooksResult> {
  const started = performance.now()
  const pidDir = mkdtempSync(join(tmpdir(), 'hk-reliability-pids-'))
  const commands = (dialect: string, count: number) =>
    Array.from({ length: count }, (_, index) => {
      const tag = `${dialect}-${index}`
      return `echo $$ > "${pidDir}/${tag}.pid"; export HK_RELIABILITY_MARK=${options.marker}-${tag}; ${HANGS[index % HANGS.length]}`
    })
  const codexCount = Math.ceil(options.hooks / 2)
  const h = hookKernel({
    model: [{ tool_calls: [{ name: 'shell', input: { command: 'true' } }] }, { text: 'done' }],
    codex: { PreToolUse: commandGroup(commands('codex', codexCount), { timeout: 1 }) },
    claudeCode: { PreToolUse: commandGroup(commands('claude', options.hooks - codexCount), { timeout: 1 }) },
  })
  let peakAlive = 0
  let watching = true
  const watcher = (async () => {
    while (watching) {
      peakAlive = Math.max(peakAlive, (await liveProcessesWithMarker(options.marker)).length)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
  try {
    const session = await h.kernel.startSession()
    const turn = await session.run('go')
    watching = false
    await watcher
    const orphans = await liveProcessesWithMarker(options.marker)
    const log = readFileSync(session.transcriptPath, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as SessionEvent)
    await session.end()
    return {
      hooks: options.hooks,
      started: readdirSync(pidDir).filter((name) => name.endsWith('.pid')).length,
      timedOut: log.filter((event) => event.type === 'hook/run' && isTimedOut(event)).length,
      turnStatus: turn.status,
      peakAlive,
      orphans,
      durationMs: performance.now() - started,
    }
  } finally {
    watching = false
    await watcher
    await h.dispose()
    rmSync(pidDir, { recursive: true, force: true })
  }
}

function isTimedOut(event: SessionEvent & { type: 'hook/run' }): boolean {
  return event.timedOut === true || JSON.stringify(event).includes('timed out')
}
