import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { canonical, describeChange, diffSchemas, flattenDefinitions, unionMethods } from '../schema-diff.mjs'

const request = (method) => ({ properties: { id: {}, method: { enum: [method], type: 'string' } }, title: `${method}Request` })
const schema = (clientMethods, serverNotifications, v2 = {}, top = {}) => ({
  definitions: {
    ClientRequest: { oneOf: clientMethods.map(request) },
    ServerNotification: { oneOf: serverNotifications.map(request) },
    ...top,
    v2,
  },
})

describe('diffSchemas', () => {
  it('lists the methods each union gained and lost', () => {
    const diff = diffSchemas(
      schema(['initialize', 'thread/start'], ['error']),
      schema(['initialize', 'thread/fork'], ['error', 'thread/started']),
    )
    expect(diff.methods).toEqual([
      { label: 'client requests', added: ['thread/fork'], removed: ['thread/start'] },
      { label: 'client notifications', added: [], removed: [] },
      { label: 'server notifications', added: ['thread/started'], removed: [] },
      { label: 'server requests', added: [], removed: [] },
    ])
  })

  it('names definitions added, removed and changed, a group’s as <group>/<name>, ignoring key order', () => {
    const before = schema([], [], {
      Kept: { type: 'object', properties: { a: { type: 'string' } } },
      Gone: { type: 'string' },
      Grows: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
    })
    const after = schema([], [], {
      Kept: { properties: { a: { type: 'string' } }, type: 'object' },
      Grows: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a', 'b'] },
      New: { type: 'string' },
    })
    const { definitions } = diffSchemas(before, after)
    expect(definitions.added).toEqual(['v2/New'])
    expect(definitions.removed).toEqual(['v2/Gone'])
    expect(definitions.changed).toEqual([{ name: 'v2/Grows', change: 'properties +b; required +b' }])
  })

  it('finds what changed between the repository’s 0.169.0 and 0.171.0 fixtures', () => {
    const fixture = (version) =>
      JSON.parse(
        readFileSync(
          fileURLToPath(
            new URL(
              `../../../transports/app-server/test/fixtures/codex-schema-${version}/codex_app_server_protocol.schemas.json`,
              import.meta.url,
            ),
          ),
          'utf8',
        ),
      )
    const diff = diffSchemas(fixture('0.169.0'), fixture('0.171.0'))
    expect(diff.methods.find((m) => m.label === 'client requests')?.added).toContain('modelProvider/default/set')
    expect(diff.definitions.added).toContain('v2/ThreadSearchPartialNotification')
    expect(diff.definitions.changed).toContainEqual({ name: 'v2/CodexErrorInfo', change: 'variant 1: enum +bioPolicy' })
  })
})

describe('describeChange', () => {
  it('says which enum values, union members and property types changed', () => {
    expect(describeChange({ enum: ['a', 'b'] }, { enum: ['b', 'c'] })).toBe('enum +c; enum -a')
    expect(describeChange({ oneOf: [request('x'), request('y')] }, { oneOf: [request('x'), request('z')] })).toBe(
      'variants +zRequest; variants -yRequest',
    )
    const mode = (value, extra = {}) => ({ type: 'object', properties: { mode: { enum: [value] }, ...extra } })
    expect(describeChange({ oneOf: [mode('show')] }, { oneOf: [mode('show', { note: { type: 'string' } }), mode('hide')] })).toBe(
      'variants +mode=hide; variant mode=show: properties +note',
    )
    expect(describeChange({ properties: { a: { type: 'string' } } }, { properties: { a: { type: 'integer' } } })).toBe(
      'property types changed: a',
    )
    expect(describeChange({ description: 'old' }, { description: 'new' })).toBe('changed (descriptions, formats or nested members)')
  })
})

describe('helpers', () => {
  it('flattens groups and reads union methods', () => {
    expect([...flattenDefinitions(schema(['a'], [], { X: { type: 'string' } })).keys()]).toEqual([
      'ClientRequest',
      'ServerNotification',
      'v2/X',
    ])
    expect(unionMethods(schema(['a', 'b'], []), 'ClientRequest')).toEqual(['a', 'b'])
    expect(unionMethods(schema([], []), 'ServerRequest')).toEqual([])
    expect(canonical({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}')
  })
})
