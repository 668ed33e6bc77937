import { z } from 'zod'
import { invalidRequest } from '../rpc-errors.js'

export const sortDirectionSchema = z.enum(['asc', 'desc'])
export type SortDirection = z.infer<typeof sortDirectionSchema>

/** Codex's page size: `limit` (0 counts as 1), 25 when not given, at most 100. */
export function pageSize(limit: number | null | undefined): number {
  return Math.min(Math.max(limit ?? 25, 1), 100)
}

/** Where a page starts: after its anchor, or (a backwards cursor) from it, included. */
export interface Anchor<K> {
  key: K
  includeAnchor: boolean
}

export interface Page<T> {
  data: T[]
  /** Continues after the page's last entry in the same direction; null on the last page. */
  nextCursor: string | null
  /** Continues from the page's first entry, included, in the other direction; null for an empty page. */
  backwardsCursor: string | null
}

export interface PageOptions<K> {
  direction: SortDirection
  limit: number
  anchor: Anchor<K> | undefined
  cursor: (anchor: Anchor<K>) => string
}

/** One page of `entries` (given in ascending order of `compare` on `keyOf`), walked in `direction`, Codex style. */
export function page<T, K>(
  entries: readonly T[],
  keyOf: (entry: T) => K,
  compare: (a: K, b: K) => number,
  options: PageOptions<K>,
): Page<T> {
  const { direction, limit, anchor, cursor } = options
  const ordered = direction === 'asc' ? [...entries] : [...entries].reverse()
  const sign = direction === 'asc' ? 1 : -1
  const rest =
    anchor === undefined
      ? ordered
      : ordered.filter((entry) => {
          const order = compare(keyOf(entry), anchor.key) * sign
          return order > 0 || (order === 0 && anchor.includeAnchor)
        })
  const data = rest.slice(0, limit)
  const first = data[0]
  const last = data.at(-1)
  return {
    data,
    nextCursor: rest.length > limit && last !== undefined ? cursor({ key: keyOf(last), includeAnchor: false }) : null,
    backwardsCursor: first === undefined ? null : cursor({ key: keyOf(first), includeAnchor: true }),
  }
}

/** The opaque cursor of a thread's history pages (turns or items): a position in the rebuilt history. */
interface HistoryCursor {
  threadId: string
  scope: 'turns' | 'items'
  ordinal: number
  includeAnchor: boolean
}

export function historyCursor(threadId: string, scope: HistoryCursor['scope'], anchor: Anchor<number>): string {
  return JSON.stringify({ threadId, scope, ordinal: anchor.key, includeAnchor: anchor.includeAnchor } satisfies HistoryCursor)
}

/** Reads a history cursor of this thread and scope, or answers Codex's `invalid cursor: <cursor>`. */
export function parseHistoryCursor(cursor: string, threadId: string, scope: HistoryCursor['scope']): Anchor<number> {
  let parsed: Partial<HistoryCursor> | undefined
  try {
    parsed = JSON.parse(cursor) as Partial<HistoryCursor>
  } catch {
    parsed = undefined
  }
  if (
    parsed?.threadId !== threadId ||
    parsed.scope !== scope ||
    !Number.isInteger(parsed.ordinal) ||
    typeof parsed.includeAnchor !== 'boolean'
  ) {
    throw invalidRequest(`invalid cursor: ${cursor}`)
  }
  return { key: parsed.ordinal as number, includeAnchor: parsed.includeAnchor }
}

export const byNumber = (a: number, b: number) => a - b
