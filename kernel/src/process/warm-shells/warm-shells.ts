import { type ChildProcessByStdio, spawn } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, isAbsolute, join } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import type { ProcessRunOptions } from '../../process-runner.js'
import { signalGroup } from '../process-group.js'
import { removeStdinFile, writeStdinFile } from '../stdin-file.js'

/**
 * Bash started ahead of time for a command that runs again (`prestart`: hook commands). A fork + exec of bash is most
 * of what a trivial hook costs. So once a run of `/bin/bash -c <command>` is over, the same argv is started again, with
 * the same cwd and environment plus `BASH_ENV` naming a script that waits on fd 3: bash reads `BASH_ENV` before it runs
 * the `-c` command. The next run sends the path of its stdin on fd 3; the script points stdin at it, closes fd 3,
 * unsets `BASH_ENV` and returns, and bash runs the command as a fresh `bash -c` would: the same $0, flags, SHLVL, PWD,
 * $_, environment and error texts. Only `declare -p` before the first command tells the difference (`BASH_ARGC` and
 * `PIPESTATUS` are set).
 *
 * dash (`/bin/sh` on Debian and Ubuntu, what Claude Code's hooks run) reads no start-up file when not interactive. Its
 * shell waits in a dash running `EXEC_WAIT_SCRIPT`, which then execs the run's own argv: a fork of the kernel's side is
 * most of the cost, an exec of dash a fraction of it. What dash hands an exec'd program of its environment (names that
 * are not shell names dropped; `PWD`, `PPID`, `IFS`, `OPTIND` set) is what it makes of that again, so the command sees
 * what a fresh `sh -c` sees; only `/proc/<pid>/environ` holds the first dash's version.
 *
 * `spawn` blocks this thread until the child has exec'd, and on a small machine a fork + exec slows one running beside
 * it. So a shell is started once no run has started for `QUIET_MS` (while the model thinks), or, where runs have lately
 * followed each other without a gap (a model that answers at once), right after the next cold run has started (that
 * run goes on meanwhile); at the latest `PREPARE_AFTER_MS` after it was asked for. One shell waits per command line
 * (argv, cwd, environment), at most `WARM_LIMIT` in all, each for at most `IDLE_MS`; they hold no reference on the
 * event loop, and one whose fd 3 closes (its owner exited) exits without running anything.
 */
const WARM_LIMIT = 8
const IDLE_MS = 120_000
/** A shell asked for while runs keep this process busy starts after this long at the latest. */
const PREPARE_AFTER_MS = 250
/**
 * How long no run may start before the shells asked for start: longer than the kernel takes from a hook to its tool
 * (1.5–3 ms measured on a 2-core machine), far shorter than a model's answer.
 */
const QUIET_MS = 5
/** A stretch without runs at least this long is time a fork fits in; the last `GAPS_KEPT` are looked at. */
const IDLE_GAP_MS = 10
const GAPS_KEPT = 4

const WAIT_SCRIPT = `__harness_warm_shell() {
  local stdin
  IFS= read -r stdin <&3 || exit 0
  exec 0<"\${stdin:-/dev/null}"
  printf . >&3
  exec 3<&-
  unset -v BASH_ENV
  unset -f __harness_warm_shell
  : "$1"
}
__harness_warm_shell "$_"
`

/** dash's: waits on fd 3 as the bash script does, then becomes the run's own `<shell> -c <command>` ($0 and $@). */
const EXEC_WAIT_SCRIPT = `IFS= read -r stdin <&3 || exit 0; exec 0<"\${stdin:-/dev/null}"; printf . >&3; exec 3<&-; exec "$0" "$@"`

export type WarmChild = ChildProcessByStdio<null, Readable, Readable>

/** A command line a shell can be prestarted for (`warmShellLine`): argv, cwd and the whole environment, and its key. */
export interface ShellLine {
  key: string
  /** How the shell waits: bash reads `BASH_ENV` before its command; dash runs a script that execs the command line. */
  kind: 'bash' | 'dash'
  file: string
  args: readonly string[]
  cwd: string
  env: Record<string, string | undefined>
}

