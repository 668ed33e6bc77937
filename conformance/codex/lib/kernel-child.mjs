// Runs one scenario on our kernel with the Codex dialect, in its own process (own cwd and env, so
// the hooks see HOOK_OUT/HOOK_RESP and nothing else of the suite). Started by kernel-runner.mjs.
// Usage: node kernel-child.mjs <job.json>; writes job.resultFile.
import { readFileSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const result = { turns: [], error: null }
const save = () => writeFileSync(job.resultFile, `${JSON.stringify(result, null, 2)}\n`)

try {
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
  try {
    const session = await kernel.startSession()
    result.sessionId = session.id
    result.transcriptPath = session.transcriptPath
    for (const prompt of job.turns) {
      const turn = await session.run(prompt)
      result.turns.push({ status: turn.status, lastAssistantMessage: turn.lastAssistantMessage, reason: turn.reason, error: turn.error })
    }
    await session.end()
  } finally {
    await kernel.dispose()
  }
} catch (error) {
  result.error = String(error?.stack ?? error)
}
save()
process.exit(0)
