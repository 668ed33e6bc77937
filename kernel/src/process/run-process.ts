import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import type { Readable, Writable } from 'node:stream'
import type { ProcessOutputStream, ProcessRunOptions, ProcessRunResult } from '../process-runner.js'
import { CappedCapture } from './capped-capture.js'
import { childEnv, commandLine } from './command-line.js'
import { signalGroup, waitForGroupExit } from './process-group.js'
import { processStdin } from './process-stdin.js'
import { describeSpawnError } from './spawn-error.js'
import { removeStdinFile, writeStdinFile } from './stdin-file.js'
import { prepareWarmShell, runBegins, runEnded, runStarted, takeWarmShell, warmShellLine } from './warm-shells/warm-shells.js'

/** What a runner sets for every run (`ExecProcessRunnerOptions`), its defaults filled in. */
export interface RunnerSettings {
  pipeGraceMs: number
  maxOutputBytes: number
  killGraceMs: number
}

export function runnerSettings(options: Partial<RunnerSettings> = {}): RunnerSettings {
  return {
    pipeGraceMs: options.pipeGraceMs ?? 100,
    maxOutputBytes: options.maxOutputBytes ?? 1024 * 1024,
    killGraceMs: options.killGraceMs ?? 2000,
  }
}

/** How long to wait for a SIGKILLed group to release the pipes and disappear before giving up on it. */
const REAP_TIMEOUT_MS = 500
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * One run of a child process: `ExecProcessRunner.run`, and what the process launcher runs for the kernel. `onChild` gets
 * the child once its output is being read, for a caller that pauses the output while what it forwards is backed up.
 */
export async function runProcess(
  options: ProcessRunOptions,
  settings: RunnerSettings,
  onChild?: (child: ChildProcess) => void,
): Promise<ProcessRunResult> {
  const started = performance.now()
  const stdout = new CappedCapture(options.maxOutputBytes ?? settings.maxOutputBytes)
  const stderr = new CappedCapture(options.maxOutputBytes ?? settings.maxOutputBytes)
  let timedOut = false
  let aborted = false
  const finish = (fields: Partial<ProcessRunResult>): ProcessRunResult => ({
    exitCode: null,
    signal: null,
    stdout: stdout.text(),
    stderr: stderr.text(),
    stdoutBytes: stdout.totalBytes,
    stderrBytes: stderr.totalBytes,
    stdoutTruncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    timedOut,
    aborted,
    durationMs: performance.now() - started,
    pid: undefined,
    ...fields,
  })

  if (options.signal?.aborted) return finish({ aborted: true })

  const { file, args } = commandLine(options)
  const env = childEnv(options)
  const line = warmShellLine({ file, args, env, options })
  runBegins()
  const warm = line === undefined ? undefined : takeWarmShell(line, options)
  let child: Child
  try {
    child = (warm as Child | undefined) ?? startChild(file, args, env, options)
  } catch (error) {
    runEnded()
    return finish({ spawnError: await describeSpawnError(error, file, options.cwd) })
  }
  const pid = child.pid
  if (pid === undefined) {
    runEnded()
    // Node reports a failed spawn (ENOENT, a bad cwd) as an 'error' event, with no pid.
    const error = await new Promise((resolve) => child.once('error', resolve))
    return finish({ spawnError: await describeSpawnError(error, file, options.cwd) })
  }

  try {
    options.onStart?.(pid)
  } catch {
    // The caller's exception is not the run's failure.
  }
  const noop = () => {}
  child.on('error', noop)
  // A child that exits without reading its stdin makes the write fail with EPIPE; that is not the run's failure.
  child.stdin?.on('error', noop)
  const closeStdin = openStdin(child, pid, options)
  const streams = [child.stdout, child.stderr]
  for (const stream of streams) stream.on('error', noop)
  child.stdout.on('data', (chunk: Uint8Array) => stdout.push(chunk))
  child.stderr.on('data', (chunk: Uint8Array) => stderr.push(chunk))
  forwardOutput(child, options.onOutput)
  onChild?.(child)
  const streamsClosed = Promise.all(streams.map((stream) => new Promise((resolve) => stream.once('close', resolve))))

  let exitCode: number | null = null
  let signal: string | null = null
  let exited = false
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code: number | null, signalName: NodeJS.Signals | null) => {
      exited = true
      exitCode = code
      signal = signalName
      resolve()
    })
  })

  const timers: NodeJS.Timeout[] = []
  let terminating = false
  const terminate = (reason: 'timeout' | 'abort') => {
    if (exited || terminating) return
    terminating = true
    if (reason === 'timeout') timedOut = true
    else aborted = true
    signalGroup(pid, 'SIGTERM')
    timers.push(setTimeout(() => signalGroup(pid, 'SIGKILL'), Math.min(options.killGraceMs ?? settings.killGraceMs, MAX_TIMER_MS)))
  }
  const { timeoutMs } = options
  if (timeoutMs !== undefined && timeoutMs > 0) timers.push(setTimeout(() => terminate('timeout'), Math.min(timeoutMs, MAX_TIMER_MS)))
  const onAbort = () => terminate('abort')
  options.signal?.addEventListener('abort', onAbort, { once: true })
  // Aborted since the spawn (an `onStart` that aborts, a caller that gave up at once): the listener came too late.
  if (options.signal?.aborted) onAbort()

  runStarted({ warm: warm !== undefined })
  try {
    await exit
    // A shell's children can outlive it while holding its pipes: give them a moment, then kill whatever is left of the group.
    await settlesWithin(streamsClosed, settings.pipeGraceMs)
    if (signalGroup(pid, 'SIGKILL')) {
      await settlesWithin(streamsClosed, REAP_TIMEOUT_MS)
      await waitForGroupExit(pid, REAP_TIMEOUT_MS)
    }
  } finally {
    for (const timer of timers) clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
    // Only a process that left the group (setsid) can still hold a pipe here.
    for (const stream of streams) stream.destroy()
    closeStdin()
    runEnded()
    // The next run of this command line finds its shell started; not after one that hung or was stopped, which is
    // no command to keep a process waiting for.
    if (line !== undefined && exited && !timedOut && !aborted) prepareWarmShell(line)
  }
  return finish({ exitCode, signal, pid })
}

