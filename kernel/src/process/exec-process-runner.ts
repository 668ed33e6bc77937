import type { ProcessRunner, ProcessRunOptions, ProcessRunResult } from '../process-runner.js'
import { type RunnerSettings, runnerSettings, runProcess } from './run-process.js'

export interface ExecProcessRunnerOptions {
  /** After the main process exits, how long its pipes may stay open before the rest of its group is killed. Default 100 ms. */
  pipeGraceMs?: number
  /** Used when a run sets no `maxOutputBytes`. Default 1 MiB. */
  maxOutputBytes?: number
  /** Used when a run sets no `killGraceMs`. Default 2000 ms. */
  killGraceMs?: number
}

/**
 * The in-process `processRunner`: `child_process.spawn` from this process, one process group per child, the whole group
 * killed on timeout, abort, and once the main process has exited (so no background child outlives the run). The
 * kernel's default, `LauncherProcessRunner`, makes the same runs from a small child process of its own.
 */
export class ExecProcessRunner implements ProcessRunner {
  readonly #settings: RunnerSettings

  constructor(options: ExecProcessRunnerOptions = {}) {
    this.#settings = runnerSettings(options)
  }

  run(options: ProcessRunOptions): Promise<ProcessRunResult> {
    return runProcess(options, this.#settings)
  }
}
