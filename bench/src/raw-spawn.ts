import { spawn } from 'node:child_process'
import { fmt, gc, now, type Stats, since, summarize } from './measure.js'

/**
 * Raw `spawn(shell, ['-c', …])` baselines, without the kernel's runner or a dialect: what the machine gives for the
 * processes a hook runs. `shell` is the dialect's (`/bin/bash` for Codex, `/bin/sh` for Claude Code).
 */

/** One raw spawn of `<shell> -c <command>`, to `close`. */
export const rawSpawn =
  (shell: string, command = 'true') =>
  (): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const child = spawn(shell, ['-c', command])
      child.once('error', reject)
      child.once('close', resolve)
    })

/** What a raw spawn is given when it does what the runner does around the process. */
export interface RunnerLikeOptions {
  cwd: string
  /** Over a copy of ours. */
  env?: Record<string, string | undefined> | undefined
  stdin: string
}

/** A raw spawn doing what the runner does around the process: own group, the env copied, the payload written, both streams read. */
export const rawSpawnLikeRunner = (shell: string, options: RunnerLikeOptions) => (): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const child = spawn(shell, ['-c', 'true'], { cwd: options.cwd, env: { ...process.env, ...options.env }, detached: true })
    child.once('error', reject)
    child.stdin.on('error', () => {})
    child.stdout.on('data', () => {})
    child.stderr.on('data', () => {})
    child.stdin.end(options.stdin)
    child.once('close', resolve)
  })

/** `count` raw spawns of `<shell> -c <command>` at once, all awaited: what the machine gives without the dialect. */
export const rawParallel = (shell: string, command: string, count: number) => () =>
  Promise.all(Array.from({ length: count }, () => rawSpawn(shell, command)()))

export interface SpawnCost {
  rss: number
  /** The whole raw spawn, to `close`. */
  wallMs: Stats
  /** The synchronous `spawn()` call alone: fork + exec, with the main thread blocked. */
  spawnCallMs: Stats
}

export interface SpawnCostByRss {
  before: SpawnCost
  after: SpawnCost
}

/** How `forkCostByRss` measures: raw spawns timed, then again with this much more resident memory. */
const FORK_COST = { calls: 100, ballastMb: 100 }

/** Raw spawns timed as they are, then with `ballastMb` MB more resident memory: what fork costs grows with the parent. */
export async function spawnCostByRss(shell: string, calls: number, ballastMb: number): Promise<SpawnCostByRss> {
  const measure = async (): Promise<SpawnCost> => {
    const wall: number[] = []
    const spawnCall: number[] = []
    for (let i = 0; i < calls + 10; i++) {
      const start = now()
      await new Promise((resolve, reject) => {
        const child = spawn(shell, ['-c', 'true'])
        if (i >= 10) spawnCall.push(since(start) / 1e6)
        child.once('error', reject)
        child.once('close', resolve)
      })
      if (i >= 10) wall.push(since(start) / 1e6)
    }
    return { rss: process.memoryUsage().rss, wallMs: summarize(wall), spawnCallMs: summarize(spawnCall) }
  }
  gc()
  const before = await measure()
  // Filled, so the pages are really resident.
  const ballast = Array.from({ length: ballastMb }, () => Buffer.alloc(2 ** 20, 1))
  const after = await measure()
  ballast.length = 0
  gc()
  return { before, after }
}

/** `spawnCostByRss` as the hook overhead benchmarks run it: 100 spawns, then 100 MB more resident. */
export const forkCostByRss = (shell: string): Promise<SpawnCostByRss> => spawnCostByRss(shell, FORK_COST.calls, FORK_COST.ballastMb)

/** The report note on `forkCostByRss`. */
export function forkCostNote(byRss: SpawnCostByRss): string {
  const cost = (at: SpawnCost) =>
    `${fmt(at.wallMs.median, 2)} ms, of which the \`spawn()\` call (fork + exec, main thread blocked) ${fmt(at.spawnCallMs.median, 2)} ms, ` +
    `at RSS ${fmt(at.rss / 2 ** 20)} MB`
  return (
    `Fork cost grows with the parent's memory: a raw spawn (median of ${FORK_COST.calls}, separately) took ${cost(byRss.before)}; ` +
    `with ${FORK_COST.ballastMb} MB more resident: ${cost(byRss.after)}.`
  )
}
