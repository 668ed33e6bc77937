import { resolve } from 'node:path'
import type { SessionSummary } from '@harness-kernel/kernel'
import { z } from 'zod'
import { parseParams } from '../params.js'
import { INVALID_PARAMS, invalidRequest, RpcError } from '../rpc-errors.js'
import type { MethodHandler } from './method-context.js'
import { type Anchor, page, pageSize, sortDirectionSchema } from './paging.js'
import { storedThreadResult } from './thread-view.js'

const threadListParamsSchema = z
  .object({
    cursor: z.string().nullish(),
    limit: z.number().int().nonnegative().nullish(),
    sortKey: z.enum(['created_at', 'updated_at', 'recency_at', 'section_position']).nullish(),
    sortDirection: sortDirectionSchema.nullish(),
    modelProviders: z.array(z.string()).nullish(),
    originators: z.array(z.string()).nullish(),
    archived: z.boolean().nullish(),
    sectionId: z.string().nullish(),
    cwd: z.union([z.string(), z.array(z.string())]).nullish(),
    searchTerm: z.string().nullish(),
    excludedThreadIds: z.array(z.string()).nullish(),
    includedThreadIds: z.array(z.string()).nullish(),
  })
  .nullish()

/** A thread's place in the list: its sort time (ISO), then its id. A backwards cursor names a time only. */
type ListKey = readonly [time: string, id: string | undefined]

const EPOCH = new Date(0).toISOString()

/**
 * `thread/list`: the session store's threads, newest first by default, paged as Codex pages them (`cursor`,
 * `limit`, `sortKey`, `sortDirection`). Filters: `archived`, `cwd`, `searchTerm` (name or preview),
 * `modelProviders`, `excludedThreadIds`, `includedThreadIds` (Codex 0.171.0: an empty list matches nothing),
 * `sectionId` (no thread has a section). Like Codex, a thread shows once it
 * has a turn. `sourceKinds` is not a filter here: the session log does not say which client started a session.
 */
export const threadList: MethodHandler = async (params, context) => {
  const parsed = parseParams(threadListParamsSchema, params) ?? {}
  if ((parsed.excludedThreadIds?.length ?? 0) > 100) throw new RpcError(INVALID_PARAMS, 'excludedThreadIds accepts at most 100 entries')
  if ((parsed.includedThreadIds?.length ?? 0) > 100) throw new RpcError(INVALID_PARAMS, 'includedThreadIds accepts at most 100 entries')
  if ((parsed.originators?.length ?? 0) > 0)
    throw new RpcError(INVALID_PARAMS, 'originator filtering is not supported by the local app-server')
  if (parsed.sortKey === 'section_position' && typeof parsed.sectionId !== 'string')
    throw invalidRequest('section-position sorting requires a section filter')
  const anchor = parsed.cursor ? parseListCursor(parsed.cursor) : undefined
  const kernel = await context.kernel()
  const byUpdate = parsed.sortKey === 'updated_at' || parsed.sortKey === 'recency_at'
  const timeOf = (summary: SessionSummary) => (byUpdate ? summary.updatedAt : summary.createdAt) ?? EPOCH
  const cwds = parsed.cwd === undefined || parsed.cwd === null ? undefined : [parsed.cwd].flat().map((cwd) => resolve(kernel.cwd, cwd))
  const excluded = new Set(parsed.excludedThreadIds ?? [])
  const included =
    parsed.includedThreadIds === undefined || parsed.includedThreadIds === null ? undefined : new Set(parsed.includedThreadIds)
  const search = parsed.searchTerm ?? undefined
  const listed = (await kernel.resolve('sessionStore').list()).filter(
    (summary) =>
      summary.turns > 0 &&
      summary.archived === (parsed.archived === true) &&
      typeof parsed.sectionId !== 'string' &&
      !excluded.has(summary.id) &&
      (included === undefined || included.has(summary.id)) &&
      (cwds === undefined || cwds.includes(summary.cwd ?? '')) &&
      (search === undefined || [summary.name, summary.firstPrompt].some((title) => title?.includes(search))),
  )
  // Codex lists threads without saying whether they take direct input (null), unlike thread/start and thread/read.
  const listedThreads = await Promise.all(
    listed.map(async (summary) => ({
      key: [timeOf(summary), summary.id] as ListKey,
      thread: { ...(await storedThreadResult(context, kernel, summary, [])).thread, canAcceptDirectInput: null } as Record<string, unknown>,
    })),
  )
  const candidates = listedThreads
    .filter(({ thread }) => !parsed.modelProviders?.length || parsed.modelProviders.includes(thread.modelProvider as string))
    .sort((a, b) => compareKeys(a.key, b.key))
  const { data, nextCursor, backwardsCursor } = page(candidates, (entry) => entry.key, compareKeys, {
    direction: parsed.sortDirection ?? 'desc',
    limit: pageSize(parsed.limit),
    anchor,
    cursor: listCursor,
  })
  return { data: data.map((entry) => entry.thread), nextCursor, backwardsCursor }
}

/** By time, then id; a key without an id (a backwards cursor's) is equal to every thread of its time. */
function compareKeys(a: ListKey, b: ListKey): number {
  const byTime = compareText(a[0], b[0])
  if (byTime !== 0 || a[1] === undefined || b[1] === undefined) return byTime
  return compareText(a[1], b[1])
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** As Codex: `<time>|<id>` continues after that thread; `<time>` alone starts at that time, included. */
function listCursor({ key: [time, id], includeAnchor }: Anchor<ListKey>): string {
  return includeAnchor || id === undefined ? time : `${time}|${id}`
}

function parseListCursor(cursor: string): Anchor<ListKey> {
  const bar = cursor.indexOf('|')
  const time = bar < 0 ? cursor : cursor.slice(0, bar)
  const ms = Date.parse(time)
  if (Number.isNaN(ms) || bar === cursor.length - 1) throw invalidRequest(`invalid cursor: ${cursor}`)
  const iso = new Date(ms).toISOString()
  return bar < 0 ? { key: [iso, undefined], includeAnchor: true } : { key: [iso, cursor.slice(bar + 1)], includeAnchor: false }
}
