// The markdown report.

const clip = (s, n = 160) => (s.length > n ? `${s.slice(0, n)}…[+${s.length - n}]` : s)
const itemLine = (it) => `${it.kind}: ${it.parts.map((p) => clip(JSON.stringify(p))).join(' ‖ ')}`
const fence = (lines) => ['```', ...lines, '```']

/** What one side did: hook calls and request deltas, compactly. */
export function describeRun(result) {
  const lines = [`hooks: ${result.hookCalls.map((c) => `${c.key}#${c.invocation}`).join(' → ') || '(none)'}`]
  if (result.requests.length === 0) lines.push('requests: none')
  for (const r of result.requests) {
    lines.push(`request ${r.n}${r.dropped ? ` (history rewritten: ${r.dropped} item(s) dropped)` : ''}:`)
    for (const it of r.items) lines.push(`  + ${itemLine(it)}`)
  }
  return lines
}

/**
 * @param {{ header: string[], rows: object[], showCodex: boolean }} data
 *   rows: { scenario, codex, kernel, codexProblems, mismatches, drift, status }
 */
export function renderReport({ header, rows, showCodex }) {
  const out = ['# Codex hook conformance: real Codex vs @harness-kernel/codex', '', ...header.map((h) => `- ${h}`), '']
  out.push('| scenario | real Codex | kernel | result |', '|---|---|---|---|')
  for (const r of rows) {
    const c = r.codex
    const codexCell = !c
      ? 'not run'
      : c.error
        ? `error: ${clip(c.error, 80)}`
        : `${r.codexProblems.length ? 'UNEXPECTED' : 'ok'} (${c.hookCalls.length} hook calls, ${c.requests.length} requests${c.info?.durationMs ? `, ${(c.info.durationMs / 1000).toFixed(1)} s` : ''})`
    const kernelCell = r.kernelUnavailable ? 'unavailable' : !r.kernel ? 'not run' : r.kernel.error ? 'error' : 'ran'
    out.push(`| ${r.scenario.name} | ${codexCell} | ${kernelCell} | ${r.status} |`)
  }
  out.push('')

  const bad = rows.filter((r) => r.codexProblems.length || r.mismatches.length || r.codex?.error)
  if (bad.length) {
    out.push('## Problems', '')
    for (const r of bad) {
      out.push(`### ${r.scenario.name}`, '', `${r.scenario.description}`, '')
      if (r.codex?.error) out.push(`- real Codex run failed: ${r.codex.error}`)
      for (const p of r.codexProblems) out.push(`- real Codex did not behave as the scenario expects: ${p}`)
      const lines = r.mismatches.map((m) => `[${m.area}] ${m.where}: ${m.detail}`)
      if (lines.length) out.push('', ...fence(lines.flatMap((l) => l.split('\n'))))
      if (r.mismatches.length && r.kernel) {
        out.push('', 'real Codex:', '', ...fence(describeRun(r.codex)), '', 'kernel:', '', ...fence(describeRun(r.kernel)))
      }
      out.push('')
    }
  }

  const drifted = rows.filter((r) => r.drift?.length)
  if (drifted.length) {
    out.push('## Drift from conformance/codex/expected/ (informational)', '')
    for (const r of drifted)
      out.push(
        `### ${r.scenario.name}`,
        '',
        ...fence(r.drift.map((m) => `[${m.area}] ${m.where}: ${m.detail}`).flatMap((l) => l.split('\n'))),
        '',
      )
  }

  if (showCodex) {
    out.push('## What real Codex did', '')
    for (const r of rows) {
      if (!r.codex || r.codex.error) continue
      out.push(`### ${r.scenario.name}`, '', r.scenario.description, '', ...fence(describeRun(r.codex)))
      if (r.codex.info?.hookStatusLines?.length) out.push('', `hook runs not \`completed\`: ${r.codex.info.hookStatusLines.join(' | ')}`)
      out.push('')
    }
  }
  return out.join('\n')
}
