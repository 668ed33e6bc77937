// Runs one scenario on our kernel with the Codex dialect, in its own process (own cwd and env, so
// the hooks see HOOK_OUT/HOOK_RESP and nothing else of the suite). Started by kernel-runner.mjs.
// Usage: node kernel-child.mjs <job.json>; writes job.resultFile.
import { pathToFileURL } from 'node:url'
import { kernelChild, runTurns } from '../../lib/kernel-child.mjs'

await kernelChild(async (job, result) => {
  const { createKernel } = await import('@harness-kernel/kernel')
  const { scriptedModel } = await import('@harness-kernel/scripted-model')
  const { tools } = await import('@harness-kernel/tools')
  const { codexHooks } = await import(job.dialectModule ? pathToFileURL(job.dialectModule).href : '@harness-kernel/codex')
  const kernel = createKernel(
    [
      scriptedModel({ script: job.steps, recordTo: job.recordTo }),
      tools(),
      codexHooks({ codexHome: job.codexHome, trust: 'all', model: job.model }),
    ],
    // Codex has no Stop-continuation cap (codex-hooks.md §10.1)
    { cwd: job.cwd, sessionsDir: job.sessionsDir, maxStopContinuations: Number.POSITIVE_INFINITY },
  )
  await runTurns(kernel, job.turns, result)
})
