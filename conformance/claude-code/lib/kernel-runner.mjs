// Our side: the same scenario (same settings, same hook.sh and behaviour scripts, same model
// policy, same prompt) on the kernel with @harness-kernel/claude-code, normalized like the real side.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { readJsonLines } from '../../lib/files.mjs'
import { probeModules, runKernelJob } from '../../lib/kernel-side.mjs'
import { collectHookCalls } from './capture.mjs'
import {
  caseLayout,
  casePathMap,
  expandPlaceholders,
  modeDirFor,
  renderSettings,
  writeCaseFiles,
  writeMcpJson,
  writeModes,
  writeSettingsFlag,
} from './case.mjs'
import { cleanEnv, hookScript, REPO_ROOT } from './env.mjs'
import { hookTexts, kernelRequestItems, Labeler, normalizeHookCalls, normalizePaths, splitConversations } from './normalize.mjs'

const DIALECT_ENTRY = join(REPO_ROOT, 'dialects', 'claude-code', 'dist', 'index.js')
/** CLAUDE_CODE_DIALECT_MODULE=/abs/module.mjs tests another build of the dialect (it must export claudeCodeHooks). */
const dialectModule = () => (process.env.CLAUDE_CODE_DIALECT_MODULE ? resolve(process.env.CLAUDE_CODE_DIALECT_MODULE) : DIALECT_ENTRY)
const MODULES = () => ({
  kernel: ['@harness-kernel/kernel', join(REPO_ROOT, 'kernel', 'dist', 'index.js'), 'createKernel'],
  tools: ['@harness-kernel/tools', join(REPO_ROOT, 'plugins', 'tools', 'dist', 'index.js'), 'tools'],
  dialect: ['@harness-kernel/claude-code', dialectModule(), 'claudeCodeHooks'],
  mcp: ['@harness-kernel/mcp', join(REPO_ROOT, 'plugins', 'mcp', 'dist', 'index.js'), 'mcp'],
  subagents: ['@harness-kernel/subagents', join(REPO_ROOT, 'plugins', 'subagents', 'dist', 'index.js'), 'subagents'],
})

/** @returns {Promise<{ ok: true, dialect: string } | { ok: false, reason: string }>} */
export async function probeKernel() {
  const missing = await probeModules(Object.values(MODULES()))
  if (missing) return missing
  if (!existsSync(hookScript()))
    return { ok: false, reason: `${hookScript()} not found (set REAL_CLIENTS_DIR): both sides run that hook script` }
  return { ok: true, dialect: process.env.CLAUDE_CODE_DIALECT_MODULE ? dialectModule() : '@harness-kernel/claude-code' }
}