type Child = ChildProcessByStdio<Writable | null, Readable, Readable>

function startChild(file: string, args: string[], env: Record<string, string | undefined>, options: ProcessRunOptions): Child {
  // Node's pipes are sockets, and bash run with a socket for stdin and no SHLVL (an environment without it: a policy
  // that drops it, a host not started from a shell) takes itself for rshd's and reads ~/.bashrc, which a hook run by
  // Codex or Claude Code never does. So stdin is /dev/null when there is nothing to write, and a payload is read from
  // an unlinked file; only a stdin kept open (`onStdin`) is a pipe.
  const payload = options.onStdin === undefined && options.stdin !== undefined ? payloadFile(options.stdin) : undefined
  try {
    return spawn(file, args, {
      cwd: options.cwd,
      env,
      // Own process group (setsid), so the whole tree can be signalled through -pid.
      detached: true,
      stdio: [payload ?? (options.onStdin === undefined && options.stdin === undefined ? 'ignore' : 'pipe'), 'pipe', 'pipe'],
    }) as Child
  } finally {
    if (payload !== undefined) closeSync(payload)
  }
}

/** An open descriptor of a file holding `stdin` and already unlinked; undefined (a pipe is used) when none can be made. */
function payloadFile(stdin: string | Uint8Array): number | undefined {
  const path = writeStdinFile(stdin)
  if (path === undefined) return undefined
  try {
    return openSync(path, 'r')
  } catch {
    return undefined
  } finally {
    removeStdinFile(path)
  }
}

/**
 * Writes `stdin` and closes the pipe; with `onStdin`, writes it and hands the open pipe over. Returns what closes it
 * for good once the run is over (later writes then fail at once).
 */
function openStdin(child: Child, pid: number, options: ProcessRunOptions): () => void {
  const { onStdin } = options
  const { stdin } = child
  // /dev/null, or a payload given as a file.
  if (stdin === null) return () => {}
  if (!onStdin) {
    stdin.end(options.stdin ?? '')
    return () => {}
  }
  if (options.stdin !== undefined) stdin.write(options.stdin)
  try {
    onStdin(processStdin(pid, stdin))
  } catch {
    // The caller's exception is not the run's failure.
  }
  return () => stdin.destroy()
}

/** Passes every chunk of output to `onOutput` as it arrives, until it stops a stream. */
function forwardOutput(child: Child, onOutput: ProcessRunOptions['onOutput']): void {
  if (!onOutput) return
  const forward = (stream: ProcessOutputStream) => {
    let stopped = false
    const stop = () => {
      stopped = true
    }
    return (chunk: Uint8Array) => {
      if (stopped) return
      try {
        onOutput(stream, chunk, stop)
      } catch {
        // The caller's exception is not the run's failure.
      }
    }
  }
  child.stdout.on('data', forward('stdout'))
  child.stderr.on('data', forward('stderr'))
}

/** True when `promise` settled within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  try {
    return await Promise.race([promise.then(() => true), timeout])
  } finally {
    clearTimeout(timer)
  }
}
