import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { CLAUDE_EVENTS } from '../../../dialects/claude-code/src/events.ts'
import { CODEX_EVENTS } from '../../../dialects/codex/src/events.ts'
import { constList, findDefinition, schemaHookEvents } from '../event-lists.mjs'
import { diffLists, isEmptyDiff } from '../list-diff.mjs'

const source = (path) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8')

describe('constList', () => {
  it('reads an `as const` list and a `declare const … readonly [...]` list', () => {
    expect(constList("export const X = [\n  'A',\n  \"B\",\n] as const\nexport const Y = ['C']", 'X')).toEqual(['A', 'B'])
    expect(constList("export declare const HOOK_EVENTS: readonly ['PreToolUse', 'Stop'];", 'HOOK_EVENTS')).toEqual(['PreToolUse', 'Stop'])
  })

  it('does not take a longer name for the one asked', () => {
    expect(constList("const XS = ['no']\nconst X = ['yes']", 'X')).toEqual(['yes'])
  })

  it('throws when the list is not there', () => {
    expect(() => constList("const Y = ['A']", 'X')).toThrow('no `const X`')
  })

  it("reads the dialects' event lists as the dialects export them", () => {
    expect(constList(source('../../../dialects/codex/src/events.ts'), 'CODEX_EVENTS')).toEqual([...CODEX_EVENTS])
    expect(constList(source('../../../dialects/claude-code/src/events.ts'), 'CLAUDE_EVENTS')).toEqual([...CLAUDE_EVENTS])
  })
})

describe('schemaHookEvents', () => {
  it("spells the schema's HookEventName enum as the dialect does, wherever the definition sits", () => {
    const schema = { definitions: { v2: { HookEventName: { enum: ['preToolUse', 'stop'], type: 'string' } } } }
    expect(schemaHookEvents(schema)).toEqual(['PreToolUse', 'Stop'])
    expect(findDefinition({ definitions: { HookEventName: { enum: ['x'] } } }, 'HookEventName')).toEqual({ enum: ['x'] })
  })

  it('throws on a schema without the enum', () => {
    expect(() => schemaHookEvents({ definitions: {} })).toThrow('HookEventName')
  })
})

describe('diffLists', () => {
  it("names what only the second has as added and what only the first has as removed, in each list's order", () => {
    const diff = diffLists(['A', 'B', 'C'], ['C', 'D', 'A', 'E'])
    expect(diff).toEqual({ added: ['D', 'E'], removed: ['B'] })
    expect(isEmptyDiff(diff)).toBe(false)
    expect(isEmptyDiff(diffLists(['A', 'B'], ['B', 'A']))).toBe(true)
  })
})
