#!/usr/bin/env node
// The App Server differential suite: the same client script (scenarios.mjs) against the real `codex app-server`
// 0.169.0 (on a fake Responses API) and against `harness app-server --model openai:…` (on the same fake), compared
// step by step. Opt-in (`npm run conformance:app-server`); without the real Codex it prints `skipped: …` and exits 0.
//   node conformance/app-server/run.mjs [--verbose] [--keep] [filter …]
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { compareStep, KNOWN_DEVIATIONS, NOT_COMPARED, signature } from './compare.mjs'
import { startFakeResponses } from './fake-responses.mjs'
import { SCENARIOS } from './scenarios.mjs'
import { spawnServer } from './wire-client.mjs'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const HARNESS_BIN = join(REPO, 'cli/dist/bin.js')
const MODEL = 'gpt-5.1-codex'

const { values, positionals } = parseArgs({ allowPositionals: true, options: { verbose: { type: 'boolean' }, keep: { type: 'boolean' } } })

/** CODEX_BIN, the shared real-clients install, or the binary `npm ci` put in this workspace (@openai/codex 0.169.0). */
function findCodex() {
  const candidates = [
    process.env.CODEX_BIN,
    join(process.env.REAL_CLIENTS_HOME ?? join(process.env.HOME ?? '', '.cache/harness-real-clients'), 'node_modules/.bin/codex'),
  ]
  try {
    const require = createRequire(join(REPO, 'drivers/codex/package.json'))
    const triple = {
      'linux-x64': 'x86_64-unknown-linux-musl',
      'linux-arm64': 'aarch64-unknown-linux-musl',
      'darwin-x64': 'x86_64-apple-darwin',
      'darwin-arm64': 'aarch64-apple-darwin',
    }[`${process.platform}-${process.arch}`]
    const root = dirname(require.resolve(`@openai/codex-${process.platform}-${process.arch}/package.json`))
    candidates.push(join(root, 'vendor', triple ?? '', 'bin', 'codex'))
  } catch {}
  return candidates.find((candidate) => candidate && existsSync(candidate))
}

function codexSide(dir, fakeUrl, bin) {
  const home = join(dir, 'home')
  mkdirSync(home, { recursive: true })
  writeFileSync(
    join(home, 'config.toml'),
    `model = "${MODEL}"\nmodel_provider = "fake"\napproval_policy = "never"\nsandbox_mode = "danger-full-access"\n\n[model_providers.fake]\nname = "fake"\nbase_url = "${fakeUrl}"\nenv_key = "FAKE_KEY"\nwire_api = "responses"\nrequest_max_retries = 0\nstream_max_retries = 0\n`,
  )
  return {
    command: bin,
    args: ['app-server'],
    env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: home, FAKE_KEY: 'fake', TMPDIR: tmpdir() },
  }
}

function harnessSide(dir, fakeUrl) {
  const home = join(dir, 'home')
  mkdirSync(home, { recursive: true })
  return {
    command: process.execPath,
    args: [HARNESS_BIN, 'app-server', '--model', `openai:${MODEL}`],
    env: {
      PATH: process.env.PATH,
      HOME: home,
      HARNESS_HOME: join(dir, 'harness-home'),
      CODEX_HOME: join(dir, 'codex-home'),
      OPENAI_BASE_URL: fakeUrl,
      OPENAI_API_KEY: 'fake',
      TMPDIR: tmpdir(),
    },
  }
}

async function runSide(scenario, side, root, fake, bin) {
  const dir = join(root, `${scenario.name}.${side}`)
  const cwd = join(dir, 'workspace')
  mkdirSync(cwd, { recursive: true })
  fake.setPlan(scenario.plan)
  const spec = side === 'codex' ? codexSide(dir, fake.url, bin) : harnessSide(dir, fake.url)
  const server = spawnServer({ ...spec, cwd })
  let failure
  try {
    await scenario.run(server, { cwd })
    // Let late notifications of the last step arrive.
    await new Promise((resolvePause) => setTimeout(resolvePause, 300))
  } catch (error) {
    failure = error.message
  } finally {
    await server.close()
    writeFileSync(join(dir, 'wire.jsonl'), server.log.map((entry) => JSON.stringify(entry)).join('\n'))
  }
  return { log: server.log, failure }
}

function byStep(log) {
  const steps = new Map()
  for (const entry of log) steps.set(entry.step, [...(steps.get(entry.step) ?? []), entry])
  return steps
}

const bin = findCodex()
if (!bin) {
  console.log('skipped: real Codex not installed (npm ci installs @openai/codex 0.169.0; or set CODEX_BIN)')
  process.exit(0)
}
if (!existsSync(HARNESS_BIN)) {
  console.error(`${HARNESS_BIN} is missing: build first (npx tsc -b)`)
  process.exit(1)
}
const root = mkdtempSync(join(tmpdir(), 'conformance-app-server-'))
const fake = await startFakeResponses()
const selected = SCENARIOS.filter((scenario) => positionals.length === 0 || positionals.some((filter) => scenario.name.includes(filter)))
const lines = [
  `# App Server differential suite: ${bin} vs harness app-server`,
  '',
  `Not compared (Codex's own services): ${[...NOT_COMPARED].join(', ')}`,
  '',
]
let failed = 0
let steps = 0
for (const scenario of selected) {
  process.stderr.write(`${scenario.name} …\n`)
  const codex = await runSide(scenario, 'codex', root, fake, bin)
  const harness = await runSide(scenario, 'harness', root, fake, bin)
  lines.push(`## ${scenario.name}`)
  if (codex.failure) lines.push(`- the real Codex broke the script: ${codex.failure}`)
  if (harness.failure) lines.push(`- harness app-server broke the script: ${harness.failure}`)
  if (codex.failure || harness.failure) failed++
  const codexSteps = byStep(codex.log)
  const harnessSteps = byStep(harness.log)
  for (const step of new Set([...codexSteps.keys(), ...harnessSteps.keys()])) {
    steps++
    const differences = compareStep(codexSteps.get(step) ?? [], harnessSteps.get(step) ?? [])
    const known = KNOWN_DEVIATIONS[`${scenario.name}/${step}`]
    if (differences.length > 0 && known) {
      lines.push(`- ≈ ${step}: a known deviation: ${known}`)
      if (values.verbose) for (const difference of differences) lines.push(`    - ${difference}`)
      continue
    }
    if (differences.length === 0) {
      lines.push(`- ✓ ${step}${values.verbose ? `: ${(codexSteps.get(step) ?? []).map(signature).join(' → ')}` : ''}`)
      continue
    }
    failed++
    lines.push(`- ✗ ${step}`)
    for (const difference of differences) lines.push(`    - ${difference}`)
  }
  lines.push('')
}
await fake.close()
lines.push(`${steps} steps compared, ${failed} with differences`)
console.log(lines.join('\n'))
if (values.keep) console.log(`runs kept in ${root}`)
else rmSync(root, { recursive: true, force: true })
process.exit(failed === 0 ? 0 : 1)
