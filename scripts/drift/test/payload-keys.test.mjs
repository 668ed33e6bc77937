import { describe, expect, it } from 'vitest'
import { diffPayloadKeys, eventKeys, keyPaths } from '../payload-keys.mjs'

const call = (event, payload, invocation = 1) => ({ key: `${event}/h`, event, tag: 'h', invocation, payload })

describe('keyPaths', () => {
  it('names nested keys by path, array elements as []', () => {
    expect(keyPaths({ a: 1, b: { c: null, d: [{ e: 1 }, { f: 2 }] } })).toEqual(['a', 'b', 'b.c', 'b.d', 'b.d[].e', 'b.d[].f'])
    expect(keyPaths('text')).toEqual([])
  })
})

describe('diffPayloadKeys', () => {
  it("takes the union of an event's calls and reports the keys added and removed", () => {
    const expected = {
      hookCalls: [call('PreToolUse', { session_id: 's', tool_input: { command: 'x' } }), call('Stop', { session_id: 's' })],
    }
    const actual = {
      hookCalls: [
        call('PreToolUse', { session_id: 's', tool_input: { command: 'x' }, agent_id: 'a' }),
        call('PreToolUse', { session_id: 's', tool_input: {} }, 2),
        call('Stop', { session_id: 's' }),
      ],
    }
    expect(diffPayloadKeys(expected, actual)).toEqual([{ event: 'PreToolUse', added: ['agent_id'], removed: [] }])
  })

  it('leaves out events only one side fired (that is a change of the hook order)', () => {
    const expected = { hookCalls: [call('Stop', { a: 1 })] }
    const actual = { hookCalls: [call('Stop', { a: 1 }), call('SubagentStop', { b: 1 })] }
    expect(diffPayloadKeys(expected, actual)).toEqual([])
    expect(diffPayloadKeys(actual, expected)).toEqual([])
  })

  it('reports a key gone from every call of an event', () => {
    const diff = diffPayloadKeys({ hookCalls: [call('Stop', { a: 1, model: 'm' })] }, { hookCalls: [call('Stop', { a: 1 })] })
    expect(diff).toEqual([{ event: 'Stop', added: [], removed: ['model'] }])
    expect([...eventKeys({ hookCalls: [call('Stop', undefined)] }).keys()]).toEqual([])
  })
})
