// Two lists of names compared as sets, each side's order kept: what the second has that the first has not, and back.

/**
 * @param {readonly string[]} before
 * @param {readonly string[]} after
 * @returns {{ added: string[], removed: string[] }}  added: only in `after`; removed: only in `before`
 */
export function diffLists(before, after) {
  const [was, is] = [new Set(before), new Set(after)]
  return { added: [...is].filter((name) => !was.has(name)), removed: [...was].filter((name) => !is.has(name)) }
}

export const isEmptyDiff = (diff) => diff.added.length === 0 && diff.removed.length === 0
