import { isAbsolute, resolve } from 'node:path'
import type { ProcessOutputStream, ProcessRunner, ProcessRunOptions, ProcessRunResult } from '../../process-runner.js'
import { childEnv } from '../command-line.js'
import { ExecProcessRunner, type ExecProcessRunnerOptions } from '../exec-process-runner.js'
import { signalGroup } from '../process-group.js'
import { type RunnerSettings, runnerSettings } from '../run-process.js'
import { unknownOutcome } from '../unknown-outcome.js'
import type { LaunchedRun, RunControl } from './launcher-protocol.js'
import { ProcessLauncher } from './process-launcher.js'
import { RemoteStdin } from './remote-stdin.js'

export interface LauncherProcessRunnerOptions extends ExecProcessRunnerOptions {
  /** The launcher the runs go through. Default the process's own, shared by every such runner (`ProcessLauncher.shared()`). */
  launcher?: ProcessLauncher
  /** Told once, with the reason, when runs go through the in-process runner because no launcher can start. */
  onFallback?: (reason: string) => void
}

/**
 * The kernel's default `processRunner`: `ExecProcessRunner`'s runs, made by a small long-lived child process (the
 * process launcher, `launcher-main.ts`) instead of the kernel. Node forks the whole process for every spawn, on the main
 * thread, at a cost that grows with the process's memory; the launcher stays small, so starting a command costs the
 * same whatever the kernel holds. The environment is resolved here, as the run is made. Where no launcher can start,
 * the runs are the in-process runner's; a launcher that dies fails the runs it had started (their groups killed),
 * sends the others to a new one once, and the next run starts a new one.
 */
export class LauncherProcessRunner implements ProcessRunner {
  readonly #settings: RunnerSettings
  readonly #launcher: ProcessLauncher
  readonly #inProcess: ExecProcessRunner
  readonly #onFallback: ((reason: string) => void) | undefined
  #fellBack = false

  constructor(options: LauncherProcessRunnerOptions = {}) {
    this.#settings = runnerSettings(options)
    this.#launcher = options.launcher ?? ProcessLauncher.shared()
    this.#inProcess = new ExecProcessRunner(this.#settings)
    this.#onFallback = options.onFallback
  }

  run(options: ProcessRunOptions): Promise<ProcessRunResult> {
    return new Promise((resolve) => this.#launch(options, resolve, { startedAt: performance.now(), retried: false }))
  }

  #launch(options: ProcessRunOptions, resolve: (result: ProcessRunResult | Promise<ProcessRunResult>) => void, attempt: Attempt): void {
    const { signal } = options
    // Nothing is started: the in-process runner answers at once.
    if (signal?.aborted) {
      resolve(this.#inProcess.run(options))
      return
    }
    let pid: number | undefined
    let stdin: RemoteStdin | undefined
    const stopped = new Set<ProcessOutputStream>()
    const durationMs = () => performance.now() - attempt.startedAt
    const onAbort = () => send?.({ type: 'abort' })
    const settle = (result: ProcessRunResult) => {
      signal?.removeEventListener('abort', onAbort)
      stdin?.close()
      resolve(result)
    }
    const send: ((control: RunControl) => void) | undefined = this.#launcher.launch(
      {
        run: launchedRun(options),
        ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
        settings: this.#settings,
        output: options.onOutput !== undefined,
        keepStdinOpen: options.onStdin !== undefined,
      },
      {
        started: (startedPid, startTicks) => {
          pid = startedPid
          ignoreThrown(() => options.onStart?.(startedPid, startTicks === undefined ? {} : { startTicks }))
          const { onStdin } = options
          if (onStdin === undefined) return
          const handle = new RemoteStdin(startedPid, (control) => send?.(control))
          stdin = handle
          ignoreThrown(() => onStdin(handle))
        },
        output: (stream, chunk) => {
          if (stopped.has(stream)) return
          const stop = () => {
            if (stopped.has(stream)) return
            stopped.add(stream)
            send?.({ type: 'output-stop', stream })
          }
          ignoreThrown(() => options.onOutput?.(stream, chunk, stop))
        },
        stdinWritten: (write, error) => stdin?.written(write, error),
        // What JSON leaves out when undefined is there again.
        result: (result) => settle({ ...result, pid: result.pid, durationMs: durationMs() }),
        lost: (cause) => {
          if (pid !== undefined) {
            // Its outcome is gone with the launcher; the group must not outlive the run, as it never does.
            signalGroup(pid, 'SIGKILL')
            const reason = `${cause} while the command ran (its process group ${pid} was killed)`
            settle(unknownOutcome({ reason, pid, durationMs: durationMs(), aborted: signal?.aborted ?? false }))
          } else if (attempt.retried) {
            settle(unknownOutcome({ reason: `${cause} before the command started`, durationMs: durationMs() }))
          } else {
            signal?.removeEventListener('abort', onAbort)
            this.#launch(options, resolve, { ...attempt, retried: true })
          }
        },
        unavailable: (reason) => {
          signal?.removeEventListener('abort', onAbort)
          resolve(this.#fallBack(options, reason))
        },
      },
    )
    if (send === undefined) resolve(this.#fallBack(options, this.#launcher.unavailable ?? 'no process launcher'))
    else signal?.addEventListener('abort', onAbort, { once: true })
  }

  #fallBack(options: ProcessRunOptions, reason: string): Promise<ProcessRunResult> {
    if (!this.#fellBack) {
      this.#fellBack = true
      ignoreThrown(() => this.#onFallback?.(`commands run in this process, not through the process launcher: ${reason}`))
    }
    return this.#inProcess.run(options)
  }
}

interface Attempt {
  startedAt: number
  /** Sent again already, after a launcher died before starting it. */
  retried: boolean
}

/**
 * What the launcher needs of a run: no callbacks, the environment as the kernel resolves it now, and a relative cwd
 * made absolute against the kernel's (the launcher's own is the kernel's as it was when the launcher started).
 */
function launchedRun(options: ProcessRunOptions): LaunchedRun {
  const cwd = options.cwd === '' || isAbsolute(options.cwd) ? options.cwd : resolve(options.cwd)
  const run: LaunchedRun = { command: options.command, cwd, env: childEnv(options) }
  if (options.args !== undefined) run.args = [...options.args]
  if (options.shell !== undefined) run.shell = options.shell
  if (options.timeoutMs !== undefined) run.timeoutMs = options.timeoutMs
  if (options.maxOutputBytes !== undefined) run.maxOutputBytes = options.maxOutputBytes
  if (options.killGraceMs !== undefined) run.killGraceMs = options.killGraceMs
  if (options.prestart !== undefined) run.prestart = options.prestart
  return run
}

/** A caller's callback that throws does not fail the run. */
function ignoreThrown(call: () => void): void {
  try {
    call()
  } catch {
    // The caller's exception is not the run's failure.
  }
}
