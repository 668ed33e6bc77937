// Normalization both suites share: per-run paths become placeholders, and a run's model requests
// become what each one added.

/** Replaces each [absolute path, placeholder] (longest first) in a string; an empty path is skipped. */
export function normalizePaths(text, pathMap) {
  const sorted = [...pathMap].sort((a, b) => b[0].length - a[0].length)
  let out = text
  for (const [from, to] of sorted) if (from) out = out.replaceAll(from, to)
  return out
}

/** For each request, the items after its longest common prefix with the previous request. */
export function requestDeltas(itemLists) {
  const deltas = []
  let prev = []
  itemLists.forEach((items, n) => {
    const key = (it) => JSON.stringify(it)
    let i = 0
    while (i < items.length && i < prev.length && key(items[i]) === key(prev[i])) i++
    deltas.push({ n, dropped: prev.length - i, items: items.slice(i) })
    prev = items
  })
  return deltas
}

/**
 * Model requests of several conversations (a session and its subagents) split by conversation: `main` (the deltas of
 * the requests whose `conversation` is `mainKey`) and `subagents` (one `{ conversation, requests }` per other
 * conversation, in the order of their first request, named `subagent-1`, `subagent-2`, …; their deltas taken within
 * the conversation). The two programs interleave a parent's and a child's requests by timing, so only the order
 * within a conversation is compared.
 * @param {{ conversation: unknown, items: object[] }[]} requests  in the order they were made
 */
export function splitConversations(requests, mainKey) {
  const order = []
  const lists = new Map()
  for (const r of requests) {
    const key = r.conversation === mainKey ? mainKey : r.conversation
    if (!lists.has(key)) {
      lists.set(key, [])
      if (key !== mainKey) order.push(key)
    }
    lists.get(key).push(r.items)
  }
  return {
    main: requestDeltas(lists.get(mainKey) ?? []),
    subagents: order.map((key, i) => ({ conversation: `subagent-${i + 1}`, requests: requestDeltas(lists.get(key)) })),
  }
}
