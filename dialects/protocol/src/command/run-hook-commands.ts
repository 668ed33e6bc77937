import type { ProcessRunner, ProcessRunOptions, ProcessRunResult } from '@harness-kernel/kernel'
import type { HookCommandResult, HookCommandSpec } from './hook-command.js'

/**
 * Launches every command at once and waits for all of them. Results come back in input order; `completionIndex` records the
 * finish order (Codex takes `updatedInput` from the handler that finished last).
 */
export async function runHookCommands(runner: ProcessRunner, specs: readonly HookCommandSpec[]): Promise<HookCommandResult[]> {
  let finished = 0
  return Promise.all(
    specs.map(async (spec) => {
      const startedAt = Date.now()
      const result = await runSafely(runner, spec)
      return { ...result, startedAt, completedAt: Date.now(), completionIndex: finished++ }
    }),
  )
}

/** Runs one command; `completionIndex` is 0. */
export async function runHookCommand(runner: ProcessRunner, spec: HookCommandSpec): Promise<HookCommandResult> {
  const [result] = await runHookCommands(runner, [spec])
  return result!
}

export function hookCommandRunOptions(spec: HookCommandSpec): ProcessRunOptions {
  const options: ProcessRunOptions = {
    command: spec.command,
    shell: spec.shell,
    cwd: spec.cwd,
    stdin: spec.stdin,
    timeoutMs: spec.timeoutMs,
  }
  if (spec.args !== undefined) options.args = spec.args
  if (spec.env !== undefined) options.env = spec.env
  if (spec.extendEnv !== undefined) options.extendEnv = spec.extendEnv
  if (spec.signal !== undefined) options.signal = spec.signal
  if (spec.maxOutputBytes !== undefined) options.maxOutputBytes = spec.maxOutputBytes
  if (spec.killGraceMs !== undefined) options.killGraceMs = spec.killGraceMs
  return options
}

/** A runner that throws must not lose the other handlers' results: its failure becomes a spawn error. */
async function runSafely(runner: ProcessRunner, spec: HookCommandSpec): Promise<ProcessRunResult> {
  const started = performance.now()
  try {
    return await runner.run(hookCommandRunOptions(spec))
  } catch (error) {
    return {
      exitCode: null,
      signal: null,
      stdout: '',
      stderr: '',
      stdoutBytes: 0,
      stderrBytes: 0,
      stdoutTruncated: false,
      stderrTruncated: false,
      timedOut: false,
      aborted: spec.signal?.aborted ?? false,
      durationMs: performance.now() - started,
      pid: undefined,
      spawnError: error instanceof Error ? error.message : String(error),
    }
  }
}
