// The real-Codex side: one run-case.sh case per scenario, normalized.
import { join } from 'node:path'
import { readText } from '../../lib/files.mjs'
import { lastLines } from '../../lib/process.mjs'
import { collectHookCalls, readCodexRequests, runCase, writeCaseDir } from './codex-case.mjs'
import { casePathMap, codexRequestItems, normalizeHookCalls, requestDeltas } from './normalize.mjs'

/** The run-case.sh inputs for a scenario (app-server mode when it has several turns or an `app` block). */
export function codexCaseSpec(scenario) {
  const spec = { plan: scenario.plan, hooks: { hooks: scenario.hooks }, handlers: scenario.handlers, configExtra: scenario.configExtra }
  if (scenario.turns) spec.app = { steps: scenario.turns.map((text) => ({ op: 'turn', text })), ...(scenario.app ?? {}) }
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
  const requests = readCodexRequests(caseDir).filter((r) => r.lane === 'all' || r.lane === 'root')
  let ignoredItems = 0
  const itemLists = requests.map((r) => {
    const { items, ignored } = codexRequestItems(r.body, pathMap)
    ignoredItems += ignored
    return items
  })
  const calls = collectHookCalls(join(caseDir, 'out'))
  return {
    scenario: scenario.name,
    side: 'codex',
    hookCalls: normalizeHookCalls(calls, pathMap),
    requests: requestDeltas(itemLists),
    // what the fake model answered, request by request (`auto` resolved), for the kernel's script
    modelSteps: requests.map((r) => ({ ...r.step, callId: r.lane === 'all' ? `call_${r.n}` : `call_${r.lane}_${r.n}` })),
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
