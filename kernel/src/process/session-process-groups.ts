import type { ProcessRunner, ProcessRunOptions, ProcessRunResult, ProcessStart } from '../process-runner.js'
import { signalGroup, startTicksOf, waitForGroupExit } from './process-group.js'
import type { ProcessLedger } from './process-ledger.js'

/** How long a SIGKILLed group may take to disappear before it is reported as still there. */
const KILL_WAIT_MS = 2000

/**
 * The process groups a session's runs have going. Its `runner` is the session's `processRunner`: the kernel's, with
 * every group it starts written to the session's ledger until the run is over (the runner has killed what was left of
 * the group by then), so a kernel that dies mid-run leaves a record of what may still be running.
 */
export class SessionProcessGroups {
  readonly #ledger: ProcessLedger
  /** Running groups by pgid, with their command lines. */
  readonly #running = new Map<number, string>()
  #ledgerGivenUp = false

  constructor(ledger: ProcessLedger) {
    this.#ledger = ledger
  }

  runner(inner: ProcessRunner): ProcessRunner {
    return { run: (options) => this.#run(inner, options) }
  }

  /**
   * Kills the groups still running, for a session this process lost to another one. That process owns the session's
   * ledger now: it is not written from here on (a late `ended` could remove that process's own records). Returns what
   * became of each group.
   */
  async killRunning(): Promise<string[]> {
    this.#ledgerGivenUp = true
    const outcomes = await Promise.all(
      [...this.#running].map(async ([pgid, command]) => {
        const what = `process group ${pgid} (\`${command.slice(0, 200)}\`)`
        if (!signalGroup(pgid, 'SIGKILL')) return []
        if (await waitForGroupExit(pgid, KILL_WAIT_MS)) return [`killed ${what}`]
        return [`${what} was sent SIGKILL but is still there after ${KILL_WAIT_MS} ms`]
      }),
    )
    return outcomes.flat()
  }

  async #run(inner: ProcessRunner, options: ProcessRunOptions): Promise<ProcessRunResult> {
    let pgid: number | undefined
    const onStart = (pid: number, start?: ProcessStart) => {
      pgid = pid
      const command = commandOf(options)
      this.#running.set(pid, command)
      // A runner that read the start while the child surely ran says so (the launcher: by the time its word arrives
      // here, a quick child may be gone).
      if (!this.#ledgerGivenUp) this.#ledger.started({ pgid: pid, command, startTicks: start?.startTicks ?? startTicksOf(pid) })
      options.onStart?.(pid, start)
    }
    try {
      return await inner.run({ ...options, onStart })
    } finally {
      if (pgid !== undefined) {
        this.#running.delete(pgid)
        if (!this.#ledgerGivenUp) this.#ledger.ended(pgid)
      }
    }
  }
}

const commandOf = (options: ProcessRunOptions) => [options.command, ...(options.args ?? [])].join(' ')
