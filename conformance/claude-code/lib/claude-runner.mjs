// The real side: one `shared/real-clients/claude-code/run-cli.sh` run per scenario, normalized.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readText } from '../../lib/files.mjs'
import { lastLines, runProcess } from '../../lib/process.mjs'
import { claudeOutcome, collectHookCalls, readClaudeRequests, readClaudeStream } from './capture.mjs'
import {
  caseLayout,
  casePathMap,
  expandPlaceholders,
  modeDirFor,
  settingsTemplate,
  writeCaseFiles,
  writeMcpJson,
  writeModes,
  writeSettingsFlag,
} from './case.mjs'
import { CLASSIC_MODEL, claudeSandboxBin, hookScript, runCliScript, scriptEnv } from './env.mjs'
import { claudeRequestItems, hookTexts, Labeler, normalizeHookCalls, normalizePaths, splitConversations } from './normalize.mjs'

/** The permission-mode arguments: `permissionMode` (null: none), else `bypass` (--dangerously-skip-permissions). */
export function modeArgs(scenario) {
  if (scenario.permissionMode === null) return []
  if (scenario.permissionMode !== undefined) return ['--permission-mode', scenario.permissionMode]
  return scenario.bypass ? ['--dangerously-skip-permissions'] : []
}

/** The `claude -p` arguments of a scenario (after the prompt). */
export function claudeArgs(scenario, settingsFlagFile, layout) {
  return [
    ...modeArgs(scenario),
    ...scenario.addDirs.flatMap((d) => ['--add-dir', expandPlaceholders(d, layout)]),
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
export async function runCli(
  dir,
  scenario,
  { modeDir, template, settingsFlagFile, timeoutMs, run = 'run', prompt = scenario.prompt, extraArgs = [] },
) {
  const layout = caseLayout(dir)
  // `claudeSandboxPath`: bwrap and socat for Claude Code's sandbox, first on PATH (checked by runClaudeScenario)
  const sandboxPath = scenario.claudeSandboxPath ? { PATH: `${claudeSandboxBin().dir}:${process.env.PATH ?? ''}` } : {}
  const args = [run, expandPlaceholders(prompt, layout), ...claudeArgs(scenario, settingsFlagFile, layout), ...extraArgs]
  const { code, stdout, stderr } = await runProcess(runCliScript(), args, {
    env: scriptEnv({
      OUT: dir,
      PROJECT_SETTINGS: template,
      HOOK_MODE: modeDir,
      HOOK_SH: hookScript(),
      CLAUDE_TIMEOUT: String(Math.ceil(timeoutMs / 1000)),
      ...sandboxPath,
      ...scenario.env,
    }),
    timeoutMs: timeoutMs + 30_000,
  })
  return { code, stdout, stderr }
}

/** Runs a scenario through the real Claude Code in `<root>/claude/<name>/` and returns the normalized result. */
export async function runClaudeScenario(scenario, root) {
  // a sandbox scenario without bwrap/socat for Claude Code: its real side is skipped (`--saved` still compares the kernel)
  if (scenario.claudeSandboxPath) {
    const bin = claudeSandboxBin()
    if (!bin.ok)
      return {
        scenario: scenario.name,
        side: 'claude',
        rendering: scenario.rendering,
        skipped: `Claude Code's sandbox needs bwrap and socat: ${bin.reason}; \`--saved\` compares the kernel with expected/`,
        hookCalls: [],
        requests: [],
        info: {},
      }
  }
  const dir = join(root, 'claude', scenario.name)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const layout = caseLayout(dir)
  writeModes(scenario, layout)
  let template = 'none'
  if (scenario.hooks) {
    template = join(dir, 'settings.template.json')
    writeFileSync(template, settingsTemplate(scenario.hooks, scenario.settingsExtra))
  }
  writeMcpJson(scenario, layout)
  writeCaseFiles(scenario, layout)
  const settingsFlagFile = writeSettingsFlag(scenario, layout)
  const modeDir = modeDirFor(scenario, layout)
  const started = Date.now()
  const run = await runCli(dir, scenario, { modeDir, template, settingsFlagFile, timeoutMs: scenario.timeoutMs })
  let error = runError(run, layout.run)
  // `compactAfter`: a second process, `claude -p "/compact <instructions>" --resume <session>`, in <case>/compact
  if (!error && scenario.compactAfter !== undefined) {
    const sessionId = readClaudeStream(layout.run).init?.session_id
    const compact = await runCli(dir, scenario, {
      modeDir,
      template,
      settingsFlagFile,
      timeoutMs: scenario.timeoutMs,
      run: 'compact',
      prompt: `/compact ${scenario.compactAfter}`.trim(),
      extraArgs: ['--resume', String(sessionId)],
    })
    error = runError(compact, compactRunDir(layout))
  }
  const result = normalizeClaudeRun(scenario, layout, modeDir)
  result.info.durationMs = Date.now() - started
  if (scenario.claudeSandboxPath) removeClaudeTmpDir(layout)
  if (error) result.error = error
  return result
}

/**
 * Claude Code's per-project folder in its temporary folder, `/tmp/claude-<uid>/<project path, each non-alphanumeric
 * character as "-">` (its sandbox's `$TMPDIR` lives there): removed after a sandbox scenario, so runs leave nothing behind.
 */
function removeClaudeTmpDir(layout) {
  const uid = process.getuid?.() ?? 0
  rmSync(join('/tmp', `claude-${uid}`, layout.proj.replace(/[^A-Za-z0-9]/g, '-')), { recursive: true, force: true })
}

/** Where the `compactAfter` process of a scenario records (beside `<case>/run`). */
export const compactRunDir = (layout) => join(layout.dir, 'compact')

function runError(run, runDir) {
  const rc = /^rc=(\d+)/.exec(readText(join(runDir, 'rc')))?.[1]
  if (run.code !== 0) return `run-cli.sh exited ${run.code}: ${lastLines(run.stderr || run.stdout, 3)}`
  if (rc !== '0') return `claude exited ${rc ?? '(no rc file)'}: ${lastLines(readText(join(runDir, 'stderr')), 3)}`
  return undefined
}

/** Reads a finished run back: `<case>/run` (hook.sh captures, server/, stream.jsonl). */
export function normalizeClaudeRun(scenario, layout, modeDir) {
  const pathMap = casePathMap(layout, modeDir)
  const labeler = new Labeler()
  // a `compactAfter` process's hook calls follow the first one's (its model requests are the compaction's: not compared)
  const runDirs = scenario.compactAfter !== undefined ? [layout.run, compactRunDir(layout)] : layout.run
  // `failureOutput`: a failed call's output is compared too (the sandbox's refusals are in it)
  const options = { failureOutput: scenario.failureOutput }
  const hookCalls = normalizeHookCalls(collectHookCalls(runDirs), pathMap, labeler, options)
  const all = readClaudeRequests(layout.run)
  const main = all.filter((r) => r.main)
  let ignored = 0
  const lists = main.map((r) => {
    const { items, ignored: n } = claudeRequestItems(r.body, pathMap, scenario.rendering, options)
    ignored += n
    return { conversation: r.agent, items }
  })
  const { result, notifications } = readClaudeStream(layout.run)
  const outcome = claudeOutcome(result)
  if (outcome.reason) outcome.reason = normalizePaths(outcome.reason, pathMap)
  // a subagent's requests are a conversation of their own (compared within it)
  const { main: requests, subagents } = splitConversations(lists, null)
  return {
    scenario: scenario.name,
    side: 'claude',
    rendering: scenario.rendering,
    hookCalls,
    requests,
    ...(subagents.length ? { subagentRequests: subagents } : {}),
    hookTexts: hookTexts(requests),
    outcome,
    info: {
      model: main[0]?.body?.model,
      requestNumbers: main.filter((r) => r.agent === null).map((r) => r.n),
      sideRequests: all.filter((r) => !r.main).map((r) => r.n),
      ignoredClaudeItems: ignored,
      notifications: notifications.map((t) => normalizePaths(String(t), pathMap)),
      caseDir: layout.dir,
    },
  }
}
