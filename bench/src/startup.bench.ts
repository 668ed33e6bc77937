import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fmt, type Stats, summarize } from './measure.js'
import type { Section } from './report.js'

const CLI = fileURLToPath(new URL('../../cli/', import.meta.url))
/** What `npx harness` runs in the repository: the workspace's bundle while it is current, else dist/. */
const LINKED_BIN = join(CLI, 'bin', 'harness.js')
const WORKSPACE_BUNDLE = join(CLI, 'dist-bundle')

export interface StartupBenchResult {
  nodeNoop: Stats
  /** The published CLI (its bundle), as `npx harness` runs it in a project without a harness.config. */
  scriptedTurn: Stats
  appServerInitialize: Stats
  /** `npx harness` in the repository (cli/bin/harness.js), just after a build: the workspace's bundle. */
  scriptedTurnWorkspace: Stats
  /** `harness run --config FILE`: the unbundled dist/, which a run with a harness.config loads, and the config. */
  scriptedTurnConfigured: Stats
  turnRatio: number
  workspaceTurnRatio: number
  configuredTurnRatio: number
}

/** Wall-clock ms of one child process run to its exit. */
function timed(args: string[], cwd: string, env: NodeJS.ProcessEnv): number {
  const start = performance.now()
  const run = spawnSync(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] })
  const ms = performance.now() - start
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`)
  return ms
}

/** Whether the workspace's bundle still matches the builds it was made from (cli/bin/harness.js's own check). */
function workspaceBundleCurrent(): boolean {
  try {
    const { sources } = JSON.parse(readFileSync(join(WORKSPACE_BUNDLE, 'sources.json'), 'utf8')) as { sources: [string, number, number][] }
    return sources.every(([path, size, mtimeMs]) => {
      const stat = statSync(join(WORKSPACE_BUNDLE, path), { throwIfNoEntry: false })
      return stat !== undefined && stat.size === size && stat.mtimeMs === mtimeMs
    })
  } catch {
    return false
  }
}

/** From spawning `harness app-server` to the `initialize` result on its stdout. */
function appServerInitialize(harness: string, cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const child = spawn(process.execPath, [harness, 'app-server', '--model', 'scripted:script.json'], {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let err = ''
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8')
    })
    child.once('exit', (code) => {
      if (!out.includes('"id":1')) reject(new Error(`harness app-server exited ${code} before answering initialize: ${err}`))
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8')
      if (!out.includes('"id":1')) return
      const ms = performance.now() - start
      child.stdin.end()
      child.once('exit', () => resolve(ms))
    })
    child.once('error', reject)
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { clientInfo: { name: 'bench', version: '1' } } })}\n`,
    )
  })
}

/**
 * (m) Start-up: `harness run` of one scripted turn as a whole process against `node -e 0` (the published bundle, the
 * repository's `npx harness`, and dist/ as a run with a harness.config loads it), and `harness app-server` from spawn
 * to its `initialize` answer. Alternating runs, so machine drift hits each alike.
 */
export async function startupBench(options: { runs: number; warmup: number }): Promise<Section> {
  const dir = mkdtempSync(join(tmpdir(), 'hk-bench-startup-'))
  const env = { ...process.env, HARNESS_HOME: join(dir, 'home'), CODEX_HOME: join(dir, 'codex'), CLAUDE_CONFIG_DIR: join(dir, 'claude') }
  writeFileSync(join(dir, 'script.json'), JSON.stringify([{ text: 'hello from the scripted model' }]))
  // Not named harness.config.*: only the run that passes it loads it.
  const config = join(dir, 'bench.config.mjs')
  writeFileSync(config, 'export default {}\n')
  // The bundle `npm pack` ships (cli/scripts/bundle.mjs), built beside dist/ so it resolves what it leaves out.
  const bundle = mkdtempSync(join(CLI, '.bundle-bench-'))
  execFileSync(process.execPath, [join(CLI, 'scripts', 'bundle.mjs'), bundle])
  const harness = join(bundle, 'bin.js')
  // The step `npm run build` adds to `tsc -b`: the workspace's bundle, current for the runs below.
  execFileSync(process.execPath, [join(CLI, 'scripts', 'bundle.mjs'), '--workspace'])
  if (!workspaceBundleCurrent()) throw new Error('the workspace bundle is not current after building it: is a build running?')
  const noop: number[] = []
  const turn: number[] = []
  const workspace: number[] = []
  const configured: number[] = []
  const server: number[] = []
  try {
    for (let round = 0; round < options.warmup + options.runs; round++) {
      const a = timed(['-e', '0'], dir, env)
      const b = timed([harness, 'run', '--model', 'scripted:script.json', 'hi'], dir, env)
      const c = await appServerInitialize(harness, dir, env)
      const d = timed([LINKED_BIN, 'run', '--model', 'scripted:script.json', 'hi'], dir, env)
      const e = timed([LINKED_BIN, 'run', '--config', config, '--model', 'scripted:script.json', 'hi'], dir, env)
      if (round < options.warmup) continue
      noop.push(a)
      turn.push(b)
      server.push(c)
      workspace.push(d)
      configured.push(e)
    }
    // A package rebuilt during the runs made cli/bin/harness.js fall back to dist/ for some of them.
    if (!workspaceBundleCurrent()) throw new Error('a package was rebuilt during the runs: the workspace rows mix bundle and dist/')
  } finally {
    rmSync(dir, { recursive: true, force: true })
    rmSync(bundle, { recursive: true, force: true })
  }
  const result: StartupBenchResult = {
    nodeNoop: summarize(noop),
    scriptedTurn: summarize(turn),
    appServerInitialize: summarize(server),
    scriptedTurnWorkspace: summarize(workspace),
    scriptedTurnConfigured: summarize(configured),
    turnRatio: summarize(turn).median / summarize(noop).median,
    workspaceTurnRatio: summarize(workspace).median / summarize(noop).median,
    configuredTurnRatio: summarize(configured).median / summarize(noop).median,
  }
  const row = (name: string, stats: Stats) => [name, fmt(stats.median, 1), fmt(stats.p99, 1), fmt(stats.median / result.nodeNoop.median, 2)]
  return {
    title: '(m) Start-up: a scripted turn through `harness run`, and `harness app-server` to `initialize`',
    head: ['process', 'median ms', 'p99 ms', '× node -e 0'],
    rows: [
      row('`node -e 0`', result.nodeNoop),
      row('`harness run --model scripted:… "hi"` (one turn, whole process; the published bundle)', result.scriptedTurn),
      row('`harness app-server`: spawn → `initialize` answered (bundle)', result.appServerInitialize),
      row(
        'the same turn through `npx harness` in the repository (`cli/bin/harness.js`, after a build: the workspace bundle)',
        result.scriptedTurnWorkspace,
      ),
      row('the same turn with a harness.config (`--config`: `dist/`, and the config)', result.scriptedTurnConfigured),
    ],
    notes: [`${options.runs} runs each (after ${options.warmup}), alternating. Target: a scripted turn ≤ 3× \`node -e 0\`.`],
    data: result,
  }
}
