#!/usr/bin/env node
// Differential conformance suite: every scenario in scenarios/ runs through the real Codex CLI
// (shared/real-clients/codex/run-case.sh) and through our kernel with @harness-kernel/codex; the
// normalized hook payloads and model-visible request deltas are compared. See README.md.
//
// Usage: node conformance/codex/run.mjs [options] [scenario-filter ...]
//   --saved        do not run Codex: compare the kernel with the saved results in expected/
//   --record       write the fresh Codex results to expected/ (commit them)
//   --build        run `tsc -b` first (what `npm run conformance:codex` does); if it fails, the
//                  kernel side is reported unavailable and the Codex side still runs
//   --codex-only   run only the Codex side (and print what it did)
//   --verbose      print what real Codex did for every scenario
//   --out DIR      keep all run directories under DIR (default: a fresh temp directory)
//   --jobs N       scenarios run in parallel per side (default 3)
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runCodexScenario } from './lib/codex-runner.mjs'
import { checkExpectations, compareResults } from './lib/compare.mjs'
import { EXPECTED_DIR, makeTempRoot, probeCodex, REPO_ROOT } from './lib/env.mjs'
import { probeKernel, runKernelScenario } from './lib/kernel-runner.mjs'
import { renderReport } from './lib/report.mjs'
import { loadScenarios } from './lib/scenarios.mjs'

const argv = process.argv.slice(2)
const flag = (name) => argv.includes(name)
const option = (name) => {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : undefined
}
const valued = new Set(['--out', '--jobs'])
const filters = argv.filter((a, i) => !a.startsWith('--') && !valued.has(argv[i - 1]))
const saved = flag('--saved')
const codexOnly = flag('--codex-only')
const jobs = Math.max(1, Number(option('--jobs') ?? 3))

const scenarios = await loadScenarios(filters)
if (scenarios.length === 0) {
  console.log(`no scenario matches ${filters.join(' ')}`)
  process.exit(1)
}

const header = []
let codexProbe
if (!saved) {
  codexProbe = probeCodex()
  if (!codexProbe.ok) {
    console.log(`skipped: real Codex not installed (run shared/real-clients/install.sh) [${codexProbe.reason}]`)
    console.log('(`node conformance/codex/run.mjs --saved` compares the kernel with the saved Codex results instead)')
    process.exit(0)
  }
  header.push(`real Codex: ${codexProbe.version} (${codexProbe.bin})${codexProbe.warning ? ` WARNING: ${codexProbe.warning}` : ''}`)
} else {
  header.push(`real Codex: not run; saved results from conformance/codex/expected/`)
}
const root = option('--out') ?? makeTempRoot('codex-conformance-')
mkdirSync(join(root, 'results'), { recursive: true })
header.push(`run directories and normalized results: ${root}`)

/** `tsc -b` in the repository; undefined when it succeeds, else a kernel-unavailable probe result. */
function buildRepo() {
  return new Promise((resolve) => {
    process.stderr.write('build:  tsc -b …\n')
    const child = spawn(join(REPO_ROOT, 'node_modules', '.bin', 'tsc'), ['-b'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d) => {
      output += d
    })
    child.stderr.on('data', (d) => {
      output += d
    })
    child.on('error', (error) => resolve({ ok: false, reason: `tsc -b could not start: ${error.message}` }))
    child.on('close', (code) => {
      if (code === 0) return resolve(undefined)
      const errors = output.split('\n').filter((l) => l.includes('error TS'))
      const shown = errors.slice(0, 3).join('; ') || output.trim().split('\n').slice(-3).join('; ')
      resolve({ ok: false, reason: `\`tsc -b\` failed (${errors.length} error(s)): ${shown}` })
    })
  })
}

async function pool(items, fn) {
  const results = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await fn(items[i], i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker))
  return results
}

const stripVolatile = (result) => {
  const { caseDir, durationMs, ...info } = result.info ?? {}
  return { ...result, info }
}
const t0 = Date.now()

