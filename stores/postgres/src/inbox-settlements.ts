import type { SessionEvent } from '@harness-kernel/kernel'

/**
 * States the log settles an inbox row in. `recorded`: its item is in the log (a `message` whose `meta.steeringItemId`
 * names it, or a `steering/accepted` event's `itemIds`); `dropped`: it was not acted on and goes back to its sender,
 * never delivered again (a `steering/accepted` event's `droppedIds`: a policy consumed it; a `steering/dropped`
 * event's `itemIds`: the session ended or cancelled it).
 */
export const INBOX_RECORDED = 'recorded'
export const INBOX_DROPPED = 'dropped'

/** Inbox rows the batch settles, as parallel arrays for `unnest`: the first event naming an item settles it. */
export interface InboxSettlements {
  ids: string[]
  states: string[]
  seqs: number[]
}

export function inboxSettlements(events: readonly SessionEvent[]): InboxSettlements {
  const settled = new Map<string, { state: string; seq: number }>()
  const settle = (id: string, state: string, seq: number) => {
    if (!settled.has(id)) settled.set(id, { state, seq })
  }
  for (const event of events) {
    if (event.type === 'message') {
      const id = event.message.meta?.steeringItemId
      if (typeof id === 'string') settle(id, INBOX_RECORDED, event.seq)
    } else if (event.type === 'steering/accepted') {
      for (const id of event.itemIds) settle(id, INBOX_RECORDED, event.seq)
      for (const id of event.droppedIds) settle(id, INBOX_DROPPED, event.seq)
    } else if (event.type === 'steering/dropped') {
      for (const id of event.itemIds) settle(id, INBOX_DROPPED, event.seq)
    }
  }
  const result: InboxSettlements = { ids: [], states: [], seqs: [] }
  for (const [id, { state, seq }] of settled) {
    result.ids.push(id)
    result.states.push(state)
    result.seqs.push(seq)
  }
  return result
}
