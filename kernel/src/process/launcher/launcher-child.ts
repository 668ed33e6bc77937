import { type ChildProcess, spawn } from 'node:child_process'
import type { Socket } from 'node:net'
import type { ProcessOutputStream, ProcessRunResult } from '../../process-runner.js'
import { unknownOutcome } from '../unknown-outcome.js'
import { EnvironmentSlots } from './environment-slots.js'
import { frameReader, writeFrame } from './launcher-frames.js'
import type { KernelRequest, LauncherEvent, LauncherRequest, RunRequest } from './launcher-protocol.js'

/** What a run sent to the launcher is told. */
export interface LaunchedRunHandlers {
  started(pid: number, startTicks: number | undefined): void
  output(stream: ProcessOutputStream, chunk: Uint8Array): void
  stdinWritten(write: number, error: string | undefined): void
  result(result: ProcessRunResult): void
  /** The launcher died with the run in it (`cause` says how); it may have started (`started` was called) or not. */
  lost(cause: string): void
  /** The launcher could not start (`reason`): the run never reached it. */
  unavailable(reason: string): void
}

export interface LauncherChildOptions {
  script: string
  nodeFlags: readonly string[]
  startTimeoutMs: number
  /**
   * Called once the process is gone, before its runs are told: `ready` says whether it had started, `closed` that the
   * kernel ended it (`kill`).
   */
  onEnd(ended: { ready: boolean; closed: boolean; cause: string }): void
}

/** The most of the launcher's stderr kept, to say why it died. */
const STDERR_TAIL_CHARS = 2000

/**
 * One launcher process, from its spawn to its death: the runs sent to it, the requests held until it is ready, and
 * what its death means for each run. It keeps the kernel's event loop alive only while a run is in it.
 */
export class LauncherChild {
  readonly #child: ChildProcess
  /** The pipe both ways (the launcher's fd 3). */
  readonly #channel: Socket
  readonly #options: LauncherChildOptions
  readonly #runs = new Map<number, LaunchedRunHandlers>()
  /** Requests sent before the launcher said it was ready. */
  #held: KernelRequest[] | undefined = []
  /** The environments this launcher holds, as the requests written to it left them. */
  readonly #environments = new EnvironmentSlots()
  #stderr = ''
  #ended = false
  #startTimer: NodeJS.Timeout | undefined
  /** Set when the kernel itself ended the launcher, and why. */
  #killedFor: string | undefined
  #closed = false

