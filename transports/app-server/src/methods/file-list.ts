import type { Dirent } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { ProcessRunner } from '@harness-kernel/kernel'

/** A file or directory under a root, by its path relative to the root (`/`-separated). */
export interface ListedEntry {
  path: string
  kind: 'file' | 'directory'
}

/** The most entries one root yields: a search of a huge tree stays bounded. */
export const MAX_ENTRIES = 200_000
const GIT_TIMEOUT_MS = 10_000
const GIT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024

/**
 * Every file and directory under `root`, as Codex's file search walks it: in a git work tree what git lists (tracked
 * files and untracked ones `.gitignore` does not exclude) and their directories; elsewhere every entry but `.git`, with
 * hidden ones (symbolic links are listed, not followed). Empty when the root cannot be read.
 */
export async function listEntries(root: string, runner: ProcessRunner, signal: AbortSignal): Promise<ListedEntry[]> {
  const files = await gitFiles(root, runner, signal)
  return files ? withDirectories(files) : walk(root, signal)
}

/** `git ls-files` of the root, or undefined when it is not in a work tree (or git is not there). */
async function gitFiles(root: string, runner: ProcessRunner, signal: AbortSignal): Promise<string[] | undefined> {
  const chunks: Buffer[] = []
  let bytes = 0
  const result = await runner.run({
    command: 'git',
    args: ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    cwd: root,
    env: { GIT_OPTIONAL_LOCKS: '0' },
    timeoutMs: GIT_TIMEOUT_MS,
    signal,
    maxOutputBytes: 0,
    onOutput: (stream, chunk) => {
      if (stream !== 'stdout' || bytes > GIT_MAX_OUTPUT_BYTES) return
      bytes += chunk.byteLength
      chunks.push(Buffer.from(chunk))
    },
  })
  if (result.exitCode !== 0 || bytes > GIT_MAX_OUTPUT_BYTES) return undefined
  const paths = Buffer.concat(chunks).toString('utf8').split('\0')
  // A file listed twice (staged and in the work tree) counts once.
  return [...new Set(paths.filter((path) => path !== ''))].slice(0, MAX_ENTRIES)
}

/** The files and every directory they are in (below the root). */
function withDirectories(files: readonly string[]): ListedEntry[] {
  const directories = new Set<string>()
  for (const file of files) {
    for (let slash = file.indexOf('/'); slash >= 0; slash = file.indexOf('/', slash + 1)) directories.add(file.slice(0, slash))
  }
  return [
    ...[...directories].map((path): ListedEntry => ({ path, kind: 'directory' })),
    ...files.map((path): ListedEntry => ({ path, kind: 'file' })),
  ]
}

/** Breadth first, without `.git`; a directory that cannot be read is skipped. */
async function walk(root: string, signal: AbortSignal): Promise<ListedEntry[]> {
  const entries: ListedEntry[] = []
  const queue = ['']
  while (queue.length > 0 && entries.length < MAX_ENTRIES && !signal.aborted) {
    const relative = queue.shift() as string
    let children: Dirent[]
    try {
      children = await readdir(join(root, relative), { withFileTypes: true })
    } catch {
      continue
    }
    for (const child of children) {
      const path = relative === '' ? child.name : `${relative}/${child.name}`
      if (child.isDirectory()) {
        if (child.name === '.git') continue
        entries.push({ path, kind: 'directory' })
        queue.push(path)
      } else {
        entries.push({ path, kind: child.isSymbolicLink() && (await isDirectory(join(root, path))) ? 'directory' : 'file' })
      }
      if (entries.length >= MAX_ENTRIES) break
    }
  }
  return entries
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}
