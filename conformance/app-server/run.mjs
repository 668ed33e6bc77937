#!/usr/bin/env node
// The App Server differential suite: the same client script (scenarios.mjs) against the real `codex app-server` (the
// pinned one `npm ci` installs, or CODEX_BIN; ../lib/pinned-clients.mjs) on a fake Responses API and against
// `harness app-server --model openai:…` (on the same fake), compared step by step. Opt-in (`npm run conformance:app-server`); without the real Codex it prints `skipped: …` and exits 0.
//   node conformance/app-server/run.mjs [--verbose] [--keep] [--report FILE] [filter …]
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { startFakeOpenAI } from '@harness-kernel/testing'
import { findCodex, pinnedCodexVersion } from '../lib/pinned-clients.mjs'
import { isExecutable } from '../lib/real-clients.mjs'
import { compareStep, KNOWN_DEVIATIONS, NOT_COMPARED, signature } from './compare.mjs'
import { planModel, toolOutputs } from './plan-model.mjs'
import { SCENARIOS } from './scenarios.mjs'
import { spawnServer } from './wire-client.mjs'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const HARNESS_BIN = join(REPO, 'cli/dist/bin.js')
const MODEL = 'gpt-5.1-codex'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { verbose: { type: 'boolean' }, keep: { type: 'boolean' }, report: { type: 'string' } },
})
// Codex's policy for the whole suite, in both sides' CODEX_HOME (the harness reads Codex's config.toml too): commands
// run unsandboxed and unasked unless a scenario's thread/start or turn/start says otherwise.
const POLICY = 'approval_policy = "never"\nsandbox_mode = "danger-full-access"\n'

function codexSide(dir, fakeUrl, bin, config) {
  const home = join(dir, 'home')
  writeFileSync(
    join(home, 'config.toml'),
    `model = "${MODEL}"\nmodel_provider = "fake"\n${POLICY}\n[model_providers.fake]\nname = "fake"\nbase_url = "${fakeUrl}"\nenv_key = "FAKE_KEY"\nwire_api = "responses"\nrequest_max_retries = 0\nstream_max_retries = 0\n${config}`,
  )
  return {
    command: bin,
    args: ['app-server'],
    env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: home, FAKE_KEY: 'fake', TMPDIR: tmpdir() },
  }
}

function harnessSide(dir, fakeUrl, config) {
  writeFileSync(join(dir, 'codex-home', 'config.toml'), `${POLICY}${config}`)
  return {
    command: process.execPath,
    args: [HARNESS_BIN, 'app-server', '--model', `openai:${MODEL}`],
    env: {
      PATH: process.env.PATH,
      HOME: join(dir, 'home'),
      HARNESS_HOME: join(dir, 'harness-home'),
      CODEX_HOME: join(dir, 'codex-home'),
      OPENAI_BASE_URL: fakeUrl,
      OPENAI_API_KEY: 'fake',
      TMPDIR: tmpdir(),
    },
  }
}

/** Each side's CODEX_HOME: Codex's own home, the harness's Codex configuration (rules, hooks, policy). */
const codexHomeOf = (dir, side) => join(dir, side === 'codex' ? 'home' : 'codex-home')

async function runSide(scenario, side, root, outsideRoot, fake, bin) {
  const dir = join(root, `${scenario.name}.${side}`)
  const cwd = join(dir, 'workspace')
  // Outside the workspace and /tmp (every run folder is under /tmp, which workspace-write opens).
  const outside = join(outsideRoot, `${scenario.name}.${side}`)
  const codexHome = codexHomeOf(dir, side)
  for (const folder of [cwd, outside, join(dir, 'home'), codexHome]) mkdirSync(folder, { recursive: true })
  const ctx = { cwd, outside, codexHome, notes: {} }
  const config = scenario.setup?.(ctx) ?? ''
  fake.reset()
  model.setPlan(typeof scenario.plan === 'function' ? scenario.plan(ctx) : scenario.plan)
  const spec = side === 'codex' ? codexSide(dir, fake.baseURL, bin, config) : harnessSide(dir, fake.baseURL, config)
  const server = spawnServer({ ...spec, cwd })
  let failure
  try {
    await scenario.run(server, ctx)
    // Let late notifications of the last step arrive.
    await new Promise((resolvePause) => setTimeout(resolvePause, 300))
  } catch (error) {
    failure = error.message
  } finally {
    await server.close()
    writeFileSync(join(dir, 'wire.jsonl'), server.log.map((entry) => JSON.stringify(entry)).join('\n'))
  }
  const outputs = toolOutputs(fake.requests)
  writeFileSync(join(dir, 'model-told.json'), JSON.stringify(outputs, null, 2))
  return { log: server.log, failure, outputs, facts: factsOf(scenario, { ...ctx, log: server.log, outputs }) }
}