  constructor(options: LauncherChildOptions) {
    this.#options = options
    const env = { ...process.env }
    // The launcher runs plain built JavaScript: what the kernel's process was told to preload or inspect is not for it.
    delete env.NODE_OPTIONS
    this.#child = spawn(process.execPath, [...options.nodeFlags, options.script], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      env,
      // Its own session: a terminal's Ctrl-C is the kernel's to handle; the launcher leaves when the kernel does.
      detached: true,
    })
    const child = this.#child
    this.#channel = child.stdio[3] as Socket
    this.#channel.on(
      'data',
      frameReader<LauncherEvent>((event) => this.#receive(event)),
    )
    // A write to a launcher that died fails; its death is seen on its exit.
    this.#channel.on('error', () => {})
    child.on('error', (error) => {
      // A spawn that failed (no pid): nothing will exit.
      if (child.pid === undefined) this.#end(`the process launcher could not be spawned: ${error.message}`)
    })
    child.stderr?.setEncoding('utf8')
    child.stderr?.on('data', (text: string) => {
      this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL_CHARS)
    })
    const closed = new Promise<void>((resolve) => this.#channel.once('close', () => resolve()))
    // Every message it wrote is read before its runs are told it died.
    child.once('exit', (code, signal) => {
      void closed.then(() => this.#end(this.#exitCause(code, signal)))
    })
    this.#startTimer = setTimeout(() => {
      this.#killedFor = `the process launcher did not start within ${options.startTimeoutMs} ms`
      child.kill('SIGKILL')
    }, options.startTimeoutMs)
    this.#startTimer.unref()
    ;(child.stderr as { unref?: () => void } | null)?.unref?.()
    this.#updateRef()
  }

  get pid(): number | undefined {
    return this.#child.pid
  }

  /** Sends a run; its events go to `handlers` until its result, or the launcher's death. */
  launch(request: RunRequest, handlers: LaunchedRunHandlers): void {
    this.#runs.set(request.id, handlers)
    this.#updateRef()
    this.send(request)
  }

  /** Sends a request for a run still in the launcher; anything else is dropped (the run is over). */
  send(request: KernelRequest): void {
    if (this.#ended || !this.#runs.has(request.id)) return
    if (this.#held) this.#held.push(request)
    else this.#deliver(request)
  }

  /** Ends the launcher; its runs are lost (`reason`). */
  kill(reason: string): void {
    this.#closed = true
    this.#killedFor ??= reason
    this.#child.kill('SIGKILL')
  }

  /** Writes a request to the pipe (a failed write is the launcher's death, seen on its exit); one that cannot be serialized fails its run or its write. */
  #deliver(request: KernelRequest): void {
    const sent: LauncherRequest = request.type === 'run' ? this.#namingEnvironment(request) : request
    try {
      writeFrame(this.#channel, sent)
    } catch (error) {
      if (sent.type === 'run' && sent.env.set !== undefined) this.#environments.forget(sent.env.slot)
      const handlers = this.#runs.get(request.id)
      const why = `could not be sent to the process launcher: ${error instanceof Error ? error.message : String(error)}`
      if (request.type === 'stdin') handlers?.stdinWritten(request.write, `the write ${why}`)
      else if (request.type === 'run') {
        this.#runs.delete(request.id)
        this.#updateRef()
        handlers?.result(unknownOutcome({ reason: `the run ${why}`, durationMs: 0 }))
      }
    }
  }

  /** The run as the launcher reads it: its environment by slot, taken here, in the order the launcher reads requests. */
  #namingEnvironment(request: RunRequest): LauncherRequest {
    const { env, ...run } = request.run
    return { ...request, run, env: this.#environments.refer(env) }
  }

  #receive(event: LauncherEvent): void {
    if (event.type === 'ready') {
      clearTimeout(this.#startTimer)
      const held = this.#held ?? []
      this.#held = undefined
      for (const request of held) if (this.#runs.has(request.id)) this.#deliver(request)
      return
    }
    const handlers = this.#runs.get(event.id)
    if (handlers === undefined) return
    if (event.type === 'started') handlers.started(event.pid, event.startTicks)
    else if (event.type === 'output') handlers.output(event.stream, event.chunk)
    else if (event.type === 'stdin-written') handlers.stdinWritten(event.write, event.error)
    else if (event.type === 'result') {
      this.#runs.delete(event.id)
      this.#updateRef()
      handlers.result(event.result)
    }
  }

  #end(cause: string): void {
    if (this.#ended) return
    this.#ended = true
    clearTimeout(this.#startTimer)
    const ready = this.#held === undefined
    const runs = [...this.#runs.values()]
    this.#runs.clear()
    this.#options.onEnd({ ready, closed: this.#closed, cause })
    for (const handlers of runs) {
      if (ready) handlers.lost(cause)
      else handlers.unavailable(cause)
    }
  }

  #exitCause(code: number | null, signal: NodeJS.Signals | null): string {
    if (this.#killedFor !== undefined) return this.#killedFor
    const how = signal === null ? `exited with code ${code}` : `was killed by ${signal}`
    const said = lastError(this.#stderr)
    return `the process launcher (pid ${this.#child.pid}) ${how}${said ? ` (${said})` : ''}`
  }

  /** Holds the kernel's event loop open while runs are in the launcher, as a running child would; not otherwise. */
  #updateRef(): void {
    const busy = this.#runs.size > 0 && !this.#ended
    const handles = [this.#child, this.#channel]
    for (const handle of handles) {
      if (busy) handle?.ref()
      else handle?.unref()
    }
  }
}

/** What a dying Node said last that was not a stack frame: the error's own line, if it wrote one. */
function lastError(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('at ') && !line.startsWith('Node.js v'))
  return lines.findLast((line) => /^\w*Error\b/.test(line)) ?? lines.at(-1) ?? ''
}
