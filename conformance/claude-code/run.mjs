#!/usr/bin/env node
// Differential conformance suite: every scenario in scenarios/ runs through the real Claude Code
// (shared/real-clients/claude-code/run-cli.sh) and through our kernel with
// @harness-kernel/claude-code; the normalized hook calls (stdin, env, cwd), the model-visible
// request deltas and the turn outcome are compared. See README.md.
//
// Usage: node conformance/claude-code/run.mjs [options] [scenario-filter ...]
//   --saved        do not run Claude Code: compare the kernel with the saved results in expected/
//   --record       write the fresh Claude Code results to expected/ (commit them)
//   --build        run `tsc -b` first (what `npm run conformance:claude-code` does); if it fails, the
//                  kernel side is reported unavailable and the Claude Code side still runs
//   --claude-only  run only the Claude Code side (and print what it did)
//   --verbose      print what real Claude Code did for every scenario
//   --out DIR      keep all run directories under DIR (default: a fresh temp directory)
//   --jobs N       scenarios run in parallel per side (default 3)
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runClaudeScenario } from './lib/claude-runner.mjs'
import { checkExpectations, compareResults } from './lib/compare.mjs'
import { EXPECTED_DIR, makeTempRoot, probeClaude, REPO_ROOT } from './lib/env.mjs'
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
const known = new Set(['--saved', '--record', '--build', '--claude-only', '--verbose', ...valued])
const unknown = argv.filter((a) => a.startsWith('--') && !known.has(a))
if (unknown.length) {
  console.log(`unknown option(s) ${unknown.join(' ')}; see the head of conformance/claude-code/run.mjs`)
  process.exit(2)
}
const filters = argv.filter((a, i) => !a.startsWith('--') && !valued.has(argv[i - 1]))
const saved = flag('--saved')
const claudeOnly = flag('--claude-only')
const jobs = Math.max(1, Number(option('--jobs') ?? 3))

const scenarios = await loadScenarios(filters)
if (scenarios.length === 0) {
  console.log(`no scenario matches ${filters.join(' ')}`)
  process.exit(1)
}

const header = []
if (!saved) {
  const probe = probeClaude()
  if (!probe.ok) {
    console.log(`skipped: real Claude Code not installed (run shared/real-clients/install.sh) [${probe.reason}]`)
    console.log('(`node conformance/claude-code/run.mjs --saved` compares the kernel with the saved Claude Code results instead)')
    process.exit(0)
  }
  header.push(`real Claude Code: ${probe.version} (${probe.bin})${probe.warning ? ` WARNING: ${probe.warning}` : ''}`)
} else {
  header.push('real Claude Code: not run; saved results from conformance/claude-code/expected/')
}
const root = option('--out') ?? makeTempRoot('claude-code-conformance-')
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

// ---- real Claude Code side
const claudeResults = await pool(scenarios, async (scenario) => {
  if (saved) {
    const file = join(EXPECTED_DIR, `${scenario.name}.json`)
    if (!existsSync(file))
      return { scenario: scenario.name, error: `no saved result ${file} (run with --record)`, hookCalls: [], requests: [] }
    return JSON.parse(readFileSync(file, 'utf8'))
  }
  process.stderr.write(`claude: ${scenario.name} …\n`)
  const result = await runClaudeScenario(scenario, root)
  writeFileSync(join(root, 'results', `${scenario.name}.claude.json`), `${JSON.stringify(result, null, 2)}\n`)
  if (flag('--record') && !result.error && checkExpectations(scenario, result).length === 0) {
    mkdirSync(EXPECTED_DIR, { recursive: true })
    writeFileSync(join(EXPECTED_DIR, `${scenario.name}.json`), `${JSON.stringify(stripVolatile(result), null, 2)}\n`)
  }
  return result
})

// ---- kernel side
let kernelProbe = { ok: false, reason: 'not run (--claude-only)' }
if (!claudeOnly) kernelProbe = flag('--build') ? ((await buildRepo()) ?? (await probeKernel())) : await probeKernel()
header.push(`kernel: ${kernelProbe.ok ? `${kernelProbe.dialect} loaded` : `kernel side unavailable: ${kernelProbe.reason}`}`)
const kernelResults = await pool(scenarios, async (scenario, i) => {
  if (!kernelProbe.ok || claudeResults[i].error) return undefined
  process.stderr.write(`kernel: ${scenario.name} …\n`)
  const result = await runKernelScenario(scenario, root)
  writeFileSync(join(root, 'results', `${scenario.name}.kernel.json`), `${JSON.stringify(result, null, 2)}\n`)
  return result
})

// ---- compare
const rows = scenarios.map((scenario, i) => {
  const claude = claudeResults[i]
  const kernel = kernelResults[i]
  const claudeProblems = claude.error ? [] : checkExpectations(scenario, claude)
  const mismatches = kernel ? compareResults(claude, kernel) : []
  let drift
  const expectedFile = join(EXPECTED_DIR, `${scenario.name}.json`)
  if (!saved && !claude.error && !flag('--record') && existsSync(expectedFile)) {
    const expected = JSON.parse(readFileSync(expectedFile, 'utf8'))
    drift = compareResults(expected, { ...claude, error: undefined })
  }
  let status
  if (claude.error) status = '**FAIL** (real Claude Code run failed)'
  else if (claudeProblems.length) status = '**FAIL** (scenario expectation not met by real Claude Code)'
  else if (!kernel) status = kernelProbe.ok ? 'not compared' : 'kernel side unavailable'
  else if (mismatches.length) status = `**MISMATCH** (${mismatches.length})`
  else status = 'pass'
  return { scenario, claude, kernel, kernelUnavailable: !kernelProbe.ok, claudeProblems, mismatches, drift, status }
})

const counts = {
  pass: rows.filter((r) => r.status === 'pass').length,
  mismatch: rows.filter((r) => r.mismatches.length).length,
  unavailable: rows.filter((r) => r.status === 'kernel side unavailable').length,
  claudeFailed: rows.filter((r) => r.claude.error || r.claudeProblems.length).length,
}
header.push(
  `${rows.length} scenarios: ${counts.pass} pass, ${counts.mismatch} mismatch, ${counts.unavailable} kernel side unavailable, ` +
    `${counts.claudeFailed} failed on the real-Claude-Code side; ${((Date.now() - t0) / 1000).toFixed(1)} s`,
)
const report = renderReport({ header, rows, showClaude: flag('--verbose') || claudeOnly || !kernelProbe.ok })
writeFileSync(join(root, 'report.md'), `${report}\n`)
console.log(report)
process.exit(counts.mismatch || counts.claudeFailed ? 1 : 0)
