// The markdown report.

const clip = (s, n = 200) => (s.length > n ? `${s.slice(0, n)}…[+${s.length - n}]` : s)
const itemLine = (it) => `${it.kind}: ${it.parts.map((p) => clip(JSON.stringify(p))).join(' ‖ ')}`
const fence = (lines) => ['```', ...lines, '```']

/** What one side did: hook calls, request deltas and the outcome, compactly. */
export function describeRun(result) {
  const seq = (detached) =>
    result.hookCalls
      .filter((c) => c.detached === detached)
      .map((c) => `${c.key}#${c.invocation}`)
      .join(' → ') || '(none)'
  const lines = [`hooks: ${seq(false)}`, `detached hooks: ${seq(true)}`]
  if (result.requests.length === 0) lines.push('requests: none')
  for (const r of result.requests) {
    lines.push(`request ${r.n}${r.dropped ? ` (history rewritten: ${r.dropped} item(s) dropped)` : ''}:`)
    for (const it of r.items) lines.push(`  + ${itemLine(it)}`)
  }
  const o = result.outcome ?? {}
  lines.push(`outcome: ${o.status}${o.reason ? ` (${clip(JSON.stringify(o.reason), 160)})` : ''}`)
  for (const n of result.info?.notifications ?? result.info?.notices ?? []) lines.push(`notice: ${clip(JSON.stringify(n), 200)}`)
  return lines
}

/**
 * @param {{ header: string[], rows: object[], showClaude: boolean }} data
 *   rows: { scenario, claude, kernel, kernelUnavailable, claudeProblems, mismatches, drift, status }
 */
export function renderReport({ header, rows, showClaude }) {
  const out = ['# Claude Code hook conformance: real Claude Code vs @harness-kernel/claude-code', '', ...header.map((h) => `- ${h}`), '']
  out.push('| scenario | rendering | real Claude Code | kernel | result |', '|---|---|---|---|---|')
  for (const r of rows) {
    const c = r.claude
    const claudeCell = !c
      ? 'not run'
      : c.error
        ? `error: ${clip(c.error, 80)}`
        : `${r.claudeProblems.length ? 'UNEXPECTED' : 'ok'} (${c.hookCalls.length} hook calls, ${c.requests.length} requests, ${c.outcome?.status}${c.info?.durationMs ? `, ${(c.info.durationMs / 1000).toFixed(1)} s` : ''})`
    const kernelCell = r.kernelUnavailable ? 'unavailable' : !r.kernel ? 'not run' : r.kernel.error ? 'error' : 'ran'
    out.push(`| ${r.scenario.name} | ${r.scenario.rendering} | ${claudeCell} | ${kernelCell} | ${r.status} |`)
  }
  out.push('')

  const bad = rows.filter((r) => r.claudeProblems.length || r.mismatches.length || r.claude?.error)
  if (bad.length) {
    out.push('## Problems', '')
    for (const r of bad) {
      out.push(`### ${r.scenario.name}`, '', `${r.scenario.description}`, '')
      if (r.claude?.error) out.push(`- real Claude Code run failed: ${r.claude.error}`)
      for (const p of r.claudeProblems) out.push(`- real Claude Code did not behave as the scenario expects: ${p}`)
      const lines = r.mismatches.map((m) => `[${m.area}] ${m.where}: ${m.detail}`)
      if (lines.length) out.push('', ...fence(lines.flatMap((l) => l.split('\n'))))
      if (r.mismatches.length && r.kernel) {
        out.push('', 'real Claude Code:', '', ...fence(describeRun(r.claude)), '', 'kernel:', '', ...fence(describeRun(r.kernel)))
        const texts = (res) =>
          (res.hookTexts ?? []).map((h) => `request ${h.request}, ${h.carrier}, after ${h.after}: ${clip(JSON.stringify(h.text))}`)
        out.push('', 'hook texts (real Claude Code, then kernel):', '', ...fence([...texts(r.claude), '---', ...texts(r.kernel)]))
      }
      out.push('')
    }
  }

  const drifted = rows.filter((r) => r.drift?.length)
  if (drifted.length) {
    out.push('## Drift from conformance/claude-code/expected/ (informational)', '')
    for (const r of drifted)
      out.push(
        `### ${r.scenario.name}`,
        '',
        ...fence(r.drift.map((m) => `[${m.area}] ${m.where}: ${m.detail}`).flatMap((l) => l.split('\n'))),
        '',
      )
  }

  if (showClaude) {
    out.push('## What real Claude Code did', '')
    for (const r of rows) {
      if (!r.claude || r.claude.error) continue
      out.push(`### ${r.scenario.name}`, '', r.scenario.description, '', ...fence(describeRun(r.claude)), '')
    }
  }
  return out.join('\n')
}