// ---- real Codex side
const codexResults = await pool(scenarios, async (scenario) => {
  if (saved) {
    const file = join(EXPECTED_DIR, `${scenario.name}.json`)
    if (!existsSync(file))
      return { scenario: scenario.name, error: `no saved result ${file} (run with --record)`, hookCalls: [], requests: [] }
    return JSON.parse(readFileSync(file, 'utf8'))
  }
  process.stderr.write(`codex:  ${scenario.name} …\n`)
  const result = await runCodexScenario(scenario, root)
  writeFileSync(join(root, 'results', `${scenario.name}.codex.json`), `${JSON.stringify(result, null, 2)}\n`)
  if (flag('--record') && !result.error) {
    mkdirSync(EXPECTED_DIR, { recursive: true })
    writeFileSync(join(EXPECTED_DIR, `${scenario.name}.json`), `${JSON.stringify(stripVolatile(result), null, 2)}\n`)
  }
  return result
})

// ---- kernel side
let kernelProbe = { ok: false, reason: 'not run (--codex-only)' }
if (!codexOnly) kernelProbe = flag('--build') ? ((await buildRepo()) ?? (await probeKernel())) : await probeKernel()
header.push(`kernel: ${kernelProbe.ok ? `${kernelProbe.dialect} loaded` : `kernel side unavailable: ${kernelProbe.reason}`}`)
const kernelResults = await pool(scenarios, async (scenario, i) => {
  if (!kernelProbe.ok || codexResults[i].error) return undefined
  process.stderr.write(`kernel: ${scenario.name} …\n`)
  const result = await runKernelScenario(scenario, root, codexResults[i], { timeoutMs: scenario.timeoutMs ?? 60_000 })
  writeFileSync(join(root, 'results', `${scenario.name}.kernel.json`), `${JSON.stringify(result, null, 2)}\n`)
  return result
})

// ---- compare
const rows = scenarios.map((scenario, i) => {
  const codex = codexResults[i]
  const kernel = kernelResults[i]
  const codexProblems = codex.error ? [] : checkExpectations(scenario, codex)
  const mismatches = kernel ? compareResults(codex, kernel) : []
  let drift
  const expectedFile = join(EXPECTED_DIR, `${scenario.name}.json`)
  if (!saved && !codex.error && !flag('--record') && existsSync(expectedFile)) {
    const expected = JSON.parse(readFileSync(expectedFile, 'utf8'))
    drift = compareResults(expected, { ...codex, error: undefined })
  }
  let status
  if (codex.error) status = '**FAIL** (real Codex run failed)'
  else if (codexProblems.length) status = '**FAIL** (scenario expectation not met by real Codex)'
  else if (!kernel) status = kernelProbe.ok ? 'not compared' : 'kernel side unavailable'
  else if (mismatches.length) status = `**MISMATCH** (${mismatches.length})`
  else status = 'pass'
  return { scenario, codex, kernel, kernelUnavailable: !kernelProbe.ok, codexProblems, mismatches, drift, status }
})

const counts = {
  pass: rows.filter((r) => r.status === 'pass').length,
  mismatch: rows.filter((r) => r.mismatches.length).length,
  unavailable: rows.filter((r) => r.status === 'kernel side unavailable').length,
  codexFailed: rows.filter((r) => r.codex.error || r.codexProblems.length).length,
}
header.push(
  `${rows.length} scenarios: ${counts.pass} pass, ${counts.mismatch} mismatch, ${counts.unavailable} kernel side unavailable, ` +
    `${counts.codexFailed} failed on the real-Codex side; ${((Date.now() - t0) / 1000).toFixed(1)} s`,
)
const report = renderReport({ header, rows, showCodex: flag('--verbose') || codexOnly || !kernelProbe.ok })
writeFileSync(join(root, 'report.md'), `${report}\n`)
console.log(report)
process.exit(counts.mismatch || counts.codexFailed ? 1 : 0)
