import { randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rustLineCount } from './rust-text.js'

export const DEFAULT_CONTEXT_LIMIT = 2500

export interface SpillOptions {
  /** Approximate tokens; undefined → 2,500; 0 → never spill. */
  limit?: number | undefined
  /** The thread (session) id: the spill directory's name. */
  threadId: string
  /** Default: `$TMPDIR` when set, else `os.tmpdir()` (Codex uses the system temp dir, not `$CODEX_HOME`). */
  tmpDir?: string | undefined
}

export interface SpillResult {
  /** The text for the model: unchanged, or the preview. */
  text: string
  /** Where the full text was written, when it was. */
  spilledTo?: string
}

/** Codex's token estimate: `ceil(utf8Bytes / 4)`. */
export function approxTokenCount(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 4)
}

/**
 * Codex's spill of an oversized hook text (codex-hooks.md §7): over `limit` approximate tokens, the full text goes
 * byte for byte to `<tmp>/hook_outputs/<threadId>/<uuid-v4>.txt` and the model gets a head/tail preview ending with
 * that path, budgeted so the preview with its footer stays within the limit. If the file cannot be written, the
 * preview has no footer (as in Codex). Writes synchronously.
 */
export function spillIfLarge(text: string, options: SpillOptions): SpillResult {
  const limit = options.limit ?? DEFAULT_CONTEXT_LIMIT
  if (limit === 0 || approxTokenCount(text) <= limit) return { text }
  const dir = join(options.tmpDir ?? defaultTmpDir(), 'hook_outputs', options.threadId)
  const path = join(dir, `${randomUUID()}.txt`)
  try {
    mkdirSync(dir, { recursive: true })
    writeFileSync(path, text, 'utf8')
  } catch {
    return { text: formattedTruncateText(text, limit) }
  }
  const footer = `\n\nFull hook output saved to: ${path}`
  const budget = Math.max(0, limit - approxTokenCount(footer))
  return { text: formattedTruncateText(text, budget) + footer, spilledTo: path }
}

function defaultTmpDir(): string {
  const fromEnv = process.env.TMPDIR
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : tmpdir()
}

/** Codex's `formatted_truncate_text` with a token budget: a header, then head…marker…tail. */
export function formattedTruncateText(text: string, budgetTokens: number): string {
  const bytes = Buffer.from(text, 'utf8')
  const budget = budgetTokens * 4
  if (bytes.length <= budget) return text
  const header = `Warning: truncated output (original token count: ${Math.ceil(bytes.length / 4)})\nTotal output lines: ${rustLineCount(text)}\n\n`
  return header + truncateMiddle(bytes, budget)
}

/**
 * Keeps `floor(budget/2)` bytes of head and the rest as tail, each cut back to whole UTF-8 characters. The marker
 * counts the bytes over budget, not the bytes actually dropped (as Codex does).
 */
function truncateMiddle(bytes: Buffer, budget: number): string {
  const marker = `…${Math.ceil((bytes.length - budget) / 4)} tokens truncated…`
  const headBudget = Math.floor(budget / 2)
  const tailBudget = budget - headBudget
  let headEnd = headBudget
  while (headEnd > 0 && isContinuation(bytes[headEnd])) headEnd--
  let tailStart = bytes.length - tailBudget
  while (tailStart < bytes.length && isContinuation(bytes[tailStart])) tailStart++
  if (tailStart < headEnd) tailStart = headEnd
  return bytes.subarray(0, headEnd).toString('utf8') + marker + bytes.subarray(tailStart).toString('utf8')
}

const isContinuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80
