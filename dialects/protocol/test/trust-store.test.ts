import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { JsonFileTrustStore, MemoryTrustStore } from '../src/index.js'

const root = mkdtempSync(join(tmpdir(), 'hook-trust-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let counter = 0
const freshPath = () => join(root, `case-${++counter}`, 'nested', 'trust.json')

describe('JsonFileTrustStore', () => {
  it('reads a missing file as empty', () => {
    const store = new JsonFileTrustStore(freshPath(), 'codex')
    expect(store.read()).toEqual({})
  })

  it('creates parent directories and writes the documented shape with mode 0600', () => {
    const path = freshPath()
    const store = new JsonFileTrustStore(path, 'codex')
    store.update({ '/p/hooks.json:pre_tool_use:0:0': { trustedHash: 'sha256:abc' } })
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      version: 1,
      dialect: 'codex',
      hooks: { '/p/hooks.json:pre_tool_use:0:0': { trustedHash: 'sha256:abc' } },
    })
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(store.path).toBe(path)
  })

  it('merges field by field and leaves other keys alone', () => {
    const path = freshPath()
    const store = new JsonFileTrustStore(path, 'codex')
    store.update({ a: { trustedHash: 'sha256:1', enabled: true }, b: { trustedHash: 'sha256:2' } })
    store.update({ a: { enabled: false } })
    store.update({ a: { trustedHash: 'sha256:3' }, c: { enabled: false } })
    expect(new JsonFileTrustStore(path, 'codex').read()).toEqual({
      a: { trustedHash: 'sha256:3', enabled: false },
      b: { trustedHash: 'sha256:2' },
      c: { enabled: false },
    })
  })

  it('writes atomically: no temporary file is left behind', () => {
    const path = freshPath()
    const store = new JsonFileTrustStore(path, 'codex')
    for (let i = 0; i < 5; i++) store.update({ [`k${i}`]: { trustedHash: `sha256:${i}` } })
    expect(readdirSync(join(path, '..'))).toEqual(['trust.json'])
  })

  it('keeps fields it does not know', () => {
    const path = freshPath()
    new JsonFileTrustStore(path, 'codex').update({ a: { enabled: true } })
    const document = JSON.parse(readFileSync(path, 'utf8'))
    document.note = 'kept'
    document.hooks.a.note = 'kept too'
    writeFileSync(path, JSON.stringify(document))
    new JsonFileTrustStore(path, 'codex').update({ a: { trustedHash: 'sha256:x' } })
    const after = JSON.parse(readFileSync(path, 'utf8'))
    expect(after.note).toBe('kept')
    expect(after.hooks.a).toEqual({ enabled: true, note: 'kept too', trustedHash: 'sha256:x' })
  })

  it('ignores malformed entries but refuses a malformed file, naming the path and the problem', () => {
    const path = freshPath()
    new JsonFileTrustStore(path, 'codex').update({})
    writeFileSync(path, '{"version":1,"hooks":{"a":{"trustedHash":5,"enabled":"no"},"b":3,"c":{"enabled":false}}}')
    expect(new JsonFileTrustStore(path, 'codex').read()).toEqual({ a: {}, c: { enabled: false } })

    writeFileSync(path, '{"version":1,"hooks":{')
    const store = new JsonFileTrustStore(path, 'codex')
    expect(() => store.read()).toThrow(new RegExp(`malformed hook trust store ${path.replaceAll('/', '\\/')}: .*JSON`))
    expect(() => store.update({ a: { enabled: true } })).toThrow(/malformed hook trust store/)
    expect(readFileSync(path, 'utf8')).toBe('{"version":1,"hooks":{')

    writeFileSync(path, '[]')
    expect(() => store.read()).toThrow(/expected a JSON object/)
    writeFileSync(path, '{"version":2,"hooks":{}}')
    expect(() => store.read()).toThrow(/unsupported version 2/)
    writeFileSync(path, '{"version":1,"dialect":"claude-code","hooks":{}}')
    expect(() => store.read()).toThrow(/belongs to dialect "claude-code"/)
  })
})

describe('MemoryTrustStore', () => {
  it('merges field by field and hands out copies', () => {
    const store = new MemoryTrustStore({ a: { trustedHash: 'sha256:1' } })
    expect(store.path).toBeUndefined()
    store.update({ a: { enabled: false }, b: { trustedHash: 'sha256:2' } })
    const read = store.read()
    read.a!.enabled = true
    expect(store.read()).toEqual({ a: { trustedHash: 'sha256:1', enabled: false }, b: { trustedHash: 'sha256:2' } })
  })
})
