// Comparators both suites share: payload shapes, hook call sequences, model-visible request
// deltas, and the scenarios' checks on the model-visible text. Each finding is one line of text
// (`add(area, where, detail)` for a mismatch, a string for a scenario problem).

export const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)
export const show = (v) => {
  const s = JSON.stringify(v)
  return s === undefined ? 'undefined' : s.length > 300 ? `${s.slice(0, 300)}…` : s
}

/**
 * Keys, key order and value types, recursively, pushed onto `out`.
 * @param {{ typeOnlyKeys?: string[], elementCounts?: boolean }} [options]
 *   typeOnlyKeys: top-level keys whose value is compared by its own type only; elementCounts: arrays of different lengths differ
 */
export function compareShape(path, exp, act, out, options = {}) {
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
      if (path === '' && options.typeOnlyKeys?.includes(k)) {
        if (typeOf(exp[k]) !== typeOf(act[k])) out.push(`.${k}: type ${typeOf(exp[k])} expected, got ${typeOf(act[k])}`)
      } else compareShape(`${path}.${k}`, exp[k], act[k], out, options)
    }
  } else if (te === 'array') {
    if (options.elementCounts && exp.length !== act.length) out.push(`${path}: ${exp.length} element(s) expected, got ${act.length}`)
    for (let i = 0; i < Math.min(exp.length, act.length); i++) compareShape(`${path}[${i}]`, exp[i], act[i], out, options)
  }
}

/** A hook call as the report names it: `<Event>/<tag>#<invocation>`. */
export const hookLabel = (c) => `${c.key}#${c.invocation}`

/**
 * The hook calls: which, in what order, then each expected call against the kernel's call of the same label
 * (`compareHookCall(exp, act)`: its differences, as `payload` mismatches). `sequences` splits the calls into sequences
 * ordered on their own, `[where, pick]`: one `hooks` mismatch at `where` for each that differs.
 */
export function compareHookCalls(add, expCalls, actCalls, compareHookCall, sequences = [['sequence', () => true]]) {
  for (const [where, pick] of sequences) {
    const e = expCalls.filter(pick).map(hookLabel)
    const a = actCalls.filter(pick).map(hookLabel)
    if (e.join(' ') !== a.join(' ')) add('hooks', where, `expected ${e.join(' → ') || '(none)'}\ngot      ${a.join(' → ') || '(none)'}`)
  }
  const byLabel = new Map(actCalls.map((c) => [hookLabel(c), c]))
  for (const exp of expCalls) {
    const act = byLabel.get(hookLabel(exp))
    if (!act) continue
    for (const d of compareHookCall(exp, act)) add('payload', hookLabel(exp), d)
  }
}

export const itemText = (it) => `${it.kind}: ${it.parts.map((p) => JSON.stringify(p)).join(' ‖ ')}`

/** The model-visible request deltas: how many requests, and each one's new items and dropped count. */
export function compareRequests(add, re, ra) {
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
}

/** A scenario's `expect.contains`, `expect.absent` and `expect.requests` on a real run's request deltas: the problems. */
export function checkModelText(expect, requests) {
  const problems = []
  const allText = requests.flatMap((r) => r.items.flatMap((it) => it.parts)).join('\n\u0000\n')
  for (const s of expect.contains ?? []) if (!allText.includes(s)) problems.push(`no model-visible text contains ${JSON.stringify(s)}`)
  for (const s of expect.absent ?? [])
    if (allText.includes(s)) problems.push(`model-visible text unexpectedly contains ${JSON.stringify(s)}`)
  if (expect.requests !== undefined && requests.length !== expect.requests)
    problems.push(`${requests.length} model request(s), expected ${expect.requests}`)
  return problems
}

/** A scenario's expected hook sequence (`<Event>/<tag>` keys) against the real run's: a problem, or none. */
export function checkHookKeys(what, calls, expected, none = '') {
  const seq = calls.map((c) => c.key)
  return seq.join(' ') === expected.join(' ') ? [] : [`${what} ${seq.join(' → ') || none}, expected ${expected.join(' → ')}`]
}

/** The subagents' conversations (`subagentRequests`, absent = none): how many, then each one's request deltas. */
export function compareSubagentRequests(add, se = [], sa = []) {
  if (se.length !== sa.length) add('requests', 'subagents', `${se.length} subagent conversation(s) expected, got ${sa.length}`)
  for (let i = 0; i < Math.min(se.length, sa.length); i++) {
    const prefixed = (area, where, detail) => add(area, `${se[i].conversation} ${where}`, detail)
    compareRequests(prefixed, se[i].requests, sa[i].requests)
  }
}

/** Every request delta of a run, its subagents' included (for the scenarios' model-text checks). */
export const allRequests = (result) => [...result.requests, ...(result.subagentRequests ?? []).flatMap((s) => s.requests)]
