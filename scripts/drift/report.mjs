// The drift report (markdown): what changed in the newest published Codex and Claude Code against the pins' saved
// results, as tables. Pure: run.mjs gathers the data.
import { describeHookOrder } from './scenario-changes.mjs'
import { listCell, markdownTable } from './table.mjs'

/** At most `n` names, then how many more. */
const some = (names, n = 8) => (names.length > n ? `${names.slice(0, n).join(', ')} … (+${names.length - n})` : listCell(names))

/**
 * @typedef {{ name: string, error?: string, skipped?: string, saved: boolean, keys: { event: string, added: string[], removed: string[] }[],
 *   changes: ReturnType<import('./scenario-changes.mjs').scenarioChanges>, other: string[] }} ScenarioDrift
 * @typedef {{ client: string, pin: string, version: string, scenarios: ScenarioDrift[], report: string }} SuiteDrift
 * @typedef {{ client: string, compared: string, added: string[], removed: string[] }} EventDrift
 * @typedef {{ from: string, to: string, diff: ReturnType<import('./schema-diff.mjs').diffSchemas> }} SchemaDrift
 */

/** Payload key changes grouped by event and change, with the scenarios that show each. */
export function groupKeyChanges(scenarios) {
  const groups = new Map()
  for (const scenario of scenarios)
    for (const { event, added, removed } of scenario.keys) {
      const id = JSON.stringify([event, added, removed])
      const group = groups.get(id) ?? { event, added, removed, scenarios: [] }
      group.scenarios.push(scenario.name)
      groups.set(id, group)
    }
  return [...groups.values()].sort((a, b) => a.event.localeCompare(b.event) || b.scenarios.length - a.scenarios.length)
}

/** @param {SuiteDrift} suite */
function payloadSection(suite) {
  const out = [`## Payload keys: ${suite.client} ${suite.pin} (the pin's saved results) → ${suite.version}`, '']
  const groups = groupKeyChanges(suite.scenarios)
  if (groups.length === 0) return [...out, 'No hook payload gained or lost a key.', '']
  const rows = groups.map((g) => [g.event, listCell(g.added), listCell(g.removed), `${g.scenarios.length}: ${some(g.scenarios)}`])
  return [...out, ...markdownTable(['event', 'keys added', 'keys removed', 'scenarios'], rows), '']
}

/** @param {SuiteDrift} suite */
function scenarioSection(suite) {
  const out = [`## Scenarios: ${suite.client} ${suite.pin} (the pin's saved results) → ${suite.version}`, '']
  const rows = []
  for (const s of suite.scenarios) {
    if (s.error) rows.push([s.name, `run failed: ${s.error}`, '', '', ''])
    else if (s.saved && (Object.keys(s.changes).length || s.other.length)) {
      const { hookOrder, requests, outcome } = s.changes
      rows.push([
        s.name,
        hookOrder ? describeHookOrder(hookOrder) : '',
        requests ? `${requests.expected} → ${requests.actual}` : '',
        outcome ? `${outcome.expected} → ${outcome.actual}` : '',
        listCell(s.other),
      ])
    }
  }
  const compared = suite.scenarios.filter((s) => s.saved && !s.error && !s.skipped).length
  out.push(
    `${compared} of ${suite.scenarios.length} scenarios compared with their saved results: ${rows.length ? `${rows.length} listed below` : 'none differs'}.`,
  )
  const unsaved = suite.scenarios.filter((s) => !s.saved && !s.error && !s.skipped).map((s) => s.name)
  if (unsaved.length) out.push(`No saved result (not compared): ${unsaved.join(', ')}.`)
  const skipped = new Map()
  for (const s of suite.scenarios) if (s.skipped && !s.error) skipped.set(s.skipped, [...(skipped.get(s.skipped) ?? []), s.name])
  for (const [reason, names] of skipped) out.push(`Skipped by the suite (${names.length}): ${some(names)}, because ${reason}.`)
  out.push(`The suite's own report, with every difference: ${suite.report}`, '')
  if (rows.length) out.push(...markdownTable(['scenario', 'hook order', 'requests', 'outcome', 'other differences'], rows), '')
  return out
}

/** @param {EventDrift[]} events */
function eventSection(events) {
  const out = ['## Hook events', '']
  if (events.length === 0) return []
  const rows = events.map((e) => [e.client, e.compared, listCell(e.added), listCell(e.removed)])
  return [...out, ...markdownTable(['client', 'compared (first → second)', 'only in the second', 'only in the first'], rows), '']
}

/** @param {SchemaDrift} schema */
function schemaSection({ from, to, diff }) {
  const out = [`## App Server schema: Codex ${from} (fixture) → ${to}`, '']
  const { definitions } = diff
  const rows = diff.methods.map((m) => [m.label, listCell(m.added), listCell(m.removed)])
  rows.push(['definitions', listCell(definitions.added), listCell(definitions.removed)])
  out.push(...markdownTable(['', 'added', 'removed'], rows), '')
  if (definitions.changed.length)
    out.push(
      `${definitions.changed.length} definitions changed:`,
      '',
      ...markdownTable(
        ['definition', 'change'],
        definitions.changed.map((c) => [c.name, c.change]),
      ),
      '',
    )
  else out.push('No definition changed.', '')
  return out
}

/**
 * @param {{ title: string, header: string[], events: EventDrift[], suites: SuiteDrift[], schema?: SchemaDrift, problems: string[] }} data
 * @returns {string}
 */
export function renderDriftReport({ title, header, events, suites, schema, problems }) {
  const out = [`# ${title}`, '', ...header.map((line) => `- ${line}`), '']
  if (problems.length) out.push('## Could not run', '', ...problems.map((p) => `- ${p}`), '')
  out.push(...eventSection(events))
  for (const suite of suites) out.push(...payloadSection(suite), ...scenarioSection(suite))
  if (schema) out.push(...schemaSection(schema))
  return out.join('\n')
}
