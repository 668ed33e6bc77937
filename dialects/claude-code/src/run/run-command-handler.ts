import { type HookCommandSpec, runHookCommand } from '@harness-kernel/hook-protocol'
import type { ProcessRunner } from '@harness-kernel/kernel'
import type { CommandHandler } from '../types.js'
import type { HandlerRunOutcome, HandlerRunSpec } from './handler-run.js'
import { hookShell } from './hook-shell.js'
import { substitutePathPlaceholders } from './path-placeholders.js'
import { timeoutText } from './timeout-signal.js'

/**
 * Shell form: `<shell> -c <command>` with the string exactly as configured (the shell expands `${CLAUDE_PROJECT_DIR}`).
 * Exec form (`args` given): `command` spawned directly with `args`, no shell; only the path placeholders are substituted.
 */
export function commandSpecOf(handler: CommandHandler, spec: HandlerRunSpec): HookCommandSpec {
  const common = { cwd: spec.cwd, env: spec.env, stdin: spec.stdin, timeoutMs: spec.timeoutMs, signal: spec.signal }
  if (handler.args === undefined) return { ...common, command: handler.command, shell: hookShell(handler) }
  return {
    ...common,
    command: substitutePathPlaceholders(handler.command, spec.env),
    args: handler.args.map((arg) => substitutePathPlaceholders(arg, spec.env)),
    shell: false,
  }
}

export async function runCommandHandler(
  processRunner: ProcessRunner,
  handler: CommandHandler,
  spec: HandlerRunSpec,
): Promise<HandlerRunOutcome> {
  const result = await runHookCommand(processRunner, commandSpecOf(handler, spec))
  const outcome: HandlerRunOutcome = {
    kind: 'command',
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    timedOut: result.timedOut,
    aborted: result.aborted,
    durationMs: result.durationMs,
  }
  if (result.signal !== null) outcome.signal = result.signal
  const error = commandError(result, spec.timeoutMs)
  if (error !== undefined) outcome.error = error
  return outcome
}

function commandError(
  result: { spawnError?: string | undefined; timedOut: boolean; aborted: boolean; exitCode: number | null; signal: string | null },
  timeoutMs: number,
): string | undefined {
  if (result.spawnError !== undefined) return result.spawnError
  if (result.timedOut) return timeoutText(timeoutMs)
  if (result.aborted) return 'aborted'
  if (result.exitCode === null && result.signal !== null) return `killed by ${result.signal}`
  return undefined
}
