import type { ProcessOutputStream, ProcessStdin } from '@harness-kernel/kernel'
import { invalidRequest } from '../rpc-errors.js'

/** Codex's default cap on each stream of a `command/exec` (1 MiB), and its default timeout (10 s). */
export const DEFAULT_OUTPUT_BYTES_CAP = 1024 * 1024
export const DEFAULT_TIMEOUT_MS = 10_000

/** Sends one `command/exec/outputDelta`. */
export type DeltaSink = (stream: ProcessOutputStream, delta: Uint8Array, capReached: boolean) => void

export interface CommandExecSpec {
  /** The client's `processId`; without one the command cannot be written to, resized or terminated. */
  processId: string | undefined
  streamStdin: boolean
  /** Where streamed output goes; without it, output is kept for the answer. */
  delta: DeltaSink | undefined
  /** Bytes kept (or streamed) per stream, from the start; `Infinity` for no cap. */
  outputBytesCap: number
}

/** One stream of a command's output, as Codex caps it: the first `cap` bytes, streamed or kept, the rest dropped. */
export class OutputCapture {
  readonly #stream: ProcessOutputStream
  readonly #cap: number
  readonly #delta: DeltaSink | undefined
  readonly #kept: Buffer[] = []
  #seen = 0
  #capReached = false

  constructor(stream: ProcessOutputStream, cap: number, delta: DeltaSink | undefined) {
    this.#stream = stream
    this.#cap = cap
    this.#delta = delta
  }

  push(chunk: Uint8Array): void {
    if (this.#capReached) return
    const kept = chunk.subarray(0, Math.min(chunk.byteLength, this.#cap - this.#seen))
    this.#seen += kept.byteLength
    this.#capReached = this.#seen === this.#cap
    if (this.#delta) this.#delta(this.#stream, kept, this.#capReached)
    else this.#kept.push(Buffer.from(kept))
  }

  /** What was kept, as UTF-8 (a character the cap cut in two becomes U+FFFD); empty when the stream was streamed. */
  text(): string {
    return new TextDecoder().decode(Buffer.concat(this.#kept))
  }
}

/** One running `command/exec`: its output, its stdin (when streamed), and the way to stop it. */
export class CommandExecSession {
  readonly spec: CommandExecSpec
  readonly stdout: OutputCapture
  readonly stderr: OutputCapture
  readonly #controller = new AbortController()
  #stdin: ProcessStdin | undefined

  constructor(spec: CommandExecSpec) {
    this.spec = spec
    this.stdout = new OutputCapture('stdout', spec.outputBytesCap, spec.delta)
    this.stderr = new OutputCapture('stderr', spec.outputBytesCap, spec.delta)
  }

  /** Aborts the run: the process runner kills the command's process group. */
  get signal(): AbortSignal {
    return this.#controller.signal
  }

  /** The command's pid, once it started (the process runner hands over its stdin). */
  get pid(): number | undefined {
    return this.#stdin?.pid
  }

  output(stream: ProcessOutputStream, chunk: Uint8Array): void {
    ;(stream === 'stdout' ? this.stdout : this.stderr).push(chunk)
  }

  /** The command's open stdin: kept for `command/exec/write` when streamed, else closed at once (as Codex, no stdin). */
  attach(stdin: ProcessStdin): void {
    this.#stdin = stdin
    if (!this.spec.streamStdin) stdin.end()
  }

  /** `command/exec/write`: the bytes, then (with `close`) end of file. */
  async write(bytes: Uint8Array, close: boolean): Promise<void> {
    if (!this.spec.streamStdin) throw invalidRequest('stdin streaming is not enabled for this command/exec')
    const stdin = this.#stdin
    if (!stdin) throw invalidRequest('stdin is not available: the process runner in use keeps no stdin open')
    if (bytes.byteLength > 0) {
      if (stdin.ended) throw invalidRequest('stdin is already closed')
      try {
        await stdin.write(bytes)
      } catch {
        throw invalidRequest('stdin is already closed')
      }
    }
    if (close) stdin.end()
  }

  terminate(): void {
    this.#controller.abort()
  }
}

/**
 * The running commands of one connection, by the client's `processId`. They end with the connection: when the host
 * goes away each is terminated, and should this process exit first, their process groups are killed.
 */
export class CommandExecRegistry {
  readonly #byId = new Map<string, CommandExecSession>()
  readonly #running = new Set<CommandExecSession>()
  #closed = false
  readonly #killAll = () => {
    for (const session of this.#running) {
      if (session.pid === undefined) continue
      try {
        process.kill(-session.pid, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
  }

  /** `connectionClosed`: the commands are the connection's, killed when it goes away (Codex). */
  constructor(connectionClosed: Promise<void>) {
    void connectionClosed.then(() => this.close())
  }

  /** Registers a command about to start; a client `processId` already running is refused as Codex refuses it. */
  start(spec: CommandExecSpec): CommandExecSession {
    if (spec.processId !== undefined && this.#byId.has(spec.processId)) {
      throw invalidRequest(`duplicate active command/exec process id: ${JSON.stringify(spec.processId)}`)
    }
    const session = new CommandExecSession(spec)
    if (spec.processId !== undefined) this.#byId.set(spec.processId, session)
    if (this.#running.size === 0) process.on('exit', this.#killAll)
    this.#running.add(session)
    if (this.#closed) session.terminate()
    return session
  }

  finish(session: CommandExecSession): void {
    if (session.spec.processId !== undefined && this.#byId.get(session.spec.processId) === session) {
      this.#byId.delete(session.spec.processId)
    }
    this.#running.delete(session)
    if (this.#running.size === 0) process.off('exit', this.#killAll)
  }

  /** The running command of a client `processId`, or Codex's error for none. */
  get(processId: string): CommandExecSession {
    const session = this.#byId.get(processId)
    if (!session) throw invalidRequest(`no active command/exec for process id ${JSON.stringify(processId)}`)
    return session
  }

  close(): void {
    this.#closed = true
    for (const session of this.#running) session.terminate()
  }
}
