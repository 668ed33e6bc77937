// The real-Codex side: one run-case.sh case per scenario, normalized.
import { join } from 'node:path'
import { readText } from '../../lib/files.mjs'
import { lastLines } from '../../lib/process.mjs'
import { collectHookCalls, readCodexRequests, runCase, writeCaseDir } from './codex-case.mjs'
import { agentIdMap, casePathMap, codexRequestItems, normalizeHookCalls, splitConversations } from './normalize.mjs'

/** The run-case.sh inputs for a scenario (app-server mode when it has several turns or an `app` block). */
export function codexCaseSpec(scenario) {
  const spec = { plan: scenario.plan, hooks: { hooks: scenario.hooks }, handlers: scenario.handlers, configExtra: scenario.configExtra }
  if (scenario.turns)
    spec.app = {
      steps: scenario.turns.map((turn) => (typeof turn === 'string' ? { op: 'turn', text: turn } : { op: 'compact' })),
      ...(scenario.app ?? {}),
    }
  else spec.prompt = scenario.prompt ?? 'run the tool'
  return spec
}

/**
 * Runs a scenario through the real Codex in `<root>/codex/<name>/` and returns the normalized result.
 */
export async function runCodexScenario(scenario, root) {
  const outDir = join(root, 'codex')
  const caseDir = join(outDir, scenario.name)
  writeCaseDir(caseDir, codexCaseSpec(scenario))
  const started = Date.now()
  const run = await runCase(caseDir, outDir, { env: scenario.env ?? {} })
  const result = normalizeCodexRun(scenario, caseDir)
  result.info.durationMs = Date.now() - started
  if (run.code !== 0) result.error = `run-case.sh exited ${run.code}: ${lastLines(run.stderr, 3)}`
  return result
}

/** Reads a finished case directory back. */
export function normalizeCodexRun(scenario, caseDir) {
  const pathMap = casePathMap(caseDir, {
    home: join(caseDir, 'home'),
    cwd: join(caseDir, 'cwd'),
    tmp: join(caseDir, 'tmp'),
    extra: [
      [join(caseDir, 'out'), '<HOOK_OUT>'],
      [join(caseDir, 'responses'), '<HOOK_RESP>'],
    ],
  })
  const calls = collectHookCalls(join(caseDir, 'out'))
  // agent ids in model-visible text get the labels of the hooks' agent_id
  const textMap = [...pathMap, ...agentIdMap(calls)]
  const all = readCodexRequests(caseDir)
  // the root thread's requests, and the subagents' (the fake server's `sub` lane), each thread a conversation of its own
  const requests = all.filter((r) => r.lane === 'all' || r.lane === 'root' || r.lane === 'sub')
  let ignoredItems = 0
  const itemLists = requests.map((r) => {
    const { items, ignored } = codexRequestItems(r.body, textMap)
    ignoredItems += ignored
    return { conversation: r.lane === 'sub' ? threadOf(r) : null, items }
  })
  const { main, subagents } = splitConversations(itemLists, null)
  return {
    scenario: scenario.name,
    side: 'codex',
    hookCalls: normalizeHookCalls(calls, pathMap),
    requests: main,
    ...(subagents.length ? { subagentRequests: subagents } : {}),
    // what the fake model answered, request by request (`auto` resolved), for the kernel's script: the root thread's
    // requests and, where Codex compacted, the compaction requests (`lane: 'compaction'`) in between; `usage`: the
    // total_tokens a `usage` step of the plan reported
    // requests and, where Codex compacted, the compaction requests (`lane: 'compaction'`) in between; the subagents'
    // requests (`lane: 'sub'`, in the order the fake server answered them); `delayMs`: how long a `delay` step held it
    modelSteps: all
      .filter((r) => r.lane === 'all' || r.lane === 'root' || r.lane === 'compaction' || r.lane === 'sub')
      .map((r) => {
        const usage = planUsage(scenario.plan, r.lane, r.n)
        return {
          ...r.step,
          callId: r.lane === 'all' ? `call_${r.n}` : `call_${r.lane}_${r.n}`,
          ...(r.lane === 'compaction' || r.lane === 'sub' ? { lane: r.lane } : {}),
          ...(usage === undefined ? {} : { usage }),
          ...(r.delay_ms ? { delayMs: r.delay_ms } : {}),
        }
      }),
    info: {
      rc: readText(join(caseDir, 'codex.rc')).trim(),
      mode: scenario.turns ? 'app-server' : 'exec',
      finalMessage: scenario.turns ? undefined : readText(join(caseDir, 'codex.stdout')).trim(),
      ignoredCodexItems: ignoredItems,
      hookStatusLines: scenario.turns ? appServerHookStatuses(caseDir) : execHookStatuses(caseDir),
      caseDir,
    },
  }
}

/** The thread a request was made for (its `x-codex-turn-metadata` header's thread_id). */
function threadOf(request) {
  try {
    return JSON.parse(request.headers?.['x-codex-turn-metadata'] ?? '{}').thread_id ?? 'sub'
  } catch {
    return 'sub'
  }
}

/** The `total_tokens` of a `usage` step the fake server answered request `n` of `lane` with (its plan rule), if any. */
function planUsage(plan, lane, n) {
  const steps = Array.isArray(plan) ? plan : (plan?.[lane] ?? plan?.root)
  let step = steps?.[Math.min(n, steps.length - 1)]
  let usage
  while (step && (step.kind === 'usage' || step.kind === 'delay')) {
    if (step.kind === 'usage') usage = step.total_tokens
    step = step.then
  }
  return usage
}

/** exec mode: the `hook: <Event> <Status>` lines of stderr other than Completed. */
function execHookStatuses(caseDir) {
  return readText(join(caseDir, 'codex.stderr'))
    .split('\n')
    .filter((l) => /^hook: \w+ \w+/.test(l) && !l.endsWith(' Completed'))
}

/** app-server mode: hook/completed runs other than completed, as `<event>#<displayOrder>:<status> <entries>`. */
function appServerHookStatuses(caseDir) {
  const lines = []
  for (const line of readText(join(caseDir, 'appserver.jsonl')).split('\n')) {
    if (!line) continue
    const { dir, msg } = JSON.parse(line)
    if (dir !== 'in' || msg?.method !== 'hook/completed') continue
    const run = msg.params.run
    if (run.status !== 'completed') lines.push(`${run.eventName}#${run.displayOrder}:${run.status} ${JSON.stringify(run.entries)}`)
  }
  return lines
}
