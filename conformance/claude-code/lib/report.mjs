// The markdown report (its frame, shared with the Codex suite, is ../../lib/report.mjs).
import { clip, fence, hookSequence, renderReport as render, requestLines } from '../../lib/report.mjs'

/** What one side did: hook calls, request deltas and the outcome, compactly. */
export function describeRun(result) {
  const seq = (detached) => hookSequence(result.hookCalls.filter((c) => c.detached === detached))
  const lines = [`hooks: ${seq(false)}`, `detached hooks: ${seq(true)}`, ...requestLines(result.requests, 200)]
  for (const s of result.subagentRequests ?? []) lines.push(...requestLines(s.requests, 200).map((l) => `${s.conversation} ${l}`))
  const o = result.outcome ?? {}
  lines.push(`outcome: ${o.status}${o.reason ? ` (${clip(JSON.stringify(o.reason), 160)})` : ''}`)
  for (const n of result.info?.notifications ?? result.info?.notices ?? []) lines.push(`notice: ${clip(JSON.stringify(n), 200)}`)
  return lines
}

/** The hook-caused texts of a run's requests, one line each. */
const hookTextLines = (result) =>
  (result.hookTexts ?? []).map((h) => `request ${h.request}, ${h.carrier}, after ${h.after}: ${clip(JSON.stringify(h.text), 200)}`)

/**
 * @param {{ header: string[], rows: object[], showClient: boolean }} data
 *   rows: { scenario, client, kernel, kernelUnavailable, clientProblems, mismatches, drift, status }
 */
export function renderReport({ header, rows, showClient }) {
  return render({
    title: 'Claude Code hook conformance: real Claude Code vs @harness-kernel/claude-code',
    client: 'Claude Code',
    dir: 'claude-code',
    header,
    rows,
    showClient,
    describeRun,
    columns: [{ head: 'rendering', cell: (r) => r.scenario.rendering }],
    runDetails: (claude) => [`${claude.outcome?.status}`],
    mismatchExtra: (r) => [
      '',
      'hook texts (real Claude Code, then kernel):',
      '',
      ...fence([...hookTextLines(r.client), '---', ...hookTextLines(r.kernel)]),
    ],
  })
}
