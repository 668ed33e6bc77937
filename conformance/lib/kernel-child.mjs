// The frame of a suite's kernel child (its lib/kernel-child.mjs): one scenario on our kernel, in
// its own process, started by the suite's kernel runner with `node kernel-child.mjs <job.json>`.
import { readFileSync, writeFileSync } from 'node:fs'

/**
 * Reads the job, runs `work(job, result)`, catching its error (the stack into `result.error`), then `after(job, result)`;
 * writes `result` to `job.resultFile` and exits 0.
 * @param {(job: object, result: { turns: object[], error: string | null }) => Promise<void>} work
 * @param {(job: object, result: object) => Promise<void>} [after]
 */
export async function kernelChild(work, after) {
  const job = JSON.parse(readFileSync(process.argv[2], 'utf8'))
  const result = { turns: [], error: null }
  try {
    await work(job, result)
  } catch (error) {
    result.error = String(error?.stack ?? error)
  }
  if (after) await after(job, result)
  writeFileSync(job.resultFile, `${JSON.stringify(result, null, 2)}\n`)
  process.exit(0)
}

/**
 * One session on `kernel`, one turn per prompt; each turn's status, last message, reason and error into `result.turns`
 * (and the session's id and log into `result`). Ends the session and disposes the kernel. A `{ compact: { instructions? } }`
 * entry instead of a prompt is a manual compaction (`session.compact()`); what it came to goes into `result.compactions`.
 */
export async function runTurns(kernel, prompts, result) {
  try {
    const session = await kernel.startSession()
    result.sessionId = session.id
    result.transcriptPath = session.transcriptPath
    for (const prompt of prompts) {
      if (typeof prompt === 'object' && prompt !== null && prompt.compact) {
        result.compactions ??= []
        result.compactions.push(await session.compact(prompt.compact === true ? {} : prompt.compact))
        continue
      }
      const turn = await session.run(prompt)
      result.turns.push({ status: turn.status, lastAssistantMessage: turn.lastAssistantMessage, reason: turn.reason, error: turn.error })
    }
    await session.end()
  } finally {
    await kernel.dispose()
  }
}
