import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadCodexHooks } from '../src/config/load-codex-hooks.js'
import { sessionFlagsTable, splitKeyPath } from '../src/config/session-flags.js'
import { command, put, tempRoot } from './fixtures/config/layout.js'

const plain = (value: unknown) => JSON.parse(JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? Number(v) : v)))

describe('session flags (-c key=value)', () => {
  it('parses values as TOML, else as a string with its quotes trimmed', () => {
    expect(
      plain(sessionFlagsTable(['model=o4-mini', 'a.b=1', 'a.c=[1, "x"]', 'q="quoted"', "r='lit'", 's= "spaced" ', 'u="unterminated'])),
    ).toEqual({
      model: 'o4-mini',
      a: { b: 1, c: [1, 'x'] },
      q: 'quoted',
      r: 'lit',
      s: 'spaced',
      u: 'unterminated',
    })
  })

  it('splits the key on dots, keeping TOML-quoted segments whole', () => {
    expect(splitKeyPath('hooks.state."/a/hooks.json:stop:0:0".trusted_hash')).toEqual([
      'hooks',
      'state',
      '/a/hooks.json:stop:0:0',
      'trusted_hash',
    ])
    expect(splitKeyPath("x.'lit.eral'.y")).toEqual(['x', 'lit.eral', 'y'])
    expect(splitKeyPath('x."esc\\"aped"')).toEqual(['x', 'esc"aped'])
    expect(splitKeyPath('features.hooks')).toEqual(['features', 'hooks'])
  })

  it('lets later flags overwrite earlier ones and replaces non-tables on the way', () => {
    expect(plain(sessionFlagsTable(['a=1', 'a.b=2', 'a.b=3', 'c.d=4']))).toEqual({ a: { b: 3 }, c: { d: 4 } })
  })

  it('rejects a flag without `=` or with an empty key, as Codex does', () => {
    expect(() => sessionFlagsTable(['hooks'])).toThrow("Invalid override (missing '='): hooks")
    expect(() => sessionFlagsTable([' =1'])).toThrow('Empty key in override:  =1')
  })

  it('loads hooks from flags under /<session-flags>/config.toml', () => {
    const root = tempRoot()
    const loaded = loadCodexHooks({
      cwd: root,
      codexHome: join(root, 'home'),
      sessionFlags: ['hooks.PreToolUse=[{matcher="Bash",hooks=[{type="command",command="x"}]}]'],
    })
    expect(loaded.handlers).toEqual([
      expect.objectContaining({
        key: '/<session-flags>/config.toml:pre_tool_use:0:0',
        source: 'sessionFlags',
        sourcePath: '/<session-flags>/config.toml',
        // observed from Codex 0.169.0 for the same flag
        currentHash: 'sha256:8b3de0db500a24df6d2c8ddb5e04090edd5f3066951d7e252357fb79bb6bbd16',
      }),
    ])
  })

  it('sets hook state from flags, quoted-key or inline-table form', () => {
    const root = tempRoot()
    const path = put(root, 'home/hooks.json', { hooks: { Stop: [{ hooks: [command('j')] }] } })
    const hash = 'sha256:b9a1ded073015768ee79d3bbda2adbbd9ec4fbde003402d82b05da85cfa17f8a'
    const load = (flags: string[]) => loadCodexHooks({ cwd: root, codexHome: join(root, 'home'), sessionFlags: flags }).handlers[0]
    expect(load([])).toMatchObject({ currentHash: hash, trustStatus: 'untrusted' })
    expect(load([`hooks.state."${path}:stop:0:0".trusted_hash="${hash}"`])).toMatchObject({ trustStatus: 'trusted', enabled: true })
    expect(load([`hooks.state={"${path}:stop:0:0"={trusted_hash="${hash}", enabled=false}}`])).toMatchObject({
      trustStatus: 'trusted',
      enabled: false,
    })
    expect(load([`hooks.state={" ${path}:stop:0:0 "={trusted_hash="sha256:00"}}`])).toMatchObject({ trustStatus: 'modified' })
  })
})
