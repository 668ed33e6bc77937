import type { SessionEvent } from '@harness-kernel/kernel'

const textOf = (event: Extract<SessionEvent, { type: 'message' }>) =>
  event.message.content.map((block) => (block.type === 'text' ? block.text : '')).join('')

/** How many user messages of the log carry each input text: every one of `texts` should be there exactly once. */
export function inputViolations(events: readonly SessionEvent[], texts: readonly string[]): { lost: string[]; doubled: string[] } {
  const counts = new Map<string, number>()
  for (const event of events) {
    if (event.type !== 'message' || event.message.role !== 'user') continue
    const text = textOf(event)
    counts.set(text, (counts.get(text) ?? 0) + 1)
  }
  return {
    lost: texts.filter((text) => (counts.get(text) ?? 0) === 0),
    doubled: texts.filter((text) => (counts.get(text) ?? 0) > 1),
  }
}

/** The places where `seq` is not the previous one plus one (the first must be 1). */
export function seqGaps(events: readonly { seq: number }[]): string[] {
  return events.flatMap((event, index) => (event.seq === index + 1 ? [] : [`position ${index + 1} holds seq ${event.seq}`]))
}

/** The places where an event was written under an older epoch than the one before it. */
export function epochRegressions(rows: readonly { seq: number; epoch: number }[]): string[] {
  return rows.flatMap((row, index) => {
    const before = rows[index - 1]
    return before && row.epoch < before.epoch
      ? [`seq ${row.seq} at epoch ${row.epoch} after seq ${before.seq} at epoch ${before.epoch}`]
      : []
  })
}

/** The zombie's epoch never writes once the next epoch has: events of `zombie` after the first event of `next`. */
export function zombieWrites(rows: readonly { seq: number; epoch: number }[], zombie: number, next: number): number[] {
  const firstOfNext = rows.find((row) => row.epoch >= next)?.seq ?? Number.POSITIVE_INFINITY
  return rows.filter((row) => row.epoch === zombie && row.seq > firstOfNext).map((row) => row.seq)
}

/** One line per event, for a failure's report. */
export function describeEvents(events: readonly SessionEvent[], epochs: ReadonlyMap<number, number>): string {
  return events
    .map((event) => {
      const what =
        event.type === 'message'
          ? `${event.message.role} ${JSON.stringify(textOf(event).slice(0, 40))}${event.message.meta?.steeringItemId ? ` [${String(event.message.meta.steeringItemId)}]` : ''}`
          : event.type === 'turn/end'
            ? `${event.turnId} ${event.status}`
            : event.type === 'turn/start'
              ? event.turnId
              : event.type === 'steering/accepted' || event.type === 'steering/dropped'
                ? JSON.stringify({
                    itemIds: event.itemIds,
                    ...(event.type === 'steering/accepted' ? { droppedIds: event.droppedIds } : {}),
                  })
                : event.type === 'notice'
                  ? event.text.slice(0, 160)
                  : ''
      return `${event.seq} e${epochs.get(event.seq) ?? '?'} ${event.type} ${what}`
    })
    .join('\n')
}