/** A scenario's facts; a side that broke the script may leave them uncomputable, which is then itself the fact. */
function factsOf(scenario, ctx) {
  try {
    return scenario.facts?.(ctx) ?? {}
  } catch (error) {
    return { 'the facts could be computed': `no: ${error.message}` }
  }
}

function byStep(log) {
  const steps = new Map()
  for (const entry of log) steps.set(entry.step, [...(steps.get(entry.step) ?? []), entry])
  return steps
}

const { bin } = findCodex()
const pin = pinnedCodexVersion()
if (!isExecutable(bin)) {
  console.log(`skipped: real Codex not installed (npm ci installs @openai/codex ${pin}; or set CODEX_BIN) [no executable at ${bin}]`)
  process.exit(0)
}
const version = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 20_000 }).trim()
if (!existsSync(HARNESS_BIN)) {
  console.error(`${HARNESS_BIN} is missing: build first (npx tsc -b)`)
  process.exit(1)
}
const root = mkdtempSync(join(tmpdir(), 'conformance-app-server-'))
const outsideRoot = mkdtempSync('/var/tmp/conformance-app-server-')
const model = planModel()
const fake = await startFakeOpenAI({ script: model.script })
const selected = SCENARIOS.filter((scenario) => positionals.length === 0 || positionals.some((filter) => scenario.name.includes(filter)))
const lines = [
  `# App Server differential suite: ${bin} vs harness app-server`,
  '',
  `real Codex: ${version}${version.includes(pin) ? '' : ` WARNING: expected codex-cli ${pin} (the pin)`}`,
  '',
  `Not compared (Codex's own services): ${[...NOT_COMPARED].join(', ')}`,
  '',
]
let failed = 0
let steps = 0
for (const scenario of selected) {
  process.stderr.write(`${scenario.name} …\n`)
  const codex = await runSide(scenario, 'codex', root, outsideRoot, fake, bin)
  const harness = await runSide(scenario, 'harness', root, outsideRoot, fake, bin)
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
  // What a user observes beyond the wire: what the model was told, what is on disk (each scenario's `facts`).
  for (const key of new Set([...Object.keys(codex.facts), ...Object.keys(harness.facts)])) {
    steps++
    const [a, b] = [JSON.stringify(codex.facts[key]), JSON.stringify(harness.facts[key])]
    const known = KNOWN_DEVIATIONS[`${scenario.name}/fact: ${key}`]
    if (a === b) lines.push(`- ✓ fact: ${key}${values.verbose ? ` = ${a}` : ''}`)
    else if (known) lines.push(`- ≈ fact: ${key}: a known deviation: ${known}${values.verbose ? `\n    - Codex ${a}, harness ${b}` : ''}`)
    else {
      failed++
      lines.push(`- ✗ fact: ${key}\n    - Codex:   ${a}\n    - harness: ${b}`)
    }
  }
  if (values.verbose) {
    for (const [name, side] of [
      ['Codex', codex],
      ['harness', harness],
    ]) {
      for (const text of side.outputs) lines.push(`- the model was told (${name}): \`${JSON.stringify(text)}\``)
    }
  }
  lines.push('')
}
await fake.close()
lines.push(`${steps} steps compared, ${failed} with differences`)
console.log(lines.join('\n'))
if (values.report) writeFileSync(values.report, `${lines.join('\n')}\n`)
if (values.keep) console.log(`runs kept in ${root} and ${outsideRoot}`)
else for (const folder of [root, outsideRoot]) rmSync(folder, { recursive: true, force: true })
process.exit(failed === 0 ? 0 : 1)
