// Compares the normalized Codex result (expected) with the normalized kernel result (actual); the
// comparators both suites share are in ../../lib/compare.mjs.
import {
  allRequests,
  checkHookKeys,
  checkModelText,
  compareHookCalls,
  compareRequests,
  compareShape,
  compareSubagentRequests,
  show,
} from '../../lib/compare.mjs'
import { hookSequences, RELABEL_KEYS, VALUE_KEYS } from './normalize.mjs'

/** One hook call: stdin format, shape, and the values of VALUE_KEYS and RELABEL_KEYS. */
export function compareHookCall(exp, act) {
  const out = []
  if (exp.format.compactJson !== act.format.compactJson)
    out.push(`stdin compact JSON: ${exp.format.compactJson} expected, got ${act.format.compactJson}`)
  if (exp.format.trailingNewline !== act.format.trailingNewline)
    out.push(`stdin trailing newline: ${exp.format.trailingNewline} expected, got ${act.format.trailingNewline}`)
  compareShape('', exp.payload, act.payload, out)
  for (const k of Object.keys(exp.payload)) {
    if (!(k in act.payload)) continue
    if (!VALUE_KEYS.includes(k) && !(k in RELABEL_KEYS)) continue
    if (JSON.stringify(exp.payload[k]) !== JSON.stringify(act.payload[k]))
      out.push(`.${k}: ${show(exp.payload[k])} expected, got ${show(act.payload[k])}`)
  }
  return out
}

/**
 * @returns {{ area: string, where: string, detail: string }[]} empty when the runs agree
 */
export function compareResults(codex, kernel) {
  const mismatches = []
  const add = (area, where, detail) => mismatches.push({ area, where, detail })
  if (kernel.error) add('kernel', 'run', kernel.error)

  // (a) hook calls: which, in what order (the root's and each subagent's apart), and each payload
  compareHookCalls(add, codex.hookCalls, kernel.hookCalls, compareHookCall, hookSequences(codex, kernel))

  // (b) model-visible request deltas: the root thread's, then each subagent's
  compareRequests(add, codex.requests, kernel.requests)
  compareSubagentRequests(add, codex.subagentRequests, kernel.subagentRequests)
  return mismatches
}

/** The scenario's own sanity checks on the Codex run (does the scenario do what it says?). */
export function checkExpectations(scenario, codex) {
  const expect = scenario.expect ?? {}
  const problems = checkModelText({ ...expect, requests: undefined }, allRequests(codex))
  if (expect.requests !== undefined && codex.requests.length !== expect.requests)
    problems.push(`${codex.requests.length} model request(s), expected ${expect.requests}`)
  if (expect.subagentRequests !== undefined) {
    const got = (codex.subagentRequests ?? []).map((s) => s.requests.length)
    if (got.join(',') !== expect.subagentRequests.join(','))
      problems.push(`subagent model requests [${got.join(', ')}], expected [${expect.subagentRequests.join(', ')}]`)
  }
  if (expect.hooks) problems.push(...checkHookKeys('hook calls', codex.hookCalls, expect.hooks))
  return problems
}
