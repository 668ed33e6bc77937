// Compares the normalized real Claude Code result (expected) with the normalized kernel result (actual);
// the comparators both suites share are in ../../lib/compare.mjs.
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
import { TYPE_ONLY_KEYS } from './normalize.mjs'

const ENV_BY_VALUE = ['CLAUDE_PROJECT_DIR', 'CLAUDECODE', 'CLAUDE_CODE_SESSION_ID', 'CLAUDE_EFFORT']
const ENV_BY_PRESENCE = ['CLAUDE_ENV_FILE']

/** One hook call: stdin encoding, shape, values (all but TYPE_ONLY_KEYS; ids relabelled), env, cwd. */
export function compareHookCall(exp, act) {
  const out = []
  for (const k of ['compactJson', 'oneLine', 'finalNewlines'])
    if (exp.format[k] !== act.format[k]) out.push(`stdin ${k}: ${exp.format[k]} expected, got ${act.format[k]}`)
  // keys, key order and value types, recursively (TYPE_ONLY_KEYS at the top: their own type only; arrays by length too)
  compareShape('', exp.payload, act.payload, out, { typeOnlyKeys: TYPE_ONLY_KEYS, elementCounts: true })
  for (const k of Object.keys(exp.payload)) {
    if (!(k in act.payload) || TYPE_ONLY_KEYS.includes(k)) continue
    if (JSON.stringify(exp.payload[k]) !== JSON.stringify(act.payload[k]))
      out.push(`.${k}: ${show(exp.payload[k])} expected, got ${show(act.payload[k])}`)
  }
  for (const k of ENV_BY_VALUE)
    if ((exp.env[k] ?? null) !== (act.env[k] ?? null))
      out.push(`env ${k}: ${show(exp.env[k] ?? null)} expected, got ${show(act.env[k] ?? null)}`)
  for (const k of ENV_BY_PRESENCE)
    if (k in exp.env !== k in act.env)
      out.push(`env ${k}: ${k in exp.env ? 'set' : 'unset'} expected, got ${k in act.env ? 'set' : 'unset'}`)
  if (exp.cwd !== act.cwd) out.push(`cwd: ${show(exp.cwd)} expected, got ${show(act.cwd)}`)
  return out
}

/**
 * @returns {{ area: string, where: string, detail: string }[]} empty when the runs agree
 */
export function compareResults(claude, kernel) {
  const mismatches = []
  const add = (area, where, detail) => mismatches.push({ area, where, detail })
  if (kernel.error) add('kernel', 'run', kernel.error)

  // (a)+(b) hook calls: which, in what order, each stdin, env and cwd
  compareHookCalls(add, claude.hookCalls, kernel.hookCalls, compareHookCall, [
    ['sequence', (c) => c.detached === false],
    ['detached calls', (c) => c.detached === true],
  ])

  // (c) model-visible request deltas
  compareRequests(add, claude.requests, kernel.requests)
  compareSubagentRequests(add, claude.subagentRequests, kernel.subagentRequests)

  // the turn's outcome
  const [oe, oa] = [claude.outcome ?? {}, kernel.outcome ?? {}]
  if (oe.status !== oa.status) add('outcome', 'status', `${oe.status} expected, got ${oa.status}`)
  else if (oe.status === 'blocked' && oe.reason !== oa.reason)
    add('outcome', 'blocked reason', `${show(oe.reason)} expected, got ${show(oa.reason)}`)
  return mismatches
}

/** The scenario's own checks on the real Claude Code run (does the scenario do what it says?). */
export function checkExpectations(scenario, claude) {
  const expect = scenario.expect ?? {}
  const problems = checkModelText({ ...expect, requests: undefined }, allRequests(claude))
  if (expect.requests !== undefined && claude.requests.length !== expect.requests)
    problems.push(`${claude.requests.length} model request(s), expected ${expect.requests}`)
  if (expect.subagentRequests !== undefined) {
    const got = (claude.subagentRequests ?? []).map((s) => s.requests.length)
    if (got.join(',') !== expect.subagentRequests.join(','))
      problems.push(`subagent model requests [${got.join(', ')}], expected [${expect.subagentRequests.join(', ')}]`)
  }
  const calls = (detached) => claude.hookCalls.filter((c) => c.detached === detached)
  if (expect.hooks) problems.push(...checkHookKeys('hook calls', calls(false), expect.hooks))
  if (expect.detached) problems.push(...checkHookKeys('detached hook calls', calls(true), expect.detached, '(none)'))
  if (expect.outcome !== undefined && claude.outcome?.status !== expect.outcome)
    problems.push(`turn outcome ${claude.outcome?.status}, expected ${expect.outcome}`)
  if (claude.info?.sideRequests?.length)
    problems.push(
      `side requests ${claude.info.sideRequests.join(', ')}: they shift the fake server's numbering, which the kernel's model does not`,
    )
  return problems
}
