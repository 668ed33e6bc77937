// How a scenario's fresh result differs from its saved one, in the terms a reader checks first: the order of the hook
// calls, the number of model requests, the turn's outcome.

/** A hook call as the suites' reports name it: `<Event>/<tag>#<invocation>`. */
const hookLabel = (call) => `${call.key}#${call.invocation}`

/**
 * The sequence a call is ordered in, as the suites compare them: a subagent's calls (`<agent-N> …`) apart from the
 * root's, which run concurrently, and detached calls apart from the others.
 */
const sequenceOf = (call) => `${/^(<agent-\d+>) /.exec(call.key)?.[1] ?? 'root'}${call.detached ? ' detached' : ''}`

/** The labels of each sequence's calls, by sequence. */
function sequences(calls) {
  const out = new Map()
  for (const call of calls ?? []) out.set(sequenceOf(call), [...(out.get(sequenceOf(call)) ?? []), hookLabel(call)])
  return out
}

/** A result's outcome: the turn's status where the suite records one (Claude Code), else the client's exit code. */
export function outcomeOf(result) {
  if (result.outcome) return [result.outcome.status, result.outcome.reason].filter(Boolean).join(': ')
  if (result.info?.rc !== undefined) return `exit ${result.info.rc}`
  return '(none)'
}

/**
 * @returns {{ hookOrder?: { expected: string[], actual: string[] }, requests?: { expected: number, actual: number }, outcome?: { expected: string, actual: string } }}
 *   only what differs; hookOrder: the calls of the sequences that differ
 */
export function scenarioChanges(expected, actual) {
  const changes = {}
  const [was, is] = [sequences(expected.hookCalls), sequences(actual.hookCalls)]
  const differing = [...new Set([...was.keys(), ...is.keys()])].filter(
    (seq) => (was.get(seq) ?? []).join('\n') !== (is.get(seq) ?? []).join('\n'),
  )
  if (differing.length)
    changes.hookOrder = { expected: differing.flatMap((seq) => was.get(seq) ?? []), actual: differing.flatMap((seq) => is.get(seq) ?? []) }
  const [before, after] = [expected.requests?.length ?? 0, actual.requests?.length ?? 0]
  if (before !== after) changes.requests = { expected: before, actual: after }
  const [then, now] = [outcomeOf(expected), outcomeOf(actual)]
  if (then !== now) changes.outcome = { expected: then, actual: now }
  return changes
}

/**
 * The hook order change as short text: the calls only one side has, or `same calls, new order`.
 * @param {{ expected: string[], actual: string[] }} order
 */
export function describeHookOrder({ expected, actual }) {
  const gone = expected.filter((label) => !actual.includes(label))
  const added = actual.filter((label) => !expected.includes(label))
  const parts = [...added.map((label) => `+${label}`), ...gone.map((label) => `-${label}`)]
  return parts.length ? parts.join(', ') : `same calls, new order: ${actual.join(' → ')}`
}
