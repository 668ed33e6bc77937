// The markdown report (its frame, shared with the Claude Code suite, is ../../lib/report.mjs).
import { hookSequence, renderReport as render, requestLines } from '../../lib/report.mjs'

/** What one side did: hook calls and request deltas, compactly. */
export function describeRun(result) {
  const lines = [`hooks: ${hookSequence(result.hookCalls)}`, ...requestLines(result.requests, 160)]
  for (const s of result.subagentRequests ?? []) lines.push(...requestLines(s.requests, 160).map((l) => `${s.conversation} ${l}`))
  return lines
}

/**
 * @param {{ header: string[], rows: object[], showClient: boolean }} data
 *   rows: { scenario, client, kernel, kernelUnavailable, clientProblems, mismatches, drift, status }
 */
export function renderReport({ header, rows, showClient }) {
  return render({
    title: 'Codex hook conformance: real Codex vs @harness-kernel/codex',
    client: 'Codex',
    dir: 'codex',
    header,
    rows,
    showClient,
    describeRun,
    clientExtra: (codex) =>
      codex.info?.hookStatusLines?.length ? ['', `hook runs not \`completed\`: ${codex.info.hookStatusLines.join(' | ')}`] : [],
  })
}
