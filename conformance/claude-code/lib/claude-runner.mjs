// The real side: one `shared/real-clients/claude-code/run-cli.sh` run per scenario, normalized.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readText } from '../../lib/files.mjs'
import { lastLines, runProcess } from '../../lib/process.mjs'
import { claudeOutcome, collectHookCalls, readClaudeRequests, readClaudeStream } from './capture.mjs'
import { caseLayout, casePathMap, modeDirFor, settingsTemplate, writeModes, writeSettingsFlag } from './case.mjs'
import { CLASSIC_MODEL, cleanEnv, hookScript, runCliScript } from './env.mjs'
import { claudeRequestItems, hookTexts, Labeler, normalizeHookCalls, normalizePaths, requestDeltas } from './normalize.mjs'

/** The `claude -p` arguments of a scenario (after the prompt). */
export function claudeArgs(scenario, settingsFlagFile) {
  return [
    ...(scenario.bypass ? ['--dangerously-skip-permissions'] : []),
    ...(scenario.rendering === 'classic' ? ['--model', CLASSIC_MODEL] : []),
    ...(settingsFlagFile ? ['--settings', settingsFlagFile] : []),
    ...scenario.args,
  ]
}

/**
 * Runs run-cli.sh with OUT=`dir` and run name `run`, so the run is `<dir>/run` and the state
 * (project, config, home) is `<dir>/state`. `template`: the project settings template, or `none`.
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
export async function runCli(dir, scenario, { modeDir, template, settingsFlagFile, timeoutMs }) {
  const { code, stdout, stderr } = await runProcess(runCliScript(), ['run', scenario.prompt, ...claudeArgs(scenario, settingsFlagFile)], {
    env: cleanEnv({
      OUT: dir,
      PROJECT_SETTINGS: template,
      HOOK_MODE: modeDir,
      HOOK_SH: hookScript(),
      CLAUDE_TIMEOUT: String(Math.ceil(timeoutMs / 1000)),
      ...scenario.env,
    }),
    timeoutMs: timeoutMs + 30_000,
  })
  return { code, stdout, stderr }
}

/** Runs a scenario through the real Claude Code in `<root>/claude/<name>/` and returns the normalized result. */
export async function runClaudeScenario(scenario, root) {
  const dir = join(root, 'claude', scenario.name)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const layout = caseLayout(dir)
  writeModes(scenario, layout)
  let template = 'none'
  if (scenario.hooks) {
    template = join(dir, 'settings.template.json')
    writeFileSync(template, settingsTemplate(scenario.hooks))
  }
  const settingsFlagFile = writeSettingsFlag(scenario, layout)
  const modeDir = modeDirFor(scenario, layout)
  const started = Date.now()
  const run = await runCli(dir, scenario, { modeDir, template, settingsFlagFile, timeoutMs: scenario.timeoutMs })
  const result = normalizeClaudeRun(scenario, layout, modeDir)
  result.info.durationMs = Date.now() - started
  const rc = /^rc=(\d+)/.exec(readText(join(layout.run, 'rc')))?.[1]
  if (run.code !== 0) result.error = `run-cli.sh exited ${run.code}: ${lastLines(run.stderr || run.stdout, 3)}`
  else if (rc !== '0') result.error = `claude exited ${rc ?? '(no rc file)'}: ${lastLines(readText(join(layout.run, 'stderr')), 3)}`
  return result
}

/** Reads a finished run back: `<case>/run` (hook.sh captures, server/, stream.jsonl). */
export function normalizeClaudeRun(scenario, layout, modeDir) {
  const pathMap = casePathMap(layout, modeDir)
  const labeler = new Labeler()
  const hookCalls = normalizeHookCalls(collectHookCalls(layout.run), pathMap, labeler)
  const all = readClaudeRequests(layout.run)
  const main = all.filter((r) => r.main)
  let ignored = 0
  const lists = main.map((r) => {
    const { items, ignored: n } = claudeRequestItems(r.body, pathMap, scenario.rendering)
    ignored += n
    return items
  })
  const { result, notifications } = readClaudeStream(layout.run)
  const outcome = claudeOutcome(result)
  if (outcome.reason) outcome.reason = normalizePaths(outcome.reason, pathMap)
  const requests = requestDeltas(lists)
  return {
    scenario: scenario.name,
    side: 'claude',
    rendering: scenario.rendering,
    hookCalls,
    requests,
    hookTexts: hookTexts(requests),
    outcome,
    info: {
      model: main[0]?.body?.model,
      requestNumbers: main.map((r) => r.n),
      sideRequests: all.filter((r) => !r.main).map((r) => r.n),
      ignoredClaudeItems: ignored,
      notifications: notifications.map((t) => normalizePaths(String(t), pathMap)),
      caseDir: layout.dir,
    },
  }
}
