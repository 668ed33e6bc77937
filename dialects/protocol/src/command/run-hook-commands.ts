import type { ProcessRunner, ProcessRunOptions, ProcessRunResult } from '@harness-kernel/kernel'
import { HOOK_TEXT_HEAD_BYTES, HOOK_TEXT_TAIL_BYTES, joinExcerpt } from './cap-hook-text.js'
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
    // A hook's command runs again at its event's next occurrence: its shell can be started before it is needed.
    prestart: true,
  }
  if (spec.args !== undefined) options.args = spec.args
  if (spec.env !== undefined) options.env = spec.env
  if (spec.extendEnv !== undefined) options.extendEnv = spec.extendEnv
  if (spec.signal !== undefined) options.signal = spec.signal
  if (spec.maxOutputBytes !== undefined) options.maxOutputBytes = spec.maxOutputBytes
  if (spec.killGraceMs !== undefined) options.killGraceMs = spec.killGraceMs
  return options
}

/**
 * A runner that throws must not lose the other handlers' results: its failure becomes a spawn error. A stderr longer
 * than `HOOK_TEXT_HEAD_BYTES + HOOK_TEXT_TAIL_BYTES` comes back as its first and last bytes around a marker with its
 * full size (the runner keeps only the tail, so the head is taken as the output streams by).
 */
async function runSafely(runner: ProcessRunner, spec: HookCommandSpec): Promise<ProcessRunResult> {
  const started = performance.now()
  const head = new HeadCapture(HOOK_TEXT_HEAD_BYTES)
  try {
    const result = await runner.run({
      ...hookCommandRunOptions(spec),
      // Only stderr's head is kept here (the runner keeps the tails): no more is passed on than that.
      onOutput: (stream, chunk, stop) => {
        if (stream === 'stderr') head.push(chunk)
        if (stream === 'stdout' || head.full) stop()
      },
    })
    return capStderr(result, head)
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

/** The first `limit` bytes of a stream. */
class HeadCapture {
  readonly #chunks: Uint8Array[] = []
  #length = 0
  readonly #limit: number

  constructor(limit: number) {
    this.#limit = limit
  }

  get full(): boolean {
    return this.#length >= this.#limit
  }

  push(chunk: Uint8Array): void {
    if (this.full) return
    const part = chunk.subarray(0, this.#limit - this.#length)
    this.#chunks.push(Uint8Array.from(part))
    this.#length += part.length
  }

  bytes(): Buffer {
    return Buffer.concat(this.#chunks)
  }
}

function capStderr(result: ProcessRunResult, head: HeadCapture): ProcessRunResult {
  const limit = HOOK_TEXT_HEAD_BYTES + HOOK_TEXT_TAIL_BYTES
  const total = Math.max(result.stderrBytes, Buffer.byteLength(result.stderr))
  if (total <= limit) return result
  const kept = Buffer.from(result.stderr, 'utf8')
  // A runner that did not stream (a test double) returned the whole text: its head is the text's own.
  let first = head.bytes()
  if (first.length === 0) first = kept.subarray(0, HOOK_TEXT_HEAD_BYTES)
  const stderr = joinExcerpt(first, kept.subarray(Math.max(0, kept.length - HOOK_TEXT_TAIL_BYTES)), total)
  return { ...result, stderr, stderrTruncated: true }
}
