// The order of recorded hook calls, the same on both sides of a suite.

/**
 * Hook calls in start order become a deterministic order: calls of one event that are adjacent in time (the handlers of
 * one occurrence, started together) are ordered by (invocation, tag), since their start order is a race.
 * @template {{ event: string, tag: string, invocation: number }} C
 * @param {C[]} calls  by start time
 * @returns {C[]}
 */
export function orderOccurrences(calls) {
  const ordered = []
  for (let i = 0; i < calls.length; ) {
    let j = i + 1
    while (j < calls.length && calls[j].event === calls[i].event) j++
    ordered.push(...calls.slice(i, j).sort((a, b) => a.invocation - b.invocation || a.tag.localeCompare(b.tag)))
    i = j
  }
  return ordered
}
