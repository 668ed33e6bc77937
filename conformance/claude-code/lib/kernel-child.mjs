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

/** The kernel's guardrails as `claude -p` has them: none (Claude Code's permission rules and modes are the dialect's). */
const CLAUDE_P_GUARDRAILS = { sandbox: 'danger-full-access', approvals: 'never' }

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
        permissionMode: job.permissionMode ?? undefined,
        additionalDirectories: job.additionalDirectories,
        effort: job.effort ?? undefined,
        model: job.model,
      })
      // as `claude -p`: no OS sandbox and no second approval layer (the kernel's default would sandbox commands and ask
      // before a forced `rm`); the dialect's permission engine is the only one, as Claude Code's is
      const plugins = [directiveModel({ recordTo }), tools(CLAUDE_P_GUARDRAILS), hooks]
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
