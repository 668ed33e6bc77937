import { constants } from 'node:os'
import { resolve } from 'node:path'
import type { ProcessRunResult } from '@harness-kernel/kernel'
import { z } from 'zod'
import { sandboxPolicyNames, sandboxPolicyOf, sandboxPolicySchema } from '../guardrails-params.js'
import { named, parseParams } from '../params.js'
import { INTERNAL_ERROR, invalidRequest, RpcError } from '../rpc-errors.js'
import {
  CommandExecRegistry,
  type CommandExecSpec,
  DEFAULT_OUTPUT_BYTES_CAP,
  DEFAULT_TIMEOUT_MS,
  type DeltaSink,
} from './command-exec-session.js'
import type { MethodContext, MethodHandler } from './method-context.js'
import { invalidParams } from './method-params.js'

/** Codex's exit code for a command its timeout ended (`timeout`'s). */
const TIMEOUT_EXIT_CODE = 124

const sizeSchema = z.object({ rows: z.number().int(), cols: z.number().int() })
const execParamsSchema = z.object({
  command: z.array(z.string()),
  processId: z.string().nullish(),
  tty: z.boolean().nullish(),
  streamStdin: z.boolean().nullish(),
  streamStdoutStderr: z.boolean().nullish(),
  outputBytesCap: z.number().int().nonnegative().nullish(),
  disableOutputCap: z.boolean().nullish(),
  disableTimeout: z.boolean().nullish(),
  timeoutMs: z.number().int().nullish(),
  cwd: z.string().nullish(),
  env: z.record(z.string(), z.string().nullable()).nullish(),
  size: sizeSchema.nullish(),
  sandboxPolicy: sandboxPolicySchema.nullish(),
})
named(execParamsSchema, sandboxPolicyNames('sandboxPolicy'))
const writeParamsSchema = z.object({ processId: z.string(), deltaBase64: z.string().nullish(), closeStdin: z.boolean().nullish() })
const terminateParamsSchema = z.object({ processId: z.string() })
const resizeParamsSchema = z.object({ processId: z.string(), size: sizeSchema })

const registries = new WeakMap<MethodContext, CommandExecRegistry>()

/** The running commands of this server's connection. */
function registryFor(context: MethodContext): CommandExecRegistry {
  let registry = registries.get(context)
  if (!registry) {
    registry = new CommandExecRegistry(context.connectionClosed)
    registries.set(context, registry)
  }
  return registry
}

/**
 * `command/exec`: runs an argv through the kernel's `processRunner` (no shell, no PTY) inside the kernel's `sandbox`
 * under `sandboxPolicy` (default: the server's default policy's) with the command's cwd as workspace, and answers when
 * it exits with `{exitCode, stdout, stderr}`. Where the sandbox cannot run, nothing runs: the answer is an error that
 * says why. With `streamStdoutStderr`, output goes out as `command/exec/outputDelta`
 * while it runs (and is left out of the answer); with `streamStdin`, `command/exec/write` feeds its stdin.
 */
