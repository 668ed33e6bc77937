import { ExecProcessRunner, type ExecProcessRunnerOptions } from '../../src/process/exec-process-runner.js'
import { LauncherProcessRunner } from '../../src/process/launcher/launcher-process-runner.js'
import { ProcessLauncher } from '../../src/process/launcher/process-launcher.js'
import type { ProcessRunner } from '../../src/process-runner.js'

export interface RunnerVariant {
  name: string
  runner: ProcessRunner
}

/** The launcher the test file's launcher runs go through (its own, so a test may end it), and why it fell back, if it did. */
export const testLauncher = new ProcessLauncher()
export const launcherFallbacks: string[] = []

/**
 * The runners a runner test runs against (`describe.each`): `ExecProcessRunner` in this process, and
 * `LauncherProcessRunner` through `testLauncher`, which must not fall back (`launcherFallbacks` stays empty).
 */
export function processRunners(options: ExecProcessRunnerOptions = {}): RunnerVariant[] {
  return [
    { name: 'ExecProcessRunner', runner: new ExecProcessRunner(options) },
    {
      name: 'LauncherProcessRunner',
      runner: new LauncherProcessRunner({ ...options, launcher: testLauncher, onFallback: (reason) => launcherFallbacks.push(reason) }),
    },
  ]
}

/** The processes a run's child may have for parent: this one, or the test launcher. */
export function runnerParents(): number[] {
  return testLauncher.pid === undefined ? [process.pid] : [process.pid, testLauncher.pid]
}
