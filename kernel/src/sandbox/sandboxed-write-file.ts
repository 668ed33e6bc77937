import type { ProcessRunner } from '../process-runner.js'

/** Creates the parents of `$1` and copies stdin to it, so that the sandbox's mounts decide where it may write. */
const WRITE_SCRIPT = 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"'

/** The errno a shell's message names (`…: Read-only file system`), most telling first. */
const ERRNO_TEXTS: [code: string, text: string][] = [
  ['EROFS', 'Read-only file system'],
  ['EACCES', 'Permission denied'],
  ['EISDIR', 'Is a directory'],
  ['ENOTDIR', 'Not a directory'],
  ['ENOSPC', 'No space left on device'],
  ['EDQUOT', 'Disk quota exceeded'],
  ['EEXIST', 'File exists'],
]

const REFUSED = "read-only file system (outside the sandbox's writable roots, or in a protected .git, .agents, .codex or .aws)"

export interface SandboxedWriteFileOptions {
  /** A sandboxed runner: the write succeeds only where its policy lets processes write. */
  runner: ProcessRunner
  cwd: string
  /** Absolute. */
  path: string
  content: string
  signal?: AbortSignal
}

/**
 * Writes `content` to `path` (byte for byte, parents created) from a shell inside the sandbox. Rejects with an Error
 * whose `code` is `EROFS` when the sandbox refused, another errno when the shell named one, else `EIO`.
 */
export async function sandboxedWriteFile(options: SandboxedWriteFileOptions): Promise<void> {
  const { path, signal } = options
  const result = await options.runner.run({
    command: '/bin/sh',
    args: ['-c', WRITE_SCRIPT, 'sh', path],
    cwd: options.cwd,
    stdin: options.content,
    signal,
  })
  if (result.aborted) throw signal?.reason ?? new Error(`Writing ${path} was aborted`)
  if (result.spawnError !== undefined) throw writeError(path, result.spawnError.match(/\((E[A-Z]+)\)$/)?.[1] ?? 'EIO', result.spawnError)
  if (result.exitCode === 0) return
  const stderr = result.stderr.trim()
  const code = ERRNO_TEXTS.find(([, text]) => stderr.includes(text))?.[0]
  if (code === 'EROFS') throw writeError(path, code, REFUSED)
  const exit = result.exitCode === null ? `killed by ${result.signal}` : `exit ${result.exitCode}`
  throw writeError(path, code ?? 'EIO', stderr || exit)
}

function writeError(path: string, code: string, reason: string): Error {
  return Object.assign(new Error(`Could not write ${path}: ${reason}`), { code, path })
}
