// Runs one scenario on our kernel with the Claude Code dialect, in its own process: cwd = the
// project, and the hook env of the real run (RC_OUT, RC_MODE_DIR, HOME, CLAUDE_CONFIG_DIR), so the
// hooks see nothing of the suite. Started by kernel-runner.mjs.
// Usage: node kernel-child.mjs <job.json>; writes job.resultFile.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { kernelChild, runTurns } from '../../lib/kernel-child.mjs'
import { directiveModel } from './directive-model.mjs'

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Detached hooks (MessageDisplay) may still run after the session ends: wait until hook.sh logged every end. */
async function hooksSettled(timeline, ms) {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const lines = existsSync(timeline) ? readFileSync(timeline, 'utf8').split('\n') : []
    const starts = lines.filter((l) => / start /.test(l)).length
    const ends = lines.filter((l) => / end /.test(l)).length
    if (starts === ends) return true
    await sleep(50)
  }
  return false
}

/**
 * Stands in for Claude Code's permission engine in default mode (scenario `kernelPolicy: 'ask-shell'`):
 * after the dialect's PreToolUse tap, a shell call that no hook allowed, rewrote or denied needs
 * approval, so `tools/permission-request` (PermissionRequest hooks) runs.
 */
const askShellPolicy = {
  name: 'conformance-ask-shell-policy',
  setup(kernel) {
    kernel.hooks.toolPreExecute.tapPromise('conformance-ask-shell-policy', async (decision, { call }) => {
      if (call.name !== 'shell' || decision.kind !== 'allow' || decision.input !== undefined || decision.halt) return decision
      return {
        kind: 'ask',
        reason: 'a permission prompt would show (Claude Code default mode)',
        ...(decision.context ? { context: decision.context } : {}),
      }
    })
  },
}

await kernelChild(
  async (job, result) => {
    const { createKernel } = await import(pathToFileURL(job.modules.kernel).href)
    const { tools } = await import(pathToFileURL(job.modules.tools).href)
    const { claudeCodeHooks, loadClaudeCodeMcpServers } = await import(pathToFileURL(job.modules.dialect).href)
    const mcp = job.mcp ? (await import(pathToFileURL(job.modules.mcp).href)).mcp : undefined
    const subagents = job.subagents ? (await import(pathToFileURL(job.modules.subagents).href)).subagents : undefined
    // one kernel per Claude Code process: its own model (the fake server restarts its request count too)
    const makeKernel = (recordTo) => {
      const hooks = claudeCodeHooks({
        configDir: job.configDir,
        managedSettingsPath: false,
        settings: job.settings,
        rendering: job.rendering,
        permissionMode: job.permissionMode,
        effort: job.effort ?? undefined,
        model: job.model,
      })
      const plugins = [directiveModel({ recordTo }), tools(), hooks]
      if (job.kernelPolicy === 'ask-shell') plugins.push(askShellPolicy)
      if (subagents) plugins.push(subagents({ tools: 'claude-code' }))
      if (mcp) {
        const { servers, warnings } = loadClaudeCodeMcpServers({ projectDir: job.projectDir, configDir: job.configDir })
        result.mcpServers = Object.keys(servers)
        plugins.push(mcp({ servers, notices: warnings }))
      }
      return createKernel(plugins, { cwd: job.projectDir, sessionsDir: job.sessionsDir })
    }
    await runTurns(makeKernel(job.recordTo), [job.prompt], result)
    // `claude -p "/compact <instructions>" --resume <session>`: the session resumed by a new kernel, then compacted
    if (job.compactAfter !== null) {
      const kernel = makeKernel(job.compactRecordTo)
      try {
        const session = await kernel.resumeSession(result.sessionId)
        result.compactions = [await session.compact(job.compactAfter ? { instructions: job.compactAfter } : {})]
        await session.end()
      } finally {
        await kernel.dispose()
      }
    }
  },
  async (job, result) => {
    result.hooksSettled = await hooksSettled(join(job.runDir, 'timeline'), 5000)
  },
)
