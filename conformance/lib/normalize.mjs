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
