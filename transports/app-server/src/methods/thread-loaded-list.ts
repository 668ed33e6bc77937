import { z } from 'zod'
import { parseParams } from '../params.js'
import type { MethodHandler } from './method-context.js'

const threadLoadedListParamsSchema = z.object({ cursor: z.string().nullish(), limit: z.number().int().nonnegative().nullish() }).nullish()

/** `thread/loaded/list`: the ids of the threads this server has loaded, in id order; no limit unless asked. */
export const threadLoadedList: MethodHandler = (params, context) => {
  const parsed = parseParams(threadLoadedListParamsSchema, params) ?? {}
  const cursor = parsed.cursor ?? undefined
  const ids = [...context.threads.keys()].sort().filter((id) => cursor === undefined || id > cursor)
  const limit = parsed.limit === undefined || parsed.limit === null ? ids.length : Math.max(parsed.limit, 1)
  const data = ids.slice(0, limit)
  return { data, nextCursor: ids.length > limit ? (data.at(-1) ?? null) : null }
}