interface WarmShell {
  child: WarmChild
  control: Readable & Writable
  /** The cwd's device and inode when the shell started: a folder replaced since then is not the run's. */
  cwdIdentity: string
  idle: NodeJS.Timeout
}

let scriptPath: string | undefined
let discardAtExit = false
const waiting = new Map<string, WarmShell>()
const toPrepare = new Map<string, ShellLine>()
let prepareTimer: NodeJS.Timeout | undefined
let quietTimer: NodeJS.Timeout | undefined
/** Runs of this process in flight; when the last of them ended, while none runs; the last stretches without any, ms. */
let running = 0
let idleSince: number | undefined
const recentGaps: number[] = []

/**
 * The command line of a run that can be prestarted: one that asks for it, with `-c`, of bash by that name (`BASH_ENV`
 * ours to set, not in POSIX mode) or of dash by an absolute path; undefined for any other.
 */
export function warmShellLine(run: {
  file: string
  args: readonly string[]
  env: Record<string, string | undefined>
  options: ProcessRunOptions
}): ShellLine | undefined {
  const { file, args, env, options } = run
  if (options.prestart !== true || options.onStdin !== undefined || args[0] !== '-c') return undefined
  const kind =
    basename(file) === 'bash'
      ? env.BASH_ENV === undefined && env.POSIXLY_CORRECT === undefined && !(env.SHELLOPTS ?? '').split(':').includes('posix')
        ? 'bash'
        : undefined
      : isDash(file)
        ? 'dash'
        : undefined
  if (kind === undefined) return undefined
  const entries = Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return { key: JSON.stringify([file, args, options.cwd, entries]), kind, file, args, cwd: options.cwd, env }
}

const dashFiles = new Map<string, boolean>()

/** Whether `file` (an absolute path: another is looked up in the run's PATH) is dash, e.g. `/bin/sh` on Debian. */
function isDash(file: string): boolean {
  if (!isAbsolute(file)) return false
  let dash = dashFiles.get(file)
  if (dash === undefined) {
    try {
      dash = basename(realpathSync(file)) === 'dash'
    } catch {
      dash = false
    }
    dashFiles.set(file, dash)
  }
  return dash
}

function cwdIdentity(cwd: string): string | undefined {
  try {
    const stat = statSync(cwd)
    return `${stat.dev}:${stat.ino}`
  } catch {
    return undefined
  }
}

/**
 * The shell waiting for this command line, if there is one and it can still run it (it leaves the pool), already told
 * its stdin: a file it opens by name, removed once it says it has. Undefined: start the run cold.
 */
export function takeWarmShell(line: ShellLine, options: Pick<ProcessRunOptions, 'stdin'>): WarmChild | undefined {
  const { key } = line
  const shell = waiting.get(key)
  if (shell === undefined) return undefined
  const { child, control } = shell
  if (child.exitCode !== null || child.signalCode !== null || cwdIdentity(line.cwd) !== shell.cwdIdentity) {
    waiting.delete(key)
    discard(shell)
    return undefined
  }
  const path = options.stdin === undefined ? '' : writeStdinFile(options.stdin)
  if (path === undefined) return undefined
  waiting.delete(key)
  clearTimeout(shell.idle)
  child.removeAllListeners('exit')
  child.ref()
  for (const stream of [child.stdout, child.stderr, control]) (stream as { ref?: () => void }).ref?.()
  if (path !== '') {
    // Once the shell says it has opened its stdin (or is gone), the file's name is no longer needed.
    const remove = () => removeStdinFile(path)
    control.once('data', remove)
    control.once('close', remove)
  }
  control.end(`${path}\n`)
  return child
}

/** Asks for a shell for the next run of this command line, unless one already waits. */
export function prepareWarmShell(line: ShellLine): void {
  if (waiting.has(line.key)) return
  toPrepare.set(line.key, line)
  if (running === 0) startWhenQuiet()
  if (prepareTimer === undefined) {
    prepareTimer = setTimeout(startPrepared, PREPARE_AFTER_MS)
    prepareTimer.unref()
  }
}

