import { z } from 'zod'
import { parseParams } from '../params.js'
import type { WireTurn } from '../wire-items.js'
import type { MethodHandler } from './method-context.js'
import { byNumber, historyCursor, page, pageSize, parseHistoryCursor, sortDirectionSchema } from './paging.js'
import { storedThread, storedTurns } from './thread-view.js'

const itemsViewSchema = z.enum(['notLoaded', 'summary', 'full'])

const threadTurnsListParamsSchema = z.object({
  threadId: z.string(),
  cursor: z.string().nullish(),
  limit: z.number().int().nonnegative().nullish(),
  sortDirection: sortDirectionSchema.nullish(),
  itemsView: itemsViewSchema.nullish(),
})

/**
 * `thread/turns/list`: pages of a thread's turns, rebuilt from its log (a running turn is `inProgress`), newest
 * first by default. Each turn carries its items as `itemsView` asks: `summary` (default: the first user message and
 * the last agent message, as Codex), `full`, or `notLoaded`.
 */
export const threadTurnsList: MethodHandler = async (params, context) => {
  const parsed = parseParams(threadTurnsListParamsSchema, params)
  const kernel = await context.kernel()
  const summary = await storedThread(kernel, parsed.threadId, `thread not loaded: ${parsed.threadId}`)
  const anchor = parsed.cursor ? parseHistoryCursor(parsed.cursor, parsed.threadId, 'turns') : undefined
  const turns = (await storedTurns(context, kernel, summary)).map((turn, ordinal) => ({ ordinal, turn }))
  const { data, nextCursor, backwardsCursor } = page(turns, (entry) => entry.ordinal, byNumber, {
    direction: parsed.sortDirection ?? 'desc',
    limit: pageSize(parsed.limit),
    anchor,
    cursor: (at) => historyCursor(parsed.threadId, 'turns', at),
  })
  return { data: data.map(({ turn }) => withItemsView(turn, parsed.itemsView ?? 'summary')), nextCursor, backwardsCursor }
}

function withItemsView(turn: WireTurn, itemsView: z.infer<typeof itemsViewSchema>): WireTurn {
  if (itemsView === 'full') return { ...turn, itemsView }
  if (itemsView === 'notLoaded') return { ...turn, items: [], itemsView }
  const user = turn.items.find((item) => item.type === 'userMessage')
  const agent = turn.items.findLast((item) => item.type === 'agentMessage')
  return { ...turn, items: [user, agent].filter((item) => item !== undefined), itemsView }
}
