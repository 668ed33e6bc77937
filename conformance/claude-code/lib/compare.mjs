// Compares the normalized real Claude Code result (expected) with the normalized kernel result (actual).
import { TYPE_ONLY_KEYS } from './normalize.mjs'

const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)
const show = (v) => {
  const s = JSON.stringify(v)
  return s === undefined ? 'undefined' : s.length > 300 ? `${s.slice(0, 300)}…` : s
}

/** Keys, key order and value types, recursively (TYPE_ONLY_KEYS at the top: their own type only). */
function compareShape(path, exp, act, out) {
  const [te, ta] = [typeOf(exp), typeOf(act)]
  if (te !== ta) {
    out.push(`${path || '.'}: type ${te} expected, got ${ta} (${show(act)})`)
    return
  }
  if (te === 'object') {
    const [ke, ka] = [Object.keys(exp), Object.keys(act)]
    if (ke.join(',') !== ka.join(',')) {
      const missing = ke.filter((k) => !ka.includes(k))
      const extra = ka.filter((k) => !ke.includes(k))
      const detail = [missing.length ? `missing ${missing.join(', ')}` : '', extra.length ? `extra ${extra.join(', ')}` : '']
        .filter(Boolean)
        .join('; ')
      out.push(`${path || '.'}: keys [${ke.join(', ')}] expected, got [${ka.join(', ')}]${detail ? ` (${detail})` : ' (order differs)'}`)
    }
    for (const k of ke) {
      if (!(k in act)) continue
      if (path === '' && TYPE_ONLY_KEYS.includes(k)) {
        if (typeOf(exp[k]) !== typeOf(act[k])) out.push(`.${k}: type ${typeOf(exp[k])} expected, got ${typeOf(act[k])}`)
      } else compareShape(`${path}.${k}`, exp[k], act[k], out)
    }
  } else if (te === 'array') {
    if (exp.length !== act.length) out.push(`${path}: ${exp.length} element(s) expected, got ${act.length}`)
    for (let i = 0; i < Math.min(exp.length, act.length); i++) compareShape(`${path}[${i}]`, exp[i], act[i], out)
  }
}

const ENV_BY_VALUE = ['CLAUDE_PROJECT_DIR', 'CLAUDECODE', 'CLAUDE_CODE_SESSION_ID', 'CLAUDE_EFFORT']
const ENV_BY_PRESENCE = ['CLAUDE_ENV_FILE']

/** One hook call: stdin encoding, shape, values (all but TYPE_ONLY_KEYS; ids relabelled), env, cwd. */
export function compareHookCall(exp, act) {
  const out = []
  for (const k of ['compactJson', 'oneLine', 'finalNewlines'])
    if (exp.format[k] !== act.format[k]) out.push(`stdin ${k}: ${exp.format[k]} expected, got ${act.format[k]}`)
  compareShape('', exp.payload, act.payload, out)
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

export const itemText = (it) => `${it.kind}: ${it.parts.map((p) => JSON.stringify(p)).join(' ‖ ')}`
const label = (c) => `${c.key}#${c.invocation}`

/**
 * @returns {{ area: string, where: string, detail: string }[]} empty when the runs agree
 */
export function compareResults(claude, kernel) {
  const mismatches = []
  const add = (area, where, detail) => mismatches.push({ area, where, detail })
  if (kernel.error) add('kernel', 'run', kernel.error)

  // (a)+(b) hook calls: which, in what order, each stdin, env and cwd
  for (const detached of [false, true]) {
    const e = claude.hookCalls.filter((c) => c.detached === detached).map(label)
    const a = kernel.hookCalls.filter((c) => c.detached === detached).map(label)
    if (e.join(' ') !== a.join(' '))
      add('hooks', detached ? 'detached calls' : 'sequence', `expected ${e.join(' → ') || '(none)'}\ngot      ${a.join(' → ') || '(none)'}`)
  }
  const byLabel = new Map(kernel.hookCalls.map((c) => [label(c), c]))
  for (const exp of claude.hookCalls) {
    const act = byLabel.get(label(exp))
    if (!act) continue
    for (const d of compareHookCall(exp, act)) add('payload', label(exp), d)
  }

  // (c) model-visible request deltas
  const [re, ra] = [claude.requests, kernel.requests]
  if (re.length !== ra.length) add('requests', 'count', `${re.length} model request(s) expected, got ${ra.length}`)
  for (let n = 0; n < Math.max(re.length, ra.length); n++) {
    const e = re[n]
    const a = ra[n]
    if (!e || !a) {
      const only = e ? 'expected only' : 'kernel only'
      add('requests', `request ${n}`, `${only}: +${(e ?? a).items.map(itemText).join('\n  +')}`)
      continue
    }
    const [te, ta] = [e.items.map(itemText), a.items.map(itemText)]
    if (te.join('\n') !== ta.join('\n') || e.dropped !== a.dropped) {
      add(
        'requests',
        `request ${n}`,
        `expected (history rewritten: ${e.dropped}):\n  + ${te.join('\n  + ') || '(nothing new)'}\ngot (history rewritten: ${a.dropped}):\n  + ${ta.join('\n  + ') || '(nothing new)'}`,
      )
    }
  }

  // the turn's outcome
  const [oe, oa] = [claude.outcome ?? {}, kernel.outcome ?? {}]
  if (oe.status !== oa.status) add('outcome', 'status', `${oe.status} expected, got ${oa.status}`)
  else if (oe.status === 'blocked' && oe.reason !== oa.reason)
    add('outcome', 'blocked reason', `${show(oe.reason)} expected, got ${show(oa.reason)}`)
  return mismatches
}

/** The scenario's own checks on the real Claude Code run (does the scenario do what it says?). */
export function checkExpectations(scenario, claude) {
  const problems = []
  const expect = scenario.expect ?? {}
  const allText = claude.requests.flatMap((r) => r.items.flatMap((it) => it.parts)).join('\n\u0000\n')
  for (const s of expect.contains ?? []) if (!allText.includes(s)) problems.push(`no model-visible text contains ${JSON.stringify(s)}`)
  for (const s of expect.absent ?? [])
    if (allText.includes(s)) problems.push(`model-visible text unexpectedly contains ${JSON.stringify(s)}`)
  if (expect.requests !== undefined && claude.requests.length !== expect.requests)
    problems.push(`${claude.requests.length} model request(s), expected ${expect.requests}`)
  const seq = (detached) => claude.hookCalls.filter((c) => c.detached === detached).map((c) => c.key)
  if (expect.hooks && seq(false).join(' ') !== expect.hooks.join(' '))
    problems.push(`hook calls ${seq(false).join(' → ')}, expected ${expect.hooks.join(' → ')}`)
  if (expect.detached && seq(true).join(' ') !== expect.detached.join(' '))
    problems.push(`detached hook calls ${seq(true).join(' → ') || '(none)'}, expected ${expect.detached.join(' → ')}`)
  if (expect.outcome !== undefined && claude.outcome?.status !== expect.outcome)
    problems.push(`turn outcome ${claude.outcome?.status}, expected ${expect.outcome}`)
  if (claude.info?.sideRequests?.length)
    problems.push(
      `side requests ${claude.info.sideRequests.join(', ')}: they shift the fake server's numbering, which the kernel's model does not`,
    )
  return problems
}
