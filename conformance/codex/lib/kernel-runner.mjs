// Our side: the same scenario (same hooks.json, same handlers, same model answers) on the kernel
// with @harness-kernel/codex, normalized like the Codex side.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { readJsonLines } from '../../lib/files.mjs'
import { probeModules, runKernelJob } from '../../lib/kernel-side.mjs'
import { collectHookCalls, substituteHook } from './codex-case.mjs'
import { cleanEnv, REPO_ROOT } from './env.mjs'
import { casePathMap, kernelRequestItems, normalizeHookCalls, requestDeltas } from './normalize.mjs'

export const MODEL = 'gpt-5.1-codex'
const DIALECT_ENTRY = join(REPO_ROOT, 'dialects', 'codex', 'dist', 'index.js')
/** CODEX_DIALECT_MODULE=/abs/module.mjs tests another build of the dialect (it must export codexHooks). */
const dialectOverride = () => (process.env.CODEX_DIALECT_MODULE ? resolve(process.env.CODEX_DIALECT_MODULE) : undefined)
const REQUIRED_DIST = () => [
  ['@harness-kernel/kernel', join(REPO_ROOT, 'kernel', 'dist', 'index.js'), 'createKernel'],
  ['@harness-kernel/scripted-model', join(REPO_ROOT, 'plugins', 'scripted-model', 'dist', 'index.js'), 'scriptedModel'],
  ['@harness-kernel/tools', join(REPO_ROOT, 'plugins', 'tools', 'dist', 'index.js'), 'tools'],
  ['@harness-kernel/codex', dialectOverride() ?? DIALECT_ENTRY, 'codexHooks'],
]

/** @returns {Promise<{ ok: true } | { ok: false, reason: string }>} */
export async function probeKernel() {
  return (await probeModules(REQUIRED_DIST())) ?? { ok: true, dialect: dialectOverride() ?? '@harness-kernel/codex' }
}

/**
 * The scripted-model steps for the kernel: the answers the fake Responses server gave Codex, in
 * order (its `auto` steps are resolved per request, so they are taken from the Codex run), then
 * two filler messages so that extra kernel requests show up as a delta mismatch instead of a
 * "script exhausted" failure.
 */
export function kernelSteps(modelSteps) {
  const steps = modelSteps.map((step) => {
    if (step.kind === 'tool') return { tool_calls: [{ name: 'shell', input: { command: step.cmd }, id: step.callId }] }
    if (step.kind === 'message') return { text: step.text }
    throw new Error(`model step kind "${step.kind}" has no kernel equivalent`)
  })
  for (let i = 1; i <= 2; i++) steps.push({ text: `(conformance filler ${i}: Codex made no such request)` })
  return steps
}

/**
 * Runs a scenario on the kernel in `<root>/kernel/<name>/`.
 * @param {object} scenario
 * @param {{ modelSteps: object[] }} codexResult  the normalized Codex result (fresh or saved)
 */
export async function runKernelScenario(scenario, root, codexResult, { timeoutMs = 60_000 } = {}) {
  const dir = join(root, 'kernel', scenario.name)
  rmSync(dir, { recursive: true, force: true })
  const paths = {
    home: join(dir, 'home'),
    cwd: join(dir, 'cwd'),
    tmp: join(dir, 'tmp'),
    out: join(dir, 'out'),
    responses: join(dir, 'responses'),
    sessions: join(dir, 'sessions'),
  }
  for (const p of Object.values(paths)) mkdirSync(p, { recursive: true })
  writeFileSync(join(paths.home, 'hooks.json'), `${substituteHook(JSON.stringify({ hooks: scenario.hooks }, null, 2))}\n`)
  const extra = scenario.configExtra ? `${substituteHook(scenario.configExtra)}\n` : ''
  writeFileSync(
    join(paths.home, 'config.toml'),
    `model = "${MODEL}"\napproval_policy = "${scenario.env?.APPROVAL ?? 'never'}"\nsandbox_mode = "${scenario.env?.SANDBOX ?? 'danger-full-access'}"\n${extra}`,
  )
  for (const [name, body] of Object.entries(scenario.handlers ?? {})) writeFileSync(join(paths.responses, name), body)

  const result = {
    scenario: scenario.name,
    side: 'kernel',
    hookCalls: [],
    requests: [],
    info: { caseDir: dir },
  }
  let steps
  try {
    steps = kernelSteps(codexResult.modelSteps)
  } catch (error) {
    result.error = String(error.message)
    return result
  }
  const job = {
    steps,
    recordTo: join(dir, 'requests.jsonl'),
    codexHome: paths.home,
    cwd: paths.cwd,
    sessionsDir: paths.sessions,
    model: MODEL,
    turns: scenario.turns ?? [scenario.prompt ?? 'run the tool'],
    resultFile: join(dir, 'result.json'),
    dialectModule: dialectOverride(),
  }
  const run = await runKernelJob(join(import.meta.dirname, 'kernel-child.mjs'), dir, job, {
    cwd: paths.cwd,
    // HARNESS_HOME: keep the harness's own trust store (and anything else it keeps there) per case
    env: cleanEnv({ HOOK_OUT: paths.out, HOOK_RESP: paths.responses, TMPDIR: paths.tmp, HARNESS_HOME: join(dir, 'harness-home') }),
    timeoutMs,
  })
  const { child } = run
  result.info.durationMs = run.durationMs
  if (run.error) result.error = run.error
  result.info.turns = child?.turns
  result.info.finalMessage = child?.turns?.at(-1)?.lastAssistantMessage ?? undefined

  const pathMap = casePathMap(dir, {
    home: paths.home,
    cwd: paths.cwd,
    tmp: paths.tmp,
    extra: [
      [paths.out, '<HOOK_OUT>'],
      [paths.responses, '<HOOK_RESP>'],
      [paths.sessions, '<SESSIONS>'],
    ],
  })
  result.hookCalls = normalizeHookCalls(collectHookCalls(paths.out), pathMap)
  const recorded = readJsonLines(job.recordTo)
  result.requests = requestDeltas(recorded.map((r) => kernelRequestItems(r.request, pathMap)))
  return result
}
