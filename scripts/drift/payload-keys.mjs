// The keys of the recorded hook stdin, per hook event, compared between a saved result (expected/) and a fresh one:
// which keys a new client version added to or removed from what its hooks receive.
import { diffLists } from './list-diff.mjs'

/**
 * Every key path of a JSON value: `tool_input`, `tool_input.command`; an array's elements share `[]`
 * (`edits[].old_string`).
 * @returns {string[]}
 */
export function keyPaths(value, prefix = '') {
  if (Array.isArray(value)) return [...new Set(value.flatMap((element) => keyPaths(element, `${prefix}[]`)))]
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = prefix ? `${prefix}.${key}` : key
    return [path, ...keyPaths(inner, path)]
  })
}

/** The key paths of each hook event's payloads in a normalized result, over all of that event's calls. */
export function eventKeys(result) {
  const keys = new Map()
  for (const call of result.hookCalls ?? []) {
    if (call.payload === undefined) continue
    const set = keys.get(call.event) ?? new Set()
    for (const path of keyPaths(call.payload)) set.add(path)
    keys.set(call.event, set)
  }
  return keys
}

/**
 * The payload keys that changed per hook event, for the events both results have (an event that fired on one side
 * only is a change of the hook order, not of its keys).
 * @returns {{ event: string, added: string[], removed: string[] }[]}
 */
export function diffPayloadKeys(expected, actual) {
  const [before, after] = [eventKeys(expected), eventKeys(actual)]
  return [...before.keys()]
    .filter((event) => after.has(event))
    .map((event) => ({ event, ...diffLists([...before.get(event)], [...after.get(event)]) }))
    .filter((diff) => diff.added.length || diff.removed.length)
}
