import { randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Hook output longer than this reaches the model as a preview and a file path [obs]. */
export const PERSIST_THRESHOLD = 10_000
const PREVIEW_CHARS = 2000

export interface PersistTarget {
  /** The session's folder for saved hook output. */
  dir: string
  event: string
  toolUseId?: string | undefined
  /** The output field, e.g. `additionalContext`. */
  field: string
}

/**
 * Long hook output as Claude Code 2.1.332 shows it: saved whole to a file, replaced by
 * `<persisted-output>` with its size, the path and a 2 KB preview. If the file cannot be written the text is
 * kept whole: nothing is lost.
 */
export function persistLargeOutput(text: string, target: PersistTarget): string {
  if (text.length <= PERSIST_THRESHOLD) return text
  const name = ['hook', target.toolUseId, target.event, randomUUID().replaceAll('-', ''), target.field].filter(Boolean).join('-')
  const path = join(target.dir, `${name}.txt`)
  try {
    mkdirSync(target.dir, { recursive: true })
    writeFileSync(path, text)
  } catch {
    return text
  }
  const size = `${(Buffer.byteLength(text) / 1024).toFixed(1)}KB`
  return `<persisted-output>\nOutput too large (${size}). Full output saved to: ${path}\n\nPreview (first 2KB):\n${text.slice(0, PREVIEW_CHARS)}\n...\n</persisted-output>`
}