/** Runs a scenario on the kernel in `<root>/kernel/<name>/`. */
export async function runKernelScenario(scenario, root) {
  const dir = join(root, 'kernel', scenario.name)
  rmSync(dir, { recursive: true, force: true })
  const layout = caseLayout(dir)
  for (const p of [layout.proj, layout.config, layout.home, layout.run, layout.sessions, layout.harnessHome])
    mkdirSync(p, { recursive: true })
  if (scenario.hooks) {
    mkdirSync(join(layout.proj, '.claude'), { recursive: true })
    writeFileSync(join(layout.proj, '.claude', 'settings.json'), renderSettings(scenario.hooks, scenario.settingsExtra))
  }
  writeMcpJson(scenario, layout)
  writeCaseFiles(scenario, layout)
  const settingsFlagFile = writeSettingsFlag(scenario, layout)
  writeModes(scenario, layout)
  const modeDir = modeDirFor(scenario, layout)
  const job = {
    prompt: expandPlaceholders(scenario.prompt, layout),
    projectDir: layout.proj,
    configDir: layout.config,
    sessionsDir: layout.sessions,
    // the --settings sources of the real run
    settings: settingsFlagFile ? [settingsFlagFile] : [],
    // MCP servers: read with loadClaudeCodeMcpServers (project .mcp.json, user .claude.json), run by mcp()
    mcp: Boolean(scenario.mcpJson),
    // `subagents: true`: subagents({ tools: 'claude-code' }) (Claude Code's Agent tool)
    subagents: scenario.subagents,
    runDir: layout.run,
    rendering: scenario.rendering,
    // `permissionMode` as given (null: none, the settings' defaultMode decides); without one, `bypass` decides
    permissionMode: scenario.permissionMode !== undefined ? scenario.permissionMode : scenario.bypass ? 'bypassPermissions' : 'default',
    // --add-dir
    additionalDirectories: scenario.addDirs.map((d) => expandPlaceholders(d, layout)),
    // Claude's default model has effort "medium"; claude-sonnet-4-5 has none (spec §4, §5)
    effort: scenario.rendering === 'system' ? 'medium' : null,
    // The model Claude Code runs in each rendering, as the dialect should name it (SessionStart(compact)'s `model`)
    model: scenario.rendering === 'system' ? 'claude-opus-5-5' : 'claude-sonnet-4-5-20250929',
    recordTo: join(dir, 'requests.jsonl'),
    // `compactAfter`: a second kernel resumes the session and compacts it (its requests are the compaction's: not compared)
    compactAfter: scenario.compactAfter ?? null,
    compactRecordTo: join(dir, 'requests-compact.jsonl'),
    resultFile: join(dir, 'result.json'),
    modules: Object.fromEntries(Object.entries(MODULES()).map(([k, [, file]]) => [k, file])),
  }
  const result = {
    scenario: scenario.name,
    side: 'kernel',
    rendering: scenario.rendering,
    hookCalls: [],
    requests: [],
    info: { caseDir: dir },
  }
  const run = await runKernelJob(join(import.meta.dirname, 'kernel-child.mjs'), dir, job, {
    cwd: layout.proj,
    // the hook env run-cli.sh gives Claude Code (and so its hooks), minus the fake-server variables
    env: cleanEnv({
      RC_RUN: 'run',
      RC_OUT: layout.run,
      RC_MODE_DIR: modeDir,
      HOME: layout.home,
      CLAUDE_CONFIG_DIR: layout.config,
      HARNESS_HOME: layout.harnessHome,
      ...scenario.env,
    }),
    timeoutMs: scenario.timeoutMs,
  })
  const { child } = run
  result.info.durationMs = run.durationMs
  if (run.error) result.error = run.error

  const pathMap = casePathMap(layout, modeDir)
  const labeler = new Labeler()
  const options = { failureOutput: scenario.failureOutput }
  result.hookCalls = normalizeHookCalls(collectHookCalls(layout.run), pathMap, labeler, options)
  const recorded = readJsonLines(job.recordTo)
  // the main session's requests, then each subagent's (its own session) as a conversation of its own
  const mainSession = child?.sessionId ?? recorded[0]?.sessionId
  const { main, subagents } = splitConversations(
    recorded.map((r) => ({
      conversation: r.sessionId === mainSession ? null : r.sessionId,
      items: kernelRequestItems(r.request, pathMap, scenario.rendering, options).items,
    })),
    null,
  )
  result.requests = main
  if (subagents.length) result.subagentRequests = subagents
  result.hookTexts = hookTexts(result.requests)
  if (child?.compactions)
    result.info.compactions = child.compactions.map((c) => ({
      ...c,
      ...(c.summary ? { summary: normalizePaths(c.summary, pathMap) } : {}),
    }))
  const turn = child?.turns?.[0]
  result.outcome = turn
    ? {
        status: turn.status,
        ...(turn.status === 'blocked' || turn.status === 'halted' ? { reason: normalizePaths(String(turn.reason ?? ''), pathMap) } : {}),
        result: turn.lastAssistantMessage ?? null,
      }
    : { status: 'no-result' }
  result.info.hooksSettled = child?.hooksSettled
  result.info.notices = kernelNotices(child?.transcriptPath, pathMap)
  return result
}

/** The `notice` events of the kernel's session log (user-facing only; informational). */
function kernelNotices(transcriptPath, pathMap) {
  if (!transcriptPath || !existsSync(transcriptPath)) return []
  const out = []
  for (const line of readFileSync(transcriptPath, 'utf8').split('\n')) {
    if (!line) continue
    try {
      const e = JSON.parse(line)
      const body = e.body ?? e
      if (body.type === 'notice') out.push(normalizePaths(`${body.level}: ${body.text}`, pathMap))
    } catch {}
  }
  return out
}
