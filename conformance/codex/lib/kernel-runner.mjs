// Our side: the same scenario (same hooks.json, same handlers, same model answers) on the kernel
// with @harness-kernel/codex, normalized like the Codex side.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { readJsonLines } from '../../lib/files.mjs'
import { probeModules, runKernelJob } from '../../lib/kernel-side.mjs'
import { collectHookCalls, isolatedHome, substituteHook } from './codex-case.mjs'
import { cleanEnv, REPO_ROOT } from './env.mjs'
import { agentIdMap, casePathMap, kernelRequestItems, normalizeHookCalls, requestDeltas, splitConversations } from './normalize.mjs'

export const MODEL = 'gpt-5.1-codex'
const DIALECT_ENTRY = join(REPO_ROOT, 'dialects', 'codex', 'dist', 'index.js')
/** CODEX_DIALECT_MODULE=/abs/module.mjs tests another build of the dialect (it must export codexHooks). */
const dialectOverride = () => (process.env.CODEX_DIALECT_MODULE ? resolve(process.env.CODEX_DIALECT_MODULE) : undefined)
const REQUIRED_DIST = () => [
  ['@harness-kernel/kernel', join(REPO_ROOT, 'kernel', 'dist', 'index.js'), 'createKernel'],
  ['@harness-kernel/scripted-model', join(REPO_ROOT, 'plugins', 'scripted-model', 'dist', 'index.js'), 'scriptedModel'],
  ['@harness-kernel/tools', join(REPO_ROOT, 'plugins', 'tools', 'dist', 'index.js'), 'tools'],
  ['@harness-kernel/codex', dialectOverride() ?? DIALECT_ENTRY, 'codexHooks'],
  ['@harness-kernel/mcp', join(REPO_ROOT, 'plugins', 'mcp', 'dist', 'index.js'), 'mcp'],
  ['@harness-kernel/subagents', join(REPO_ROOT, 'plugins', 'subagents', 'dist', 'index.js'), 'subagents'],
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
  const steps = modelSteps.map(kernelStep)
  for (let i = 1; i <= 2; i++) steps.push({ text: `(conformance filler ${i}: Codex made no such request)` })
  return steps
}

function kernelStep({ usage, lane, delayMs, ...step }) {
  if (step.kind === 'tool') return { tool_calls: [{ name: 'shell', input: { command: step.cmd }, id: step.callId }] }
  if (step.kind === 'message') return { text: step.text }
  // an MCP tool: Codex's `mcp__<server>` namespace + tool name is the kernel's `mcp__<server>__<tool>`
  if (step.kind === 'call' && String(step.namespace ?? '').startsWith('mcp__'))
    return { tool_calls: [{ name: `${step.namespace}__${step.name}`, input: step.args ?? {}, id: step.callId }] }
  // Codex's multi-agent tools (namespace multi_agent_v1): subagents({ tools: 'codex' }) registers them by name
  if (step.kind === 'call' && step.namespace === 'multi_agent_v1')
    return { tool_calls: [{ name: step.name, input: step.args ?? {}, id: step.callId }] }
  throw new Error(`model step kind "${step.kind}"${step.name ? ` (${step.name})` : ''} has no kernel equivalent`)
}

/**
 * The kernel's model script by lane: `root` (the main session; the fake server's `all`/`root` lane and the compaction
 * requests in between) and `sub` (the subagents' sessions), each with the `delay` its steps held Codex's answers.
 */
export function kernelLanes(modelSteps) {
  const root = modelSteps.filter((step) => step.lane !== 'sub')
  const sub = modelSteps.filter((step) => step.lane === 'sub')
  return {
    steps: kernelSteps(root),
    delays: root.map((step) => step.delayMs ?? 0),
    subSteps: sub.length ? kernelSteps(sub) : [],
    subDelays: sub.map((step) => step.delayMs ?? 0),
  }
}

/** `model_auto_compact_token_limit = N` of the scenario's config.toml extra, if any. */
function autoCompactTokenLimit(configExtra) {
  const m = /^\s*model_auto_compact_token_limit\s*=\s*(\d+)\s*$/m.exec(configExtra ?? '')
  return m ? Number(m[1]) : null
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
  let lanes
  try {
    lanes = kernelLanes(codexResult.modelSteps)
  } catch (error) {
    result.error = String(error.message)
    return result
  }
  const rootSteps = codexResult.modelSteps.filter((step) => step.lane !== 'sub')
  const job = {
    ...lanes,
    // `subagents: true`: subagents({ tools: 'codex' }); its sessions' requests are answered from the `sub` lane
    subagents: scenario.subagents ?? false,
    recordTo: join(dir, 'requests.jsonl'),
    subRecordTo: join(dir, 'requests-sub.jsonl'),
    codexHome: paths.home,
    cwd: paths.cwd,
    sessionsDir: paths.sessions,
    model: MODEL,
    turns: scenario.turns ?? [scenario.prompt ?? 'run the tool'],
    // per model call: the usage (total tokens) Codex's answer reported, and which calls were compaction requests
    usage: rootSteps.map((step) => step.usage ?? null),
    compactionCalls: rootSteps.flatMap((step, i) => (step.lane === 'compaction' ? [i] : [])),
    autoCompactTokenLimit: autoCompactTokenLimit(scenario.configExtra),
    resultFile: join(dir, 'result.json'),
    dialectModule: dialectOverride(),
  }
  const run = await runKernelJob(join(import.meta.dirname, 'kernel-child.mjs'), dir, job, {
    cwd: paths.cwd,
    // HARNESS_HOME: keep the harness's own trust store (and anything else it keeps there) per case; HOME empty, as
    // on the real side
    env: cleanEnv({
      HOOK_OUT: paths.out,
      HOOK_RESP: paths.responses,
      TMPDIR: paths.tmp,
      HARNESS_HOME: join(dir, 'harness-home'),
      HOME: isolatedHome(dir),
    }),
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
  const calls = collectHookCalls(paths.out)
  result.hookCalls = normalizeHookCalls(calls, pathMap)
  // agent ids in model-visible text get the labels of the hooks' agent_id
  pathMap.push(...agentIdMap(calls))
  // the root thread's requests only, as on the Codex side: the compaction's summary requests are left out
  const recorded = readJsonLines(job.recordTo).filter((_, i) => !job.compactionCalls.includes(i))
  const { summaryText } = await import(pathToFileURL(join(REPO_ROOT, 'kernel', 'dist', 'index.js')).href)
  const summaryWrapper = summaryText('\u0000').split('\u0000')
  result.requests = requestDeltas(recorded.map((r) => kernelRequestItems(r.request, pathMap, summaryWrapper)))
  // the subagents' requests, one conversation per session
  const sub = readJsonLines(job.subRecordTo)
  if (sub.length) {
    const { subagents } = splitConversations(
      sub.map((r) => ({ conversation: r.sessionId, items: kernelRequestItems(r.request, pathMap, summaryWrapper) })),
      null,
    )
    result.subagentRequests = subagents
  }
  return result
}
