import { resolve } from 'node:path'
import { z } from 'zod'
import { parseParams } from '../params.js'
import { listEntries } from './file-list.js'
import { fileMatchScore } from './fuzzy-score.js'
import type { MethodContext, MethodHandler } from './method-context.js'

/** Codex's limit on the matches of one search (over all its roots). */
const MATCH_LIMIT = 50

const paramsSchema = z.object({ query: z.string(), roots: z.array(z.string()), cancellationToken: z.string().nullish() })

/** Codex's `FuzzyFileSearchResult`. */
export interface FuzzyFileSearchResult {
  root: string
  path: string
  match_type: 'file' | 'directory'
  file_name: string
  score: number
  indices: number[]
}

/** The search running under each cancellation token, per connection: a new search with the same token cancels it. */
const running = new WeakMap<MethodContext, Map<string, AbortController>>()

/**
 * `fuzzyFileSearch`: the files and directories under `roots` whose path (relative to its root) fuzzily matches
 * `query`, best 50 first (score descending, then path), scored and ordered as Codex's. An empty query, or a root that
 * does not exist, finds nothing. A search superseded by a newer one with its `cancellationToken` answers `files: []`.
 */
async function fuzzyFileSearch(params: unknown, context: MethodContext) {
  const parsed = parseParams(paramsSchema, params)
  const token = parsed.cancellationToken ?? undefined
  const controller = new AbortController()
  const searches = running.get(context) ?? new Map<string, AbortController>()
  running.set(context, searches)
  if (token !== undefined) {
    searches.get(token)?.abort()
    searches.set(token, controller)
  }
  try {
    if (parsed.query === '' || parsed.roots.length === 0) return { files: [] }
    const kernel = await context.kernel()
    const runner = kernel.resolve('processRunner')
    const files: FuzzyFileSearchResult[] = []
    for (const root of parsed.roots) {
      const entries = await listEntries(resolve(kernel.cwd, root), runner, controller.signal)
      for (const entry of entries) {
        const match = fileMatchScore(parsed.query, entry.path, entry.kind)
        if (!match) continue
        files.push({
          root,
          path: entry.path,
          match_type: entry.kind,
          file_name: entry.path.slice(entry.path.lastIndexOf('/') + 1),
          score: match.score,
          indices: match.indices,
        })
      }
      if (controller.signal.aborted) return { files: [] }
    }
    files.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    return { files: files.slice(0, MATCH_LIMIT) }
  } finally {
    if (token !== undefined && searches.get(token) === controller) searches.delete(token)
  }
}

export const FUZZY_FILE_SEARCH_METHODS: Readonly<Record<string, MethodHandler>> = {
  fuzzyFileSearch,
}