async function commandExec(params: unknown, context: MethodContext) {
  const parsed = parseParams(execParamsSchema, params)
  const processId = parsed.processId ?? undefined
  if (processId === undefined && (parsed.tty || parsed.streamStdin || parsed.streamStdoutStderr)) {
    throw invalidRequest('command/exec tty or streaming requires a client-supplied processId')
  }
  if (parsed.size && !parsed.tty) throw invalidParams('command/exec size requires tty: true')
  if (parsed.timeoutMs !== undefined && parsed.timeoutMs !== null && parsed.disableTimeout) {
    throw invalidParams('command/exec cannot set both timeoutMs and disableTimeout')
  }
  if (parsed.outputBytesCap !== undefined && parsed.outputBytesCap !== null && parsed.disableOutputCap) {
    throw invalidParams('command/exec cannot set both outputBytesCap and disableOutputCap')
  }
  if (parsed.timeoutMs !== undefined && parsed.timeoutMs !== null && parsed.timeoutMs < 0) {
    throw invalidParams(`command/exec timeoutMs must be non-negative, got ${parsed.timeoutMs}`)
  }
  if (parsed.tty) {
    throw invalidRequest(
      'command/exec tty is not supported: the harness runs commands through its process runner, which has no PTY (use streamStdin and streamStdoutStderr)',
    )
  }
  const policy = parsed.sandboxPolicy
    ? sandboxPolicyOf(parsed.sandboxPolicy, 'command/exec sandboxPolicy')
    : context.defaultPolicy().sandbox
  const [program, ...args] = parsed.command
  if (program === undefined) throw invalidRequest('command must not be empty')

  const kernel = await context.kernel()
  const delta: DeltaSink | undefined =
    parsed.streamStdoutStderr && processId !== undefined
      ? (stream, bytes, capReached) =>
          context.channel.notify('command/exec/outputDelta', {
            processId,
            stream,
            deltaBase64: Buffer.from(bytes).toString('base64'),
            capReached,
          })
      : undefined
  const spec: CommandExecSpec = {
    processId,
    streamStdin: parsed.streamStdin === true,
    delta,
    outputBytesCap: parsed.disableOutputCap ? Number.POSITIVE_INFINITY : (parsed.outputBytesCap ?? DEFAULT_OUTPUT_BYTES_CAP),
  }
  const timeoutMs = parsed.disableTimeout ? undefined : Math.max(parsed.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1)
  const env = parsed.env ? Object.fromEntries(Object.entries(parsed.env).map(([name, value]) => [name, value ?? undefined])) : undefined
  const cwd = resolve(kernel.cwd, parsed.cwd ?? '.')
  const runner = kernel.resolve('sandbox').runner({ policy, cwd, inner: kernel.resolve('processRunner') })
  const registry = registryFor(context)
  const session = registry.start(spec)
  let sawOutput = false
  let result: ProcessRunResult
  try {
    result = await runner.run({
      command: program,
      args,
      cwd,
      ...(env ? { env } : {}),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      signal: session.signal,
      onOutput: (stream, chunk) => {
        sawOutput = true
        session.output(stream, chunk)
      },
      onStdin: (stdin) => session.attach(stdin),
    })
  } finally {
    registry.finish(session)
  }
  if (result.spawnError !== undefined) throw new RpcError(INTERNAL_ERROR, `failed to spawn command: ${result.spawnError}`)
  if (!sawOutput) {
    // A process runner that streams nothing: its own capture stands in, as one chunk per stream.
    if (result.stdout !== '') session.output('stdout', Buffer.from(result.stdout))
    if (result.stderr !== '') session.output('stderr', Buffer.from(result.stderr))
  }
  return { exitCode: exitCode(result), stdout: session.stdout.text(), stderr: session.stderr.text() }
}

/** The exit code as a shell reports it: a timeout is 124 (as Codex's), a signal 128 + its number. */
function exitCode(result: ProcessRunResult): number {
  if (result.timedOut) return TIMEOUT_EXIT_CODE
  if (result.exitCode !== null) return result.exitCode
  const signal = result.signal === null ? undefined : constants.signals[result.signal as NodeJS.Signals]
  return signal === undefined ? -1 : 128 + signal
}

/** `command/exec/write`: base64 bytes to a running command's stdin (`streamStdin`), and/or end of file. */
async function commandExecWrite(params: unknown, context: MethodContext) {
  const parsed = parseParams(writeParamsSchema, params)
  const base64 = parsed.deltaBase64 ?? undefined
  if (base64 === undefined && !parsed.closeStdin) throw invalidParams('command/exec/write requires deltaBase64 or closeStdin')
  const bytes = base64 === undefined ? new Uint8Array() : decodeBase64(base64)
  await registryFor(context)
    .get(parsed.processId)
    .write(bytes, parsed.closeStdin === true)
  return {}
}

/** `command/exec/terminate`: kills the command (its process group: SIGTERM, then SIGKILL); its `command/exec` then answers. */
function commandExecTerminate(params: unknown, context: MethodContext) {
  const parsed = parseParams(terminateParamsSchema, params)
  registryFor(context).get(parsed.processId).terminate()
  return {}
}

/**
 * `command/exec/resize`: no command here has a PTY (`tty` is refused), so a resize gets Codex's own answer for a
 * process without one, after the same checks of its params.
 */
function commandExecResize(params: unknown, context: MethodContext) {
  const parsed = parseParams(resizeParamsSchema, params)
  if (parsed.size.rows <= 0 || parsed.size.cols <= 0) throw invalidParams('command/exec size rows and cols must be greater than 0')
  registryFor(context).get(parsed.processId)
  throw invalidRequest('failed to resize PTY: process is not attached to a PTY')
}

/** Strict standard base64 (Node's decoder skips what it does not know), refused in the words of Codex's decoder. */
function decodeBase64(text: string): Uint8Array {
  const invalid = text.search(/[^A-Za-z0-9+/=]/)
  if (invalid >= 0) throw invalidParams(`invalid deltaBase64: Invalid symbol ${text.charCodeAt(invalid)}, offset ${invalid}.`)
  if (text.length % 4 !== 0 || /=[^=]/.test(text)) throw invalidParams('invalid deltaBase64: Invalid padding')
  return Buffer.from(text, 'base64')
}

export const COMMAND_EXEC_METHODS: Readonly<Record<string, MethodHandler>> = {
  'command/exec': commandExec,
  'command/exec/write': commandExecWrite,
  'command/exec/terminate': commandExecTerminate,
  'command/exec/resize': commandExecResize,
}
