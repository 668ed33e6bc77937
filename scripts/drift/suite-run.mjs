// A conformance suite's real-client side run against another binary (`--codex-only`/`--claude-only`, the binary in
// CODEX_BIN/CLAUDE_BIN, which the suite also hands to the shared scripts), and its fresh results read back against the
// saved ones in conformance/<suite>/expected/.
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { REPO_ROOT } from '../../conformance/lib/real-clients.mjs'
import { DriftError } from './drift-error.mjs'
import { diffPayloadKeys } from './payload-keys.mjs'
import { scenarioChanges } from './scenario-changes.mjs'

export const SUITES = {
  codex: { client: 'Codex', dir: 'codex', side: 'codex', onlyFlag: '--codex-only', binVar: 'CODEX_BIN' },
  'claude-code': { client: 'Claude Code', dir: 'claude-code', side: 'claude', onlyFlag: '--claude-only', binVar: 'CLAUDE_BIN' },
}

/**
 * Runs the suite's real side with `bin` into `out`; its progress goes to stderr. Resolves when results were written
 * (whatever the suite's exit code: a failed or unexpected run is drift too).
 */
export function runRealSide(suite, { bin, out, jobs }) {
  const script = join(REPO_ROOT, 'conformance', suite.dir, 'run.mjs')
  const args = [script, suite.onlyFlag, '--jobs', String(jobs), '--out', out]
  process.stderr.write(`drift: ${suite.client} suite: node ${args.join(' ')} (${suite.binVar}=${bin})\n`)
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, [suite.binVar]: bin },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let stdout = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.on('error', (error) => reject(new DriftError(`the ${suite.client} suite could not start: ${error.message}`)))
    child.on('close', (code) => {
      if (stdout.startsWith('skipped:')) return reject(new DriftError(`the ${suite.client} suite did not run: ${stdout.split('\n')[0]}`))
      const results = join(out, 'results')
      if (!existsSync(results) || readdirSync(results).length === 0)
        return reject(
          new DriftError(`the ${suite.client} suite wrote no results (exit ${code}): ${stdout.trim().split('\n').slice(-3).join(' / ')}`),
        )
      resolve({ code, report: join(out, 'report.md') })
    })
  })
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'))

/** `payload ×3, requests ×1`: the areas of the suite's own comparison of the saved result with the fresh one. */
const areaCounts = (mismatches) => {
  const counts = new Map()
  for (const m of mismatches) counts.set(m.area, (counts.get(m.area) ?? 0) + 1)
  return [...counts].map(([area, n]) => `${area} ×${n}`)
}

/**
 * Each scenario's fresh result (`<out>/results/<name>.<side>.json`) against its saved one.
 * @returns {Promise<import('./report.mjs').ScenarioDrift[]>}
 */
export async function readScenarioDrift(suite, out) {
  const { compareResults } = await import(pathToFileURL(join(REPO_ROOT, 'conformance', suite.dir, 'lib', 'compare.mjs')).href)
  const suffix = `.${suite.side}.json`
  const files = readdirSync(join(out, 'results'))
    .filter((name) => name.endsWith(suffix))
    .sort()
  return files.map((file) => {
    const actual = readJson(join(out, 'results', file))
    const name = file.slice(0, -suffix.length)
    const savedFile = join(REPO_ROOT, 'conformance', suite.dir, 'expected', `${name}.json`)
    const base = { name, saved: existsSync(savedFile), keys: [], changes: {}, other: [] }
    if (actual.error) return { ...base, error: actual.error }
    if (actual.skipped) return { ...base, skipped: actual.skipped }
    if (!base.saved) return base
    const expected = readJson(savedFile)
    return {
      ...base,
      keys: diffPayloadKeys(expected, actual),
      changes: scenarioChanges(expected, actual),
      other: areaCounts(compareResults(expected, { ...actual, error: undefined })),
    }
  })
}
