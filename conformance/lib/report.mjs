// The markdown report both suites print: the table of scenarios, then the problems, the drift
// from the saved results and (on request) what the real client did. Each suite supplies what
// differs: its extra columns and cell details, how it describes a run, its extra lines.
import { hookLabel } from './compare.mjs'

/** `s` cut to `n` characters, with how many more there were. */
export const clip = (s, n) => (s.length > n ? `${s.slice(0, n)}…[+${s.length - n}]` : s)
export const fence = (lines) => ['```', ...lines, '```']
const mismatchLines = (mismatches) => mismatches.map((m) => `[${m.area}] ${m.where}: ${m.detail}`).flatMap((l) => l.split('\n'))

/** A run's hook calls as one sequence, `(none)` for none. */
export const hookSequence = (calls) => calls.map(hookLabel).join(' → ') || '(none)'

/** A run's request deltas, compactly: one line per request, one per new item (its parts clipped to `width`). */
export function requestLines(requests, width) {
  const lines = []
  if (requests.length === 0) lines.push('requests: none')
  for (const r of requests) {
    lines.push(`request ${r.n}${r.dropped ? ` (history rewritten: ${r.dropped} item(s) dropped)` : ''}:`)
    for (const it of r.items) lines.push(`  + ${it.kind}: ${it.parts.map((p) => clip(JSON.stringify(p), width)).join(' ‖ ')}`)
  }
  return lines
}

/**
 * @param {object} data
 * @param {string} data.title            the report's heading
 * @param {string} data.client           the real client's name: `Codex`, `Claude Code`
 * @param {string} data.dir              the suite's folder under conformance/
 * @param {string[]} data.header
 * @param {object[]} data.rows           { scenario, client, kernel, kernelUnavailable, clientProblems, mismatches, drift, status }
 * @param {boolean} data.showClient      add what the real client did in every scenario
 * @param {(result: object) => string[]} data.describeRun  what one side did, compactly
 * @param {{ head: string, cell: (row: object) => string }[]} [data.columns]  columns between the scenario and the real client
 * @param {(result: object) => string[]} [data.runDetails]  more of the real client's cell, after its counts
 * @param {(row: object) => string[]} [data.mismatchExtra]  lines after both sides' runs of a mismatching scenario
 * @param {(result: object) => string[]} [data.clientExtra]  lines after what the real client did in a scenario
 */
export function renderReport({
  title,
  client,
  dir,
  header,
  rows,
  showClient,
  describeRun,
  columns = [],
  runDetails = () => [],
  mismatchExtra = () => [],
  clientExtra = () => [],
}) {
  const out = [`# ${title}`, '', ...header.map((h) => `- ${h}`), '']
  const head = ['scenario', ...columns.map((c) => c.head), `real ${client}`, 'kernel', 'result']
  out.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---|').join('')}`)
  for (const r of rows) {
    const c = r.client
    const counts = () =>
      [`${c.hookCalls.length} hook calls`, `${c.requests.length} requests`, ...runDetails(c)].join(', ') +
      (c.info?.durationMs ? `, ${(c.info.durationMs / 1000).toFixed(1)} s` : '')
    const clientCell = !c
      ? 'not run'
      : c.skipped
        ? 'skipped'
        : c.error
          ? `error: ${clip(c.error, 80)}`
          : `${r.clientProblems.length ? 'UNEXPECTED' : 'ok'} (${counts()})`
    const kernelCell = r.kernelUnavailable ? 'unavailable' : !r.kernel ? 'not run' : r.kernel.error ? 'error' : 'ran'
    out.push(`| ${[r.scenario.name, ...columns.map((col) => col.cell(r)), clientCell, kernelCell, r.status].join(' | ')} |`)
  }
  out.push('')

  const bad = rows.filter((r) => r.clientProblems.length || r.mismatches.length || r.client?.error)
  if (bad.length) {
    out.push('## Problems', '')
    for (const r of bad) {
      out.push(`### ${r.scenario.name}`, '', `${r.scenario.description}`, '')
      if (r.client?.error) out.push(`- real ${client} run failed: ${r.client.error}`)
      for (const p of r.clientProblems) out.push(`- real ${client} did not behave as the scenario expects: ${p}`)
      const lines = mismatchLines(r.mismatches)
      if (lines.length) out.push('', ...fence(lines))
      if (r.mismatches.length && r.kernel) {
        out.push('', `real ${client}:`, '', ...fence(describeRun(r.client)), '', 'kernel:', '', ...fence(describeRun(r.kernel)))
        out.push(...mismatchExtra(r))
      }
      out.push('')
    }
  }

  const drifted = rows.filter((r) => r.drift?.length)
  if (drifted.length) {
    out.push(`## Drift from conformance/${dir}/expected/ (informational)`, '')
    for (const r of drifted) out.push(`### ${r.scenario.name}`, '', ...fence(mismatchLines(r.drift)), '')
  }

  if (showClient) {
    out.push(`## What real ${client} did`, '')
    for (const r of rows) {
      if (!r.client || r.client.error || r.client.skipped) continue
      out.push(`### ${r.scenario.name}`, '', r.scenario.description, '', ...fence(describeRun(r.client)), ...clientExtra(r.client), '')
    }
  }
  return out.join('\n')
}
