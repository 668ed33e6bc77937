import { describe, expect, it } from 'vitest'
import { describeHookOrder, outcomeOf, scenarioChanges } from '../scenario-changes.mjs'

const calls = (...keys) => keys.map((key) => ({ key, invocation: 1 }))

describe('scenarioChanges', () => {
  it('is empty when the hook order, the request count and the outcome are the same', () => {
    const result = { hookCalls: calls('A/h', 'B/h'), requests: [{}, {}], outcome: { status: 'completed', result: 'x' } }
    expect(scenarioChanges(result, structuredClone(result))).toEqual({})
  })

  it('reports each of the three that differs', () => {
    const expected = { hookCalls: calls('A/h', 'B/h'), requests: [{}], outcome: { status: 'completed' } }
    const actual = { hookCalls: calls('B/h', 'A/h'), requests: [{}, {}], outcome: { status: 'blocked', reason: 'no' } }
    expect(scenarioChanges(expected, actual)).toEqual({
      hookOrder: { expected: ['A/h#1', 'B/h#1'], actual: ['B/h#1', 'A/h#1'] },
      requests: { expected: 1, actual: 2 },
      outcome: { expected: 'completed', actual: 'blocked: no' },
    })
  })

  it("compares a subagent's calls and detached calls apart from the root's, as the suites do", () => {
    const expected = { hookCalls: [...calls('A/h', '<agent-1> S/h', 'B/h'), { key: 'N/h', invocation: 1, detached: true }] }
    const interleaved = { hookCalls: [{ key: 'N/h', invocation: 1, detached: true }, ...calls('A/h', 'B/h', '<agent-1> S/h')] }
    expect(scenarioChanges(expected, interleaved)).toEqual({})
    const reordered = { hookCalls: [...calls('B/h', '<agent-1> S/h', 'A/h'), { key: 'N/h', invocation: 1, detached: true }] }
    expect(scenarioChanges(expected, reordered)).toEqual({ hookOrder: { expected: ['A/h#1', 'B/h#1'], actual: ['B/h#1', 'A/h#1'] } })
  })

  it("takes Codex's exit code as its outcome", () => {
    expect(outcomeOf({ info: { rc: '0' } })).toBe('exit 0')
    expect(scenarioChanges({ info: { rc: '0' } }, { info: { rc: '1' } })).toEqual({ outcome: { expected: 'exit 0', actual: 'exit 1' } })
  })
})

describe('describeHookOrder', () => {
  it('names the calls only one side has, else the new order', () => {
    expect(describeHookOrder({ expected: ['A#1', 'B#1'], actual: ['A#1', 'C#1'] })).toBe('+C#1, -B#1')
    expect(describeHookOrder({ expected: ['A#1', 'B#1'], actual: ['B#1', 'A#1'] })).toBe('same calls, new order: B#1 → A#1')
  })
})
