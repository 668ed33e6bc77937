import { createHash } from 'node:crypto'
import { lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { basename, dirname, join } from 'node:path'

/** Where the sockets live, as Codex's `/tmp/codex-daemon-<uid>`: short enough for any socket name (108 bytes on Linux). */
export function defaultDaemonDir(): string {
  return `/tmp/harness-daemon-${process.getuid?.() ?? 'user'}`
}

/** `unix://` without a path: `$HARNESS_HOME/app-server-control/app-server-control.sock`, as Codex's under `$CODEX_HOME`. */
export function defaultControlSocketPath(harnessHome: string): string {
  return join(harnessHome, 'app-server-control', 'app-server-control.sock')
}

/** The socket could not be claimed; the message says why (Codex's words where it has some). */
export class DaemonSocketError extends Error {
  override readonly name: string = 'DaemonSocketError'
}

export interface DaemonSocket {
  /** The path clients connect to: a symlink to `socketPath` once published. */
  readonly path: string
  /** `<daemonDir>/<sha256 of path>`, where the server listens. */
  readonly socketPath: string
  /** `socketPath` + `.lock`: holds the pid of the server that owns the socket. */
  readonly lockPath: string
  /** Makes `path` a symlink to the socket; call once the server listens on `socketPath`. */
  publish(): void
  /** Removes the symlink, the socket and the lock (those that are still this server's). */
  release(): void
}

/**
 * Takes `path` (absolute) for this process: the lock beside the real socket, then whatever stale socket or symlink was
 * left at either place. Refuses when a live server holds it, or when `path` is something else than a socket.
 */
export async function claimDaemonSocket(options: { path: string; daemonDir?: string }): Promise<DaemonSocket> {
  const { path } = options
  if (basename(path) === '') throw new DaemonSocketError('socket path must have a parent')
  if (!statSync(dirname(path), { throwIfNoEntry: false })?.isDirectory())
    throw new DaemonSocketError(`cannot create the socket ${path}: ${dirname(path)} is not a directory`)
  const daemonDir = options.daemonDir ?? defaultDaemonDir()
  ensurePrivateDir(daemonDir)
  const socketPath = join(daemonDir, createHash('sha256').update(path).digest('hex'))
  const lockPath = `${socketPath}.lock`
  await takeLock({ path, socketPath, lockPath })
  try {
    await clearLinkPath(path, socketPath)
    rmSync(socketPath, { force: true })
  } catch (error) {
    rmSync(lockPath, { force: true })
    throw error
  }
  // A crash after this point still leaves no socket behind for the next server to find stale.
  const releaseAtExit = () => release()
  process.once('exit', releaseAtExit)
  function release(): void {
    process.off('exit', releaseAtExit)
    if (symlinkTarget(path) === socketPath) rmSync(path, { force: true })
    rmSync(socketPath, { force: true })
    if (lockHolder(lockPath) === process.pid) rmSync(lockPath, { force: true })
  }
  return { path, socketPath, lockPath, publish: () => symlinkSync(socketPath, path), release }
}

/** The directory must be this user's alone: anyone who can write in it could swap the socket. */
function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const stat = lstatSync(dir)
  const uid = process.getuid?.()
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0)
    throw new DaemonSocketError(`app-server socket directory must be a user-owned directory with mode 0700: ${dir}`)
}

async function takeLock(paths: { path: string; socketPath: string; lockPath: string }): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(paths.lockPath, `${process.pid}\n`, { flag: 'wx', mode: 0o600 })
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = lockHolder(paths.lockPath)
    if (holder !== undefined && (await holdsSocket(holder, paths.socketPath)))
      throw new DaemonSocketError(`app-server control socket is already in use at ${paths.path} (pid ${holder})`)
    // Stale: removed only if it still names the dead holder (another server may have just taken it).
    if (lockHolder(paths.lockPath) === holder) rmSync(paths.lockPath, { force: true })
  }
  throw new DaemonSocketError(`could not take the lock ${paths.lockPath}: other servers keep taking it`)
}

/**
 * Whether `pid` is a server still serving `socketPath`. A pid can be reused once its server is gone, so a live
 * process counts only while the socket is not refusing connections (missing: the holder is starting up).
 */
async function holdsSocket(pid: number, socketPath: string): Promise<boolean> {
  if (pid === process.pid || !processAlive(pid)) return false
  return (await probeSocket(socketPath)) !== 'refused'
}

/** What is at `path` now: nothing, this server's old symlink, or a socket nobody serves is removed; the rest refused. */
async function clearLinkPath(path: string, socketPath: string): Promise<void> {
  const stat = lstatSync(path, { throwIfNoEntry: false })
  if (!stat) return
  if (stat.isSymbolicLink()) {
    const target = symlinkTarget(path)
    if (target !== socketPath)
      throw new DaemonSocketError(
        `app-server control socket path exists and is a symlink to ${target}, not to this server's socket: ${path}`,
      )
  } else if (!stat.isSocket()) {
    throw new DaemonSocketError(`app-server control socket path exists and is not a socket: ${path}`)
  } else if ((await probeSocket(path)) === 'live') {
    throw new DaemonSocketError(`app-server control socket is already in use at ${path}`)
  }
  rmSync(path, { force: true })
}

function lockHolder(lockPath: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8').trim())
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

function symlinkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path)
  } catch {
    return undefined
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function probeSocket(path: string): Promise<'live' | 'refused' | 'missing'> {
  return new Promise((resolve) => {
    const socket = connect(path)
    socket.once('connect', () => {
      socket.destroy()
      resolve('live')
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ENOENT' ? 'missing' : 'refused'))
  })
}
