import { describe, expect, it } from 'vitest'
import { groupKeyChanges, renderDriftReport } from '../report.mjs'
import { markdownTable } from '../table.mjs'

const scenario = (name, extra = {}) => ({ name, saved: true, keys: [], changes: {}, other: [], ...extra })
const suite = (scenarios) => ({ client: 'Claude Code', pin: '2.1.336', version: '2.1.340', scenarios, report: '/tmp/x/report.md' })

describe('markdownTable', () => {
  it('escapes pipes and line breaks so a value cannot break the table', () => {
    expect(markdownTable(['a', 'b'], [['x|y', 'one\ntwo']])).toEqual(['| a | b |', '|---|---|', '| x\\|y | one<br>two |'])
  })
})

describe('groupKeyChanges', () => {
  it('puts the scenarios with the same change of the same event in one row', () => {
    const change = { event: 'Stop', added: ['effort'], removed: [] }
    const groups = groupKeyChanges([
      scenario('a', { keys: [change] }),
      scenario('b', { keys: [change, { event: 'PreToolUse', added: [], removed: ['model'] }] }),
    ])
    expect(groups).toEqual([
      { event: 'PreToolUse', added: [], removed: ['model'], scenarios: ['b'] },
      { event: 'Stop', added: ['effort'], removed: [], scenarios: ['a', 'b'] },
    ])
  })
})

describe('renderDriftReport', () => {
  const report = renderDriftReport({
    title: 'Drift: Claude Code 2.1.336 → 2.1.340',
    header: ['out: /tmp/x'],
    events: [{ client: 'Claude Code', compared: 'SDK HOOK_EVENTS 0.3.336 → 0.3.340', added: ['Interrupt'], removed: [] }],
    suites: [
      suite([
        scenario('same'),
        scenario('keys', { keys: [{ event: 'Stop', added: ['effort'], removed: [] }] }),
        scenario('order', {
          changes: { hookOrder: { expected: ['A#1'], actual: ['A#1', 'B#1'] }, requests: { expected: 1, actual: 2 } },
          other: ['hooks ×1'],
        }),
        scenario('broken', { error: 'run-cli.sh exited 2' }),
        scenario('fresh', { saved: false }),
        scenario('s01', { skipped: 'no bwrap' }),
        scenario('s02', { skipped: 'no bwrap' }),
      ]),
    ],
    schema: {
      from: '0.171.0',
      to: '0.172.0',
      diff: {
        methods: [{ label: 'client requests', added: ['thread/fork'], removed: [] }],
        definitions: { added: ['v2/X'], removed: [], changed: [{ name: 'v2/Y', change: 'properties +z' }] },
      },
    },
    problems: [],
  })

  it('names both versions in the headings', () => {
    expect(report).toContain('# Drift: Claude Code 2.1.336 → 2.1.340')
    expect(report).toContain("## Payload keys: Claude Code 2.1.336 (the pin's saved results) → 2.1.340")
    expect(report).toContain("## Scenarios: Claude Code 2.1.336 (the pin's saved results) → 2.1.340")
    expect(report).toContain('## App Server schema: Codex 0.171.0 (fixture) → 0.172.0')
  })

  it('has a row per change and none for a scenario that did not change', () => {
    expect(report).toContain('| Claude Code | SDK HOOK_EVENTS 0.3.336 → 0.3.340 | Interrupt | — |')
    expect(report).toContain('| Stop | effort | — | 1: keys |')
    expect(report).toContain('| order | +B#1 | 1 → 2 |  | hooks ×1 |')
    expect(report).toContain('| broken | run failed: run-cli.sh exited 2 |')
    expect(report).not.toContain('| same |')
    expect(report).toContain('3 of 7 scenarios compared with their saved results: 2 listed below.')
    expect(report).toContain('Skipped by the suite (2): s01, s02, because no bwrap.')
    expect(report).not.toContain('| s01 |')
    expect(report).toContain('No saved result (not compared): fresh.')
    expect(report).toContain('| client requests | thread/fork | — |')
    expect(report).toContain('| definitions | v2/X | — |')
    expect(report).toContain('| v2/Y | properties +z |')
  })

  it('says so when nothing changed, and lists the parts that could not run', () => {
    const quiet = renderDriftReport({
      title: 't',
      header: [],
      events: [],
      suites: [suite([scenario('same')])],
      problems: ['Codex: npm error E404'],
    })
    expect(quiet).toContain('No hook payload gained or lost a key.')
    expect(quiet).toContain('1 of 1 scenarios compared with their saved results: none differs.')
    expect(quiet).toContain('## Could not run\n\n- Codex: npm error E404')
    expect(quiet).not.toContain('| scenario | hook order |')
  })
})
