import type { ProcessRunner, ProcessRunOptions, ProcessRunResult, ProcessStart } from '../process-runner.js'
import { startTicksOf } from './process-group.js'
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
      const onStart = (pid: number, start?: ProcessStart) => {
        pgid = pid
        // A runner that read the start while the child surely ran says so (the launcher: by the time its word arrives
        // here, a quick child may be gone).
        ledger.started({ pgid: pid, command: commandOf(options), startTicks: start?.startTicks ?? startTicksOf(pid) })
        options.onStart?.(pid, start)
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