/** A run is about to start (before its spawn, which blocks): ended by `runEnded`, whether it starts or not. */
export function runBegins(): void {
  running++
  clearTimeout(quietTimer)
  quietTimer = undefined
  if (idleSince !== undefined) {
    recentGaps.push(performance.now() - idleSince)
    if (recentGaps.length > GAPS_KEPT) recentGaps.shift()
    idleSince = undefined
  }
}

/**
 * A run has just started. With time between runs lately (a model that takes time to answer), the shells asked for
 * wait for the next quiet moment; without (every run starts as the last ends), they start now, while this run runs,
 * unless it is itself a prestarted one, whose few milliseconds a fork would only lengthen.
 */
export function runStarted(run: { warm: boolean }): void {
  const idleTimeLately = recentGaps.some((gap) => gap >= IDLE_GAP_MS)
  if (!run.warm && toPrepare.size > 0 && !idleTimeLately) setImmediate(startPrepared)
}

/** A run that `runBegins` counted is over. */
export function runEnded(): void {
  running = Math.max(0, running - 1)
  if (running > 0) return
  idleSince = performance.now()
  if (toPrepare.size > 0) startWhenQuiet()
}

/** Starts the shells asked for once no run has started for `QUIET_MS`: the time between a hook and its tool is shorter. */
function startWhenQuiet(): void {
  if (quietTimer !== undefined) return
  quietTimer = setTimeout(startPrepared, QUIET_MS)
  quietTimer.unref()
}

function startPrepared(): void {
  clearTimeout(prepareTimer)
  prepareTimer = undefined
  clearTimeout(quietTimer)
  quietTimer = undefined
  const lines = [...toPrepare.values()]
  toPrepare.clear()
  for (const line of lines) start(line)
}

function start(line: ShellLine): void {
  if (waiting.has(line.key)) return
  const identity = cwdIdentity(line.cwd)
  if (identity === undefined) return
  if (!discardAtExit) {
    discardAtExit = true
    process.once('exit', discardWarmShells)
  }
  let child: WarmChild
  try {
    const [args, env] =
      line.kind === 'bash'
        ? [line.args, { ...line.env, BASH_ENV: waitScript() }]
        : [['-c', EXEC_WAIT_SCRIPT, line.file, ...line.args], line.env]
    child = spawn(line.file, args, {
      cwd: line.cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    }) as unknown as WarmChild
  } catch {
    return
  }
  child.on('error', () => {})
  const control = child.stdio[3] as (Readable & Writable) | null
  if (child.pid === undefined || control === null) return
  control.on('error', () => {})
  const shell: WarmShell = {
    child,
    control,
    cwdIdentity: identity,
    idle: setTimeout(() => {
      if (waiting.get(line.key) === shell) waiting.delete(line.key)
      discard(shell)
    }, IDLE_MS),
  }
  shell.idle.unref()
  child.unref()
  for (const stream of [child.stdout, child.stderr, control]) (stream as { unref?: () => void }).unref?.()
  child.once('exit', () => {
    if (waiting.get(line.key) === shell) waiting.delete(line.key)
    clearTimeout(shell.idle)
    control.destroy()
  })
  waiting.set(line.key, shell)
  while (waiting.size > WARM_LIMIT) {
    const [oldestKey, oldest] = waiting.entries().next().value as [string, WarmShell]
    waiting.delete(oldestKey)
    discard(oldest)
  }
}

/** Ends every waiting shell, and forgets the ones asked for. */
function discardWarmShells(): void {
  toPrepare.clear()
  for (const shell of waiting.values()) discard(shell)
  waiting.clear()
}

function discard(shell: WarmShell): void {
  clearTimeout(shell.idle)
  // End of file on fd 3 makes it exit without running anything; the kill is for one that does not read it.
  shell.control.destroy()
  if (shell.child.pid !== undefined) signalGroup(shell.child.pid, 'SIGKILL')
}

/** The script `BASH_ENV` names, written once per process into a folder only this user can read. */
function waitScript(): string {
  if (scriptPath !== undefined) return scriptPath
  const folder = mkdtempSync(join(tmpdir(), 'harness-warm-shell-'))
  const path = join(folder, 'wait.sh')
  writeFileSync(path, WAIT_SCRIPT, { mode: 0o600 })
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }))
  scriptPath = path
  return path
}
