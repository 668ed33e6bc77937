// The run loop both suites share: the real client's side (fresh or saved), the kernel's side, the
// comparison of the two, the report and the exit code. Each suite's run.mjs supplies its runners,
// comparators and report.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from './real-clients.mjs'

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

/** `fn(item, index)` over `items`, at most `jobs` at a time; the results in the items' order. */
async function pool(items, jobs, fn) {
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

/** A result without what differs from run to run (its case directory, its duration), as expected/ keeps it. */
const stripVolatile = (result) => {
  const { caseDir, durationMs, ...info } = result.info ?? {}
  return { ...result, info }
}

/**
 * Runs a suite and exits: 0 when every compared scenario passes (or the kernel side is unavailable), 1 on a mismatch or a
 * failed real-client run; a missing real client skips the run with 0 (`--saved` compares with expected/ instead).
 * @param {object} suite
 * @param {string} suite.client          the real client's name in messages and the report: `Codex`, `Claude Code`
 * @param {string} suite.dir             the suite's folder under conformance/: `codex`, `claude-code`
 * @param {string} suite.side            the real side's name in results/<scenario>.<side>.json and the progress lines
 * @param {string} suite.onlyFlag        the option that runs only the real side: `--codex-only`
 * @param {ReturnType<import('./cli.mjs').parseCli>} suite.cli
 * @param {string} suite.expectedDir     the saved normalized real-client results
 * @param {(prefix: string) => string} suite.makeTempRoot
 * @param {(filters: string[]) => Promise<object[]>} suite.loadScenarios
 * @param {() => { ok: true, bin: string, version: string, warning?: string } | { ok: false, reason: string }} suite.probeClient
 * @param {(scenario: object, root: string) => Promise<object>} suite.runClientScenario
 * @param {() => Promise<{ ok: true, dialect: string } | { ok: false, reason: string }>} suite.probeKernel
 * @param {(scenario: object, root: string, clientResult: object) => Promise<object>} suite.runKernelScenario
 * @param {(scenario: object, clientResult: object) => string[]} suite.checkExpectations
 * @param {(expected: object, actual: object) => object[]} suite.compareResults
 * @param {(data: { header: string[], rows: object[], showClient: boolean }) => string} suite.renderReport
 * @param {boolean} [suite.recordOnlyExpected]  `--record` saves only runs that meet the scenario's own expectations
 */
export async function runSuite(suite) {
  const { client, cli } = suite
  const { flag, option, filters, jobs } = cli
  const saved = flag('--saved')
  const clientOnly = flag(suite.onlyFlag)

  const scenarios = await suite.loadScenarios(filters)
  if (scenarios.length === 0) {
    console.log(`no scenario matches ${filters.join(' ')}`)
    process.exit(1)
  }

  const header = []
  if (!saved) {
    const probe = suite.probeClient()
    if (!probe.ok) {
      console.log(
        `skipped: real ${client} not installed (npm ci installs the pinned one; or run shared/real-clients/install.sh) [${probe.reason}]`,
      )
      console.log(`(\`node conformance/${suite.dir}/run.mjs --saved\` compares the kernel with the saved ${client} results instead)`)
      process.exit(0)
    }
    header.push(`real ${client}: ${probe.version} (${probe.bin})${probe.warning ? ` WARNING: ${probe.warning}` : ''}`)
  } else {
    header.push(`real ${client}: not run; saved results from conformance/${suite.dir}/expected/`)
  }
  const root = option('--out') ?? suite.makeTempRoot(`${suite.dir}-conformance-`)
  mkdirSync(join(root, 'results'), { recursive: true })
  header.push(`run directories and normalized results: ${root}`)

  const t0 = Date.now()
  const expectedFile = (scenario) => join(suite.expectedDir, `${scenario.name}.json`)

  // ---- real client side
  const clientResults = await pool(scenarios, jobs, async (scenario) => {
    if (saved) {
      const file = expectedFile(scenario)
      if (!existsSync(file))
        return { scenario: scenario.name, error: `no saved result ${file} (run with --record)`, hookCalls: [], requests: [] }
      return JSON.parse(readFileSync(file, 'utf8'))
    }
    process.stderr.write(`${`${suite.side}:`.padEnd(7)} ${scenario.name} …\n`)
    const result = await suite.runClientScenario(scenario, root)
    writeFileSync(join(root, 'results', `${scenario.name}.${suite.side}.json`), `${JSON.stringify(result, null, 2)}\n`)
    // a run the real side skipped (`skipped`: why, e.g. the sandbox binaries are missing) is never recorded
    const record = flag('--record') && !result.error && !result.skipped
    if (record && (!suite.recordOnlyExpected || suite.checkExpectations(scenario, result).length === 0)) {
      mkdirSync(suite.expectedDir, { recursive: true })
      writeFileSync(expectedFile(scenario), `${JSON.stringify(stripVolatile(result), null, 2)}\n`)
    }
    return result
  })

  // ---- kernel side
  let kernelProbe = { ok: false, reason: `not run (${suite.onlyFlag})` }
  if (!clientOnly) kernelProbe = flag('--build') ? ((await buildRepo()) ?? (await suite.probeKernel())) : await suite.probeKernel()
  header.push(`kernel: ${kernelProbe.ok ? `${kernelProbe.dialect} loaded` : `kernel side unavailable: ${kernelProbe.reason}`}`)
  const kernelResults = await pool(scenarios, jobs, async (scenario, i) => {
    if (!kernelProbe.ok || clientResults[i].error || clientResults[i].skipped) return undefined
    process.stderr.write(`kernel: ${scenario.name} …\n`)
    const result = await suite.runKernelScenario(scenario, root, clientResults[i])
    writeFileSync(join(root, 'results', `${scenario.name}.kernel.json`), `${JSON.stringify(result, null, 2)}\n`)
    return result
  })

  // ---- compare
  const rows = scenarios.map((scenario, i) => {
    const real = clientResults[i]
    const kernel = kernelResults[i]
    const clientProblems = real.error || real.skipped ? [] : suite.checkExpectations(scenario, real)
    const mismatches = kernel ? suite.compareResults(real, kernel) : []
    let drift
    if (!saved && !real.error && !real.skipped && !flag('--record') && existsSync(expectedFile(scenario))) {
      const expected = JSON.parse(readFileSync(expectedFile(scenario), 'utf8'))
      drift = suite.compareResults(expected, { ...real, error: undefined })
    }
    let status
    if (real.skipped) status = `skipped (${real.skipped})`
    else if (real.error) status = `**FAIL** (real ${client} run failed)`
    else if (clientProblems.length) status = `**FAIL** (scenario expectation not met by real ${client})`
    else if (!kernel) status = kernelProbe.ok ? 'not compared' : 'kernel side unavailable'
    else if (mismatches.length) status = `**MISMATCH** (${mismatches.length})`
    else status = 'pass'
    return { scenario, client: real, kernel, kernelUnavailable: !kernelProbe.ok, clientProblems, mismatches, drift, status }
  })

  const counts = {
    pass: rows.filter((r) => r.status === 'pass').length,
    mismatch: rows.filter((r) => r.mismatches.length).length,
    unavailable: rows.filter((r) => r.status === 'kernel side unavailable').length,
    clientFailed: rows.filter((r) => r.client.error || r.clientProblems.length).length,
    skipped: rows.filter((r) => r.client.skipped).length,
  }
  header.push(
    `${rows.length} scenarios: ${counts.pass} pass, ${counts.mismatch} mismatch, ${counts.unavailable} kernel side unavailable, ` +
      `${counts.clientFailed} failed on the real-${client.replaceAll(' ', '-')} side` +
      `${counts.skipped ? `, ${counts.skipped} skipped on the real-${client.replaceAll(' ', '-')} side` : ''}; ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  )
  const report = suite.renderReport({ header, rows, showClient: flag('--verbose') || clientOnly || !kernelProbe.ok })
  writeFileSync(join(root, 'report.md'), `${report}\n`)
  console.log(report)
  process.exit(counts.mismatch || counts.clientFailed ? 1 : 0)
}
