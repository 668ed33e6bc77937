import { readFileSync } from 'node:fs'
import type { ProcessRunner, ProcessRunOptions, ProcessRunResult } from '../process-runner.js'
import { parseProcStat } from './process-group.js'
import type { ProcessLedger } from './process-ledger.js'

/**
 * A session's `processRunner`: the kernel's, with every process group it starts written to the session's ledger until
 * the run is over (the runner has killed what was left of the group by then), so a kernel that dies mid-run leaves a
 * record of what may still be running.
 */
export function recordingProcessRunner(inner: ProcessRunner, ledger: ProcessLedger): ProcessRunner {
  return {
    async run(options: ProcessRunOptions): Promise<ProcessRunResult> {
      let pgid: number | undefined
      const onStart = (pid: number) => {
        pgid = pid
        ledger.started({ pgid: pid, command: commandOf(options), startTicks: startTicksOf(pid) })
        options.onStart?.(pid)
      }
      try {
        return await inner.run({ ...options, onStart })
      } finally {
        if (pgid !== undefined) ledger.ended(pgid)
      }
    },
  }
}

const commandOf = (options: ProcessRunOptions) => [options.command, ...(options.args ?? [])].join(' ')

/** Linux: field 22 of `/proc/<pid>/stat`; undefined elsewhere or when the child is already gone. */
function startTicksOf(pid: number): number | undefined {
  try {
    const ticks = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).startTicks
    return Number.isFinite(ticks) ? ticks : undefined
  } catch {
    return undefined
  }
}
