// Runs one scenario on our kernel with the Codex dialect, in its own process (own cwd and env, so
// the hooks see HOOK_OUT/HOOK_RESP and nothing else of the suite). Started by kernel-runner.mjs.
// Usage: node kernel-child.mjs <job.json>; writes job.resultFile.
import { pathToFileURL } from 'node:url'
import { kernelChild, runTurns } from '../../lib/kernel-child.mjs'

/**
 * The scripted model, with the usage Codex's answers reported: call `i` reports `usage[i]` total tokens (the fake
 * server's `usage` steps), else the fake server's 15; 5 of them output. So the kernel's compactor sees what Codex saw,
 * and PostModelRequest hooks get counts and a response id per lane, as from the fake server.
 */
function withUsage(model, usage, lane = 'root') {
  let call = 0
  const provider = {
    id: model.id,
    async generate(request, options) {
      const n = call++
      const total = usage[n] ?? 15
      const response = await model.generate(request, options)
      return { ...response, usage: { inputTokens: total - 5, outputTokens: 5 }, id: `resp_${lane}_${n}` }
    },
  }
  return {
    name: 'conformance-scripted-model-usage',
    model: provider,
    setup(kernel) {
      kernel.provide('model', provider, { lifetime: 'kernel' })
    },
  }
}

/**
 * The model by lane, as the fake server answers: the main session's requests get the root script, every other
 * session's (the subagents') the sub script; each call of a lane first waits the `delay` Codex's answer was held.
 */
function laneModel(root, sub, { delays, subDelays }) {
  let mainSession
  const calls = { root: 0, sub: 0 }
  const sleep = (ms) => (ms ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined)
  const provider = {
    id: root.id,
    async generate(request, options) {
      mainSession ??= options?.sessionId
      const lane = options?.sessionId === mainSession ? 'root' : 'sub'
      const i = calls[lane]++
      await sleep((lane === 'root' ? delays : subDelays)[i] ?? 0)
      return (lane === 'root' ? root : sub).generate(request, options)
    },
  }
  return {
    name: 'conformance-lane-model',
    setup(kernel) {
      kernel.provide('model', provider, { lifetime: 'kernel' })
    },
  }
}

await kernelChild(async (job, result) => {
  const { compaction, createKernel, guardrails } = await import('@harness-kernel/kernel')
  const { scriptedModel } = await import('@harness-kernel/scripted-model')
  const { tools } = await import('@harness-kernel/tools')
  const { codexHooks, loadCodexGuardrails, loadCodexMcpServers } = await import(
    job.dialectModule ? pathToFileURL(job.dialectModule).href : '@harness-kernel/codex'
  )
  const scripted = scriptedModel({ script: job.steps, recordTo: job.recordTo })
  let model = withUsage(scripted.model, job.usage)
  if (job.subagents) {
    const sub = scriptedModel({ script: job.subSteps, recordTo: job.subRecordTo })
    model = laneModel(model.model, withUsage(sub.model, [], 'sub').model, job)
  }
  // the sandbox and approval policy of the same config.toml Codex runs with, as `harness run` reads it
  const policy = loadCodexGuardrails({ cwd: job.cwd, codexHome: job.codexHome })
  const plugins = [
    model,
    tools(),
    guardrails({ sandbox: policy.sandbox, approvals: policy.approval, rules: policy.rules }),
    codexHooks({ codexHome: job.codexHome, trust: 'all', model: job.model }),
  ]
  if (job.subagents) {
    const { subagents } = await import('@harness-kernel/subagents')
    plugins.push(subagents({ tools: 'codex' }))
  }
  // the MCP servers of config.toml's [mcp_servers], read as Codex reads them, run by mcp()
  const { servers, warnings } = loadCodexMcpServers({ cwd: job.cwd, codexHome: job.codexHome })
  if (Object.keys(servers).length > 0 || warnings.length > 0) {
    const { mcp } = await import('@harness-kernel/mcp')
    result.mcpServers = Object.keys(servers)
    plugins.push(mcp({ servers, notices: warnings }))
  }
  // Codex's compacted history (the user's messages within 20,000 tokens, then the summary), for manual compactions
  // too; model_auto_compact_token_limit: compact once the last response's total tokens reach the limit
  const codexShape = { retain: 'user-messages', keepTokens: 20_000 }
  plugins.push(
    compaction(job.autoCompactTokenLimit === null ? codexShape : { ...codexShape, contextWindow: job.autoCompactTokenLimit, threshold: 1 }),
  )
  const kernel = createKernel(
    plugins,
    // Codex has no Stop-continuation cap (codex-hooks.md §10.1)
    { cwd: job.cwd, sessionsDir: job.sessionsDir, maxStopContinuations: Number.POSITIVE_INFINITY },
  )
  await runTurns(kernel, job.turns, result)
})
