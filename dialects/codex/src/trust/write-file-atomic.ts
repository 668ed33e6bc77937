import { randomBytes } from 'node:crypto'
import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

/**
 * Replaces a file's content atomically: a temporary file in the same directory, flushed, then renamed over
 * the target. A symlinked target is written through (the link stays); the file's mode is kept.
 */
export function writeFileAtomic(path: string, content: string): void {
  let target = path
  try {
    target = realpathSync(path)
  } catch {}
  const dir = dirname(target)
  mkdirSync(dir, { recursive: true })
  let mode: number | undefined
  try {
    mode = statSync(target).mode & 0o7777
  } catch {}
  const temp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  const fd = openSync(temp, 'wx', mode ?? 0o666)
  try {
    if (mode !== undefined) fchmodSync(fd, mode)
    writeSync(fd, content)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  try {
    renameSync(temp, target)
  } catch (err) {
    rmSync(temp, { force: true })
    throw err
  }
}
