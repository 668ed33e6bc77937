import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/** Writes `content` to `path` as the process may, parents created: for `dangerFullAccess`. */
export async function directWriteFile(options: { path: string; content: string; signal?: AbortSignal }): Promise<void> {
  options.signal?.throwIfAborted()
  await mkdir(dirname(options.path), { recursive: true })
  await writeFile(options.path, options.content, { signal: options.signal })
}
