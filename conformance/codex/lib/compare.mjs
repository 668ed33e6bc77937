// Compares the normalized Codex result (expected) with the normalized kernel result (actual).
import { RELABEL_KEYS, VALUE_KEYS } from './normalize.mjs'

const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)
const show = (v) => {
  const s = JSON.stringify(v)
  return s === undefined ? 'undefined' : s.length > 300 ? `${s.slice(0, 300)}…` : s
}

/** Keys, key order and value types, recursively. */
function compareShape(path, exp, act, out) {
  const [te, ta] = [typeOf(exp), typeOf(act)]
  if (te !== ta) {
    out.push(`${path}: type ${te} expected, got ${ta} (${show(act)})`)
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
    for (const k of ke) if (k in act) compareShape(`${path}.${k}`, exp[k], act[k], out)
  } else if (te === 'array') {
    for (let i = 0; i < Math.min(exp.length, act.length); i++) compareShape(`${path}[${i}]`, exp[i], act[i], out)
  }
}

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

const itemText = (it) => `${it.kind}: ${it.parts.map((p) => JSON.stringify(p)).join(' ‖ ')}`

/**
 * @returns {{ area: string, where: string, detail: string }[]} empty when the runs agree
 */
export function compareResults(codex, kernel) {
  const mismatches = []
  const add = (area, where, detail) => mismatches.push({ area, where, detail })
  if (kernel.error) add('kernel', 'run', kernel.error)

  // (a) hook calls: which, in what order, and each payload
  const label = (c) => `${c.key}#${c.invocation}`
  const expSeq = codex.hookCalls.map(label)
  const actSeq = kernel.hookCalls.map(label)
  if (expSeq.join(' ') !== actSeq.join(' '))
    add('hooks', 'sequence', `expected ${expSeq.join(' → ') || '(none)'}\ngot      ${actSeq.join(' → ') || '(none)'}`)
  const byLabel = new Map(kernel.hookCalls.map((c) => [label(c), c]))
  for (const exp of codex.hookCalls) {
    const act = byLabel.get(label(exp))
    if (!act) continue
    for (const d of compareHookCall(exp, act)) add('payload', label(exp), d)
  }

  // (b) model-visible request deltas
  const [re, ra] = [codex.requests, kernel.requests]
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
  return mismatches
}

/** The scenario's own sanity checks on the Codex run (does the scenario do what it says?). */
export function checkExpectations(scenario, codex) {
  const problems = []
  const expect = scenario.expect ?? {}
  const allText = codex.requests.flatMap((r) => r.items.flatMap((it) => it.parts)).join('\n\u0000\n')
  for (const s of expect.contains ?? []) if (!allText.includes(s)) problems.push(`no model-visible text contains ${JSON.stringify(s)}`)
  for (const s of expect.absent ?? [])
    if (allText.includes(s)) problems.push(`model-visible text unexpectedly contains ${JSON.stringify(s)}`)
  if (expect.requests !== undefined && codex.requests.length !== expect.requests)
    problems.push(`${codex.requests.length} model request(s), expected ${expect.requests}`)
  if (expect.hooks) {
    const seq = codex.hookCalls.map((c) => c.key)
    if (seq.join(' ') !== expect.hooks.join(' ')) problems.push(`hook calls ${seq.join(' → ')}, expected ${expect.hooks.join(' → ')}`)
  }
  return problems
}
