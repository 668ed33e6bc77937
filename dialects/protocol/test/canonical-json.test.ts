import { describe, expect, it } from 'vitest'
import { canonicalJson, compareUtf8, sha256Hex } from '../src/index.js'

describe('canonicalJson', () => {
  it('reproduces both golden Codex hook hashes (codex-hooks.md §2)', () => {
    const preToolUse = {
      event_name: 'pre_tool_use',
      matcher: 'Bash',
      hooks: [{ type: 'command', command: '/home/user/bin/check.sh', timeout: 600, async: false }],
    }
    const stop = {
      event_name: 'stop',
      hooks: [{ type: 'command', command: '/home/user/bin/stop.sh', timeout: 30, async: false, statusMessage: 'Checking' }],
    }
    expect(canonicalJson(preToolUse)).toBe(
      '{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"/home/user/bin/check.sh","timeout":600,"type":"command"}],"matcher":"Bash"}',
    )
    expect(`sha256:${sha256Hex(canonicalJson(preToolUse))}`).toBe('sha256:1eb690240869866deac67833439882e384e57704e9aa589f238bd6fd9b06a0c2')
    expect(`sha256:${sha256Hex(canonicalJson(stop))}`).toBe('sha256:162c58faf29017c2eab27a3e88f42c7b66cba473c21f2700dff297d45c17f9c6')
  })

  it('sorts keys recursively by UTF-8 bytes, not UTF-16 code units', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}')
    // U+FF5E precedes U+1F600 in UTF-8, but its UTF-16 unit 0xFF5E follows the surrogate 0xD83D.
    expect(canonicalJson({ '😀': 1, '～': 2 })).toBe('{"～":2,"😀":1}')
    expect(compareUtf8('～', '😀')).toBeLessThan(0)
    expect(compareUtf8('a', 'ab')).toBeLessThan(0)
    expect(compareUtf8('B', 'a')).toBeLessThan(0)
  })

  it('escapes strings as serde_json does', () => {
    expect(canonicalJson('"\\/\n\r\t\b\f\u0001\u001f\u007f é 😀')).toBe('"\\"\\\\/\\n\\r\\t\\b\\f\\u0001\\u001f\u007f é 😀"')
  })

  it('prints numbers as serde_json does', () => {
    expect(canonicalJson([0, 600, -1, 2 ** 53, 1.5, 0.1, 1e21, 1e-7, 123e-20, -0, 1e16, 2 ** 63])).toBe(
      '[0,600,-1,9007199254740992,1.5,0.1,1e21,1e-7,1.23e-18,-0.0,10000000000000000,9223372036854775808]',
    )
    expect(canonicalJson([Number.NaN, Number.POSITIVE_INFINITY])).toBe('[null,null]')
    expect(canonicalJson(10n ** 20n)).toBe('100000000000000000000')
  })

  it('drops undefined members like JSON.stringify, and rejects cycles', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, () => 1], c: new Date(0) })).toBe(
      '{"b":[null,null],"c":"1970-01-01T00:00:00.000Z"}',
    )
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(() => canonicalJson(cyclic)).toThrow(/circular/)
    expect(() => canonicalJson(undefined)).toThrow(TypeError)
  })

  it('sha256Hex hashes UTF-8 text and bytes alike', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    expect(sha256Hex(new TextEncoder().encode('é'))).toBe(sha256Hex('é'))
  })
})
