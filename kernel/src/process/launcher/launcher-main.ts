import type { ChildProcess } from 'node:child_process'
import { Socket } from 'node:net'
import type { ProcessOutputStream, ProcessRunResult, ProcessStdin } from '../../process-runner.js'
import { startTicksOf } from '../process-group.js'
import { runProcess } from '../run-process.js'
import { unknownOutcome } from '../unknown-outcome.js'
import type { Environment } from './environment-slots.js'
import { frameReader, writeFrame } from './launcher-frames.js'
import type { LauncherEvent, LauncherRequest } from './launcher-protocol.js'

/**
 * The process launcher: a small Node process that starts the kernel's commands (`LauncherProcessRunner`). Forking
 * copies the parent's page tables, so a fork from here costs what this process weighs, not what the kernel does. Each
 * run is `runProcess`, what `ExecProcessRunner` runs in the kernel itself. It exits when the kernel goes away; the
 * process groups it started live on, as they would after the kernel's own death (the session's ledger has them).
 */

interface ActiveRun {
  abort: AbortController
  stdin?: ProcessStdin
  /** The streams whose output the kernel no longer wants. */
  stopped: Set<ProcessOutputStream>
}

const runs = new Map<number, ActiveRun>()
/** The environments the kernel has sent, by the slot it named (`environment-slots.ts`). */
const environments: (Environment | undefined)[] = []

/** The pipe to the kernel, both ways: fd 3. */
const channel = new Socket({ fd: 3, readable: true, writable: true })

/** Bytes written to the pipe and not yet taken by the kernel, past which forwarded output pauses until it took them all. */
const BACKLOG_PAUSE_BYTES = 4 * 1024 * 1024
/** The running children whose output is forwarded. */
const forwarding = new Set<ChildProcess>()
let paused = false

function send(event: LauncherEvent): void {
  writeFrame(channel, event)
  if (paused || channel.writableLength < BACKLOG_PAUSE_BYTES) return
  setPaused(true)
  channel.once('drain', () => setPaused(false))
}

function setPaused(pause: boolean): void {
  paused = pause
  for (const child of forwarding) pipesOf(child, pause)
}

function pipesOf(child: ChildProcess, pause: boolean): void {
  for (const pipe of [child.stdout, child.stderr]) {
    if (pause) pipe?.pause()
    else pipe?.resume()
  }
}

/** A run's output is paused only while its process lives: after its exit the runner waits for the pipes to close. */
function forwardFrom(child: ChildProcess): void {
  forwarding.add(child)
  if (paused) pipesOf(child, true)
  child.once('exit', () => {
    forwarding.delete(child)
    pipesOf(child, false)
  })
}

async function start(request: Extract<LauncherRequest, { type: 'run' }>): Promise<void> {
  const { id, run, env, stdin, settings, output, keepStdinOpen } = request
  const started = performance.now()
  if (env.set !== undefined) environments[env.slot] = env.set
  const runEnv = environments[env.slot]
  if (runEnv === undefined) {
    // Never a run with another environment than the kernel's.
    const reason = `the process launcher holds no environment in slot ${env.slot}; the command was not started`
    send({ type: 'result', id, result: unknownOutcome({ reason, durationMs: performance.now() - started }) })
    return
  }
  const active: ActiveRun = { abort: new AbortController(), stopped: new Set() }
  runs.set(id, active)
  let result: ProcessRunResult
  try {
    result = await runProcess(
      {
        ...run,
        env: runEnv,
        ...(stdin === undefined ? {} : { stdin }),
        extendEnv: false,
        signal: active.abort.signal,
        onStart: (pid) => send({ type: 'started', id, pid, startTicks: startTicksOf(pid) }),
        ...(output
          ? {
              onOutput: (stream, chunk, stop) => {
                if (active.stopped.has(stream)) stop()
                else send({ type: 'output', id, stream, chunk })
              },
            }
          : {}),
        ...(keepStdinOpen
          ? {
              onStdin: (stdin) => {
                active.stdin = stdin
              },
            }
          : {}),
      },
      settings,
      output ? forwardFrom : undefined,
    )
  } catch (error) {
    result = unknownOutcome({ reason: `the process launcher failed: ${String(error)}`, durationMs: performance.now() - started })
  }
  runs.delete(id)
  send({ type: 'result', id, result })
}

function writeStdin({ id, write, chunk }: Extract<LauncherRequest, { type: 'stdin' }>): void {
  const stdin = runs.get(id)?.stdin
  const written = (error?: unknown) =>
    send({
      type: 'stdin-written',
      id,
      write,
      ...(error === undefined ? {} : { error: error instanceof Error ? error.message : String(error) }),
    })
  if (stdin === undefined) written(new Error('stdin is already closed'))
  else stdin.write(chunk).then(() => written(), written)
}

process.title = 'harness-process-launcher'
channel.on(
  'data',
  frameReader<LauncherRequest>((request) => {
    if (request.type === 'run') void start(request)
    else if (request.type === 'abort') runs.get(request.id)?.abort.abort()
    else if (request.type === 'stdin') writeStdin(request)
    else if (request.type === 'stdin-end') runs.get(request.id)?.stdin?.end()
    else if (request.type === 'output-stop') runs.get(request.id)?.stopped.add(request.stream)
  }),
)
// The kernel is gone (its end of the pipe closed).
channel.on('end', () => process.exit(0))
channel.on('error', () => process.exit(0))
send({ type: 'ready' })
