import { z } from 'zod'
import { parseParams } from '../params.js'
import { invalidRequest } from '../rpc-errors.js'
import type { WireItem } from '../wire-items.js'
import type { MethodHandler } from './method-context.js'
import { type Anchor, byNumber, historyCursor, page, pageSize, parseHistoryCursor, sortDirectionSchema } from './paging.js'
import { storedThread, storedTurns } from './thread-view.js'

const threadItemsListParamsSchema = z.object({
  threadId: z.string(),
  turnId: z.string().nullish(),
  cursor: z.union([z.string(), z.object({ type: z.literal('item'), itemId: z.string() })]).nullish(),
  limit: z.number().int().nonnegative().nullish(),
  sortDirection: sortDirectionSchema.nullish(),
})

interface ItemEntry {
  ordinal: number
  turnId: string
  item: WireItem
}

/**
 * `thread/items/list`: pages of a thread's items (`{turnId, item, startedAtMs, completedAtMs}`) across its turns,
 * or of one turn's (`turnId`), rebuilt from its log, oldest first by default. The cursor is a returned cursor, or an
 * item of that turn (`{type:'item', itemId}`) to page after (ascending) or before (descending), excluded.
 */
export const threadItemsList: MethodHandler = async (params, context) => {
  const parsed = parseParams(threadItemsListParamsSchema, params)
  const { threadId } = parsed
  const turnId = parsed.turnId || undefined
  const kernel = await context.kernel()
  const summary = await storedThread(kernel, threadId, `thread not loaded: ${threadId}`)
  const turns = await storedTurns(context, kernel, summary)
  if (turnId !== undefined && !turns.some((turn) => turn.id === turnId)) throw invalidRequest(`turn not found: ${turnId}`)
  let ordinal = 0
  const items: ItemEntry[] = turns.flatMap((turn) => turn.items.map((item) => ({ ordinal: ordinal++, turnId: turn.id, item })))
  const shown = turnId === undefined ? items : items.filter((entry) => entry.turnId === turnId)
  let anchor: Anchor<number> | undefined
  if (typeof parsed.cursor === 'string' && parsed.cursor !== '') anchor = parseHistoryCursor(parsed.cursor, threadId, 'items')
  else if (parsed.cursor && typeof parsed.cursor === 'object') {
    if (turnId === undefined) throw invalidRequest('an item cursor needs a turnId')
    const { itemId } = parsed.cursor
    const at = shown.find((entry) => entry.item.id === itemId)
    if (!at) throw invalidRequest(`item not found in turn ${turnId}: ${itemId}`)
    anchor = { key: at.ordinal, includeAnchor: false }
  }
  const { data, nextCursor, backwardsCursor } = page(shown, (entry) => entry.ordinal, byNumber, {
    direction: parsed.sortDirection ?? 'asc',
    limit: pageSize(parsed.limit),
    anchor,
    cursor: (at) => historyCursor(threadId, 'items', at),
  })
  return {
    data: data.map((entry) => ({
      turnId: entry.turnId,
      item: entry.item,
      startedAtMs: typeof entry.item.startedAtMs === 'number' ? entry.item.startedAtMs : null,
      completedAtMs: typeof entry.item.completedAtMs === 'number' ? entry.item.completedAtMs : null,
    })),
    nextCursor,
    backwardsCursor,
  }
}
