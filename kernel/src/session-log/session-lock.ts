import { randomUUID } from 'node:crypto'
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { KernelError } from '../errors.js'
import type { SessionLock, SessionLockHolder } from '../session-store.js'

/** Locks this process holds, by path, with the text it wrote: released on exit if not before. */
const held = new Map<string, string>()
let exitHookInstalled = false

/**
 * Takes the single-writer lock of a session: `path` holds `{pid, host, since}` of its holder. It is created whole
 * and atomically (written to a temporary file, then hard-linked to `path`, which fails if `path` exists), so a
 * reader never sees half a lock. A lock whose pid is not alive on this host is taken over; one held by a live
 * process (this one included) or by another host is a `KernelError` naming the holder.
 */
export function acquireSessionLock(path: string, sessionId: string, now: () => number): SessionLock {
  const host = hostname()
  const mine: SessionLockHolder = { pid: process.pid, host, since: new Date(now()).toISOString() }
  const text = `${JSON.stringify(mine)}\n`
  let tookOver: SessionLockHolder | undefined
  // A few rounds at most: each lost race means another process took the lock, or a stale lock was replaced.
  for (let attempt = 0; attempt < 5; attempt++) {
    if (create(path, text)) {
      installExitHook()
      held.set(path, text)
      return { path, tookOver, release: async () => release(path, text) }
    }
    const existing = readLock(path)
    if (existing === undefined) continue // removed meanwhile: try again
    const holder = parseHolder(existing)
    if (holder === undefined) {
      throw new KernelError(
        `session ${sessionId} has an unreadable lock file ${path}; if no process is using the session, remove that file`,
      )
    }
    const named = `pid ${holder.pid} on ${holder.host}, since ${holder.since}`
    if (holder.host !== host) {
      throw new KernelError(
        `session ${sessionId} is locked by another host (${named}): ${path}. A lock from another host is never taken over; if no process on ${holder.host} is using the session, remove ${path}`,
      )
    }
    if (holder.pid === process.pid) {
      throw new KernelError(`session ${sessionId} is already open in this process (${named}); end it before opening it again`)
    }
    if (alive(holder.pid)) {
      throw new KernelError(
        `session ${sessionId} is open in another process (${named}); it has one writer at a time. If process ${holder.pid} is not using it, remove ${path}`,
      )
    }
    if (takeOver(path, existing)) tookOver = holder
  }
  throw new KernelError(`could not lock session ${sessionId}: ${path} kept changing`)
}

function create(path: string, text: string): boolean {
  const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`
  writeFileSync(temporary, text)
  try {
    linkSync(temporary, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    rmSync(temporary, { force: true })
  }
}

function readLock(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

function parseHolder(text: string): SessionLockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<SessionLockHolder>
    const { pid, host, since } = value
    if (!Number.isSafeInteger(pid) || (pid as number) <= 0 || typeof host !== 'string' || typeof since !== 'string') return undefined
    return { pid: pid as number, host, since }
  } catch {
    return undefined
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists (another user's).
    return (error as NodeJS.ErrnoException).code !== 'ESRCH'
  }
}

/**
 * Moves the stale lock aside, so two processes taking it over at once cannot both win: only one rename of it
 * succeeds. If what was moved is not the stale lock read before (it was replaced meanwhile), it is put back.
 */
function takeOver(path: string, stale: string): boolean {
  const aside = `${path}.${process.pid}.${randomUUID()}.stale`
  try {
    renameSync(path, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
  try {
    if (readFileSync(aside, 'utf8') === stale) return true
    try {
      linkSync(aside, path)
    } catch {
      // Someone else holds it now: the next round reports them.
    }
    return false
  } finally {
    rmSync(aside, { force: true })
  }
}

/** Removes the lock if it is still the one this process wrote. */
function release(path: string, text: string): void {
  if (held.get(path) !== text) return
  held.delete(path)
  try {
    if (readFileSync(path, 'utf8') === text) rmSync(path, { force: true })
  } catch {
    // Already gone.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => {
    for (const [path, text] of [...held]) release(path, text)
  })
}
