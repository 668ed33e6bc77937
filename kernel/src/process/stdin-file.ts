import { randomUUID } from 'node:crypto'
import { unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A new file in the temp folder holding a run's `stdin`, only this user's to read; undefined when it cannot be written. */
export function writeStdinFile(stdin: string | Uint8Array): string | undefined {
  const path = join(tmpdir(), `harness-stdin-${randomUUID()}`)
  try {
    writeFileSync(path, stdin, { mode: 0o600, flag: 'wx' })
    return path
  } catch {
    removeStdinFile(path)
    return undefined
  }
}

export function removeStdinFile(path: string): void {
  try {
    unlinkSync(path)
  } catch {
    // Never written, or already gone.
  }
}
