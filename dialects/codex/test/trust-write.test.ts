import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { JsonFileTrustStore, MemoryTrustStore } from '@harness-kernel/hook-protocol'
import { describe, expect, it } from 'vitest'
import { loadCodexHooks } from '../src/config/load-codex-hooks.js'
import { setHookStateField } from '../src/trust/edit-hook-state-toml.js'
import { defaultHarnessTrustPath } from '../src/trust/harness-trust-path.js'
import { trustCodexHooks } from '../src/trust/trust-codex-hooks.js'
import { command, gitRoot, put, tempRoot } from './fixtures/config/layout.js'

const USER_CONFIG = `# my settings
model = "gpt-5.1-codex"   # keep
approval_policy = "on-request"

[projects."/somewhere"]
trust_level = "trusted"

[model_providers.local]
name = "Local"
base_url = "http://127.0.0.1:1/v1"
`

function setup(config = USER_CONFIG) {
  const root = tempRoot()
  const codexHome = join(root, 'home')
  const path = put(codexHome, 'hooks.json', { hooks: { Stop: [{ hooks: [command('a'), command('b')] }] } })
  const configPath = put(codexHome, 'config.toml', config)
  const load = (options: Partial<Parameters<typeof loadCodexHooks>[0]> = {}) => loadCodexHooks({ cwd: root, codexHome, ...options })
  return { root, codexHome, path, configPath, load, key: (i: number) => `${path}:stop:0:${i}` }
}

describe('trustCodexHooks', () => {
  it('writes the harness trust store by default target, leaving config.toml alone', () => {
    const { configPath, load, key } = setup()
    const store = new MemoryTrustStore()
    const handlers = load().handlers
    expect(trustCodexHooks({ handlers, keys: [key(1)], target: 'harness', trustStore: store, codexHome: '/unused' })).toEqual({
      trusted: [key(1)],
    })
    expect(store.read()).toEqual({ [key(1)]: { trustedHash: handlers[1]?.currentHash } })
    expect(readFileSync(configPath, 'utf8')).toBe(USER_CONFIG)
    expect(load({ trustStore: store }).handlers.map((h) => h.trustStatus)).toEqual(['untrusted', 'trusted'])
  })

  it('keeps the store file format of JsonFileTrustStore', () => {
    const { root, load } = setup()
    const store = new JsonFileTrustStore(defaultHarnessTrustPath({ HARNESS_HOME: join(root, 'harness') }), 'codex')
    trustCodexHooks({ handlers: load().handlers, keys: 'all', target: 'harness', trustStore: store, codexHome: '/unused' })
    expect(store.path).toBe(join(root, 'harness/trust/codex.json'))
    expect(load({ trustStore: store }).handlers.map((h) => h.trustStatus)).toEqual(['trusted', 'trusted'])
  })

  it('appends a [hooks.state."<key>"] table to config.toml, changing no other byte', () => {
    const { codexHome, configPath, load, key } = setup()
    const handlers = load().handlers
    const result = trustCodexHooks({ handlers, keys: [key(0)], target: 'codex', codexHome })
    expect(result).toEqual({ trusted: [key(0)], configPath })
    expect(readFileSync(configPath, 'utf8')).toBe(
      `${USER_CONFIG}\n[hooks.state.${JSON.stringify(key(0))}]\ntrusted_hash = "${handlers[0]?.currentHash}"\n`,
    )
    expect(load().handlers.map((h) => h.trustStatus)).toEqual(['trusted', 'untrusted'])
  })

  it('replaces only the trusted_hash line of an existing table, or inserts it under the header', () => {
    const { codexHome, configPath, load, key } = setup()
    const handlers = load().handlers
    const before = `${USER_CONFIG}\n[hooks.state."${key(0)}"]   # first\nenabled = false\n\n[hooks.state."${key(1)}"]\ntrusted_hash   =   'sha256:old'  # stale\nenabled = true\n`
    put(codexHome, 'config.toml', before)
    trustCodexHooks({ handlers, keys: 'all', target: 'codex', codexHome })
    expect(readFileSync(configPath, 'utf8')).toBe(
      `${USER_CONFIG}\n[hooks.state."${key(0)}"]   # first\ntrusted_hash = "${handlers[0]?.currentHash}"\nenabled = false\n\n[hooks.state."${key(1)}"]\ntrusted_hash   =   "${handlers[1]?.currentHash}"  # stale\nenabled = true\n`,
    )
    expect(load().handlers.map((h) => [h.trustStatus, h.enabled])).toEqual([
      ['trusted', false],
      ['trusted', true],
    ])
  })

  it('does not rewrite config.toml when the hash is already there', () => {
    const { codexHome, configPath, load } = setup()
    trustCodexHooks({ handlers: load().handlers, keys: 'all', target: 'codex', codexHome })
    const mtime = statSync(configPath).mtimeMs
    const text = readFileSync(configPath, 'utf8')
    trustCodexHooks({ handlers: load().handlers, keys: 'all', target: 'codex', codexHome })
    expect(readFileSync(configPath, 'utf8')).toBe(text)
    expect(statSync(configPath).mtimeMs).toBe(mtime)
  })

  it('creates config.toml when there is none', () => {
    const root = tempRoot()
    const codexHome = join(root, 'home')
    const path = put(codexHome, 'hooks.json', { hooks: { Stop: [{ hooks: [command('a')] }] } })
    const handlers = loadCodexHooks({ cwd: root, codexHome }).handlers
    trustCodexHooks({ handlers, keys: 'all', target: 'codex', codexHome })
    expect(readFileSync(join(codexHome, 'config.toml'), 'utf8')).toBe(
      `[hooks.state."${path}:stop:0:0"]\ntrusted_hash = "${handlers[0]?.currentHash}"\n`,
    )
  })

  it('trusts project hooks in the user config.toml, never touching project or managed files', () => {
    const root = tempRoot()
    const codexHome = join(root, 'home')
    const project = gitRoot(root, 'p')
    put(codexHome, 'config.toml', `[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`)
    const projectConfig = '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "p"\n'
    const projectPath = put(project, '.codex/config.toml', projectConfig)
    const requirementsText = '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "m"\n'
    const requirements = put(root, 'requirements.toml', requirementsText)
    const handlers = loadCodexHooks({ cwd: project, codexHome, managedRequirementsPath: requirements }).handlers
    const result = trustCodexHooks({ handlers, keys: handlers.map((h) => h.key), target: 'codex', codexHome })
    expect(result.trusted).toEqual([`${projectPath}:stop:0:0`])
    expect(readFileSync(projectPath, 'utf8')).toBe(projectConfig)
    expect(readFileSync(requirements, 'utf8')).toBe(requirementsText)
    expect(loadCodexHooks({ cwd: project, codexHome, managedRequirementsPath: requirements }).handlers.map((h) => h.trustStatus)).toEqual([
      'managed',
      'trusted',
    ])
  })

  it('rejects an unknown key', () => {
    const { codexHome, load } = setup()
    expect(() => trustCodexHooks({ handlers: load().handlers, keys: ['nope'], target: 'codex', codexHome })).toThrow(
      'no Codex hook with key nope',
    )
  })

  it('writes atomically: mode and symlink kept, no temporary file left', () => {
    const { root, codexHome, configPath, load } = setup()
    chmodSync(configPath, 0o640)
    const handlers = load().handlers
    trustCodexHooks({ handlers, keys: 'all', target: 'codex', codexHome })
    expect(statSync(configPath).mode & 0o777).toBe(0o640)
    expect(readdirSync(codexHome).sort()).toEqual(['config.toml', 'hooks.json'])

    const linked = join(root, 'linked-home')
    put(root, 'dotfiles/codex.toml', USER_CONFIG)
    put(linked, 'hooks.json', { hooks: { Stop: [{ hooks: [command('a')] }] } })
    symlinkSync(join(root, 'dotfiles/codex.toml'), join(linked, 'config.toml'))
    trustCodexHooks({
      handlers: loadCodexHooks({ cwd: root, codexHome: linked }).handlers,
      keys: 'all',
      target: 'codex',
      codexHome: linked,
    })
    expect(lstatSync(join(linked, 'config.toml')).isSymbolicLink()).toBe(true)
    expect(readFileSync(join(root, 'dotfiles/codex.toml'), 'utf8')).toContain('trusted_hash')
  })

  it('refuses, and leaves the file alone, when the config is not valid TOML', () => {
    const { codexHome, configPath, load } = setup('[broken\n')
    expect(() => trustCodexHooks({ handlers: load().handlers, keys: 'all', target: 'codex', codexHome })).toThrow(
      `${configPath}: the config is not valid TOML`,
    )
    expect(readFileSync(configPath, 'utf8')).toBe('[broken\n')
  })
})

describe('setHookStateField', () => {
  const K = '/p/hooks.json:stop:0:0'
  const H = 'sha256:abc'

  it.each([
    ['no final newline', 'a = 1', `a = 1\n[hooks.state."${K}"]\ntrusted_hash = "${H}"\n`],
    ['an empty file', '', `[hooks.state."${K}"]\ntrusted_hash = "${H}"\n`],
    ['CRLF line ends', 'a = 1\r\n', `a = 1\r\n\r\n[hooks.state."${K}"]\r\ntrusted_hash = "${H}"\r\n`],
    ['a header at the very end', `[hooks.state."${K}"]`, `[hooks.state."${K}"]\ntrusted_hash = "${H}"`],
    [
      'dotted keys under [hooks.state]',
      `[hooks.state]\n  "${K}".enabled = false\n`,
      `[hooks.state]\n  "${K}".enabled = false\n  "${K}".trusted_hash = "${H}"\n`,
    ],
    ['root dotted keys', `hooks.state."${K}".trusted_hash = "old" # c\n`, `hooks.state."${K}".trusted_hash = "${H}" # c\n`],
    [
      'an inline table',
      `[hooks.state]\n"${K}" = { enabled = false }\n`,
      `[hooks.state]\n"${K}" = { enabled = false, trusted_hash = "${H}" }\n`,
    ],
    ['an empty inline state', '[hooks]\nstate = {}\n', `[hooks]\nstate = { "${K}".trusted_hash = "${H}" }\n`],
    [
      'an inline value to replace',
      `[hooks.state]\n"${K}" = { trusted_hash = 'x', enabled = true }\n`,
      `[hooks.state]\n"${K}" = { trusted_hash = "${H}", enabled = true }\n`,
    ],
    [
      'multi-line strings and arrays that look like headers',
      `s = """\n[hooks.state."${K}"]\n"""\narr = [\n  [1], # [x]\n]\n`,
      `s = """\n[hooks.state."${K}"]\n"""\narr = [\n  [1], # [x]\n]\n\n[hooks.state."${K}"]\ntrusted_hash = "${H}"\n`,
    ],
    [
      'a sub-table of the key defined first',
      `[hooks.state."${K}".extra]\nx = 1\n`,
      `[hooks.state."${K}".extra]\nx = 1\n\n[hooks.state."${K}"]\ntrusted_hash = "${H}"\n`,
    ],
  ])('handles %s', (_, before, after) => {
    expect(setHookStateField(before, K, 'trusted_hash', H)).toBe(after)
  })

  it('quotes keys the TOML way', () => {
    const key = '/we"ird\\path\t/hooks.json:stop:0:0'
    const text = setHookStateField('', key, 'trusted_hash', H)
    expect(text).toBe(`[hooks.state."/we\\"ird\\\\path\\t/hooks.json:stop:0:0"]\ntrusted_hash = "${H}"\n`)
    expect(setHookStateField(text, key, 'trusted_hash', 'sha256:new')).toBe(text.replace(H, 'sha256:new'))
  })

  it('sets enabled as a boolean', () => {
    expect(setHookStateField(`[hooks.state."${K}"]\ntrusted_hash = "x"\n`, K, 'enabled', false)).toBe(
      `[hooks.state."${K}"]\nenabled = false\ntrusted_hash = "x"\n`,
    )
  })

  it('refuses an edit that cannot be made without reformatting', () => {
    expect(() => setHookStateField('hooks = 5\n', K, 'trusted_hash', H)).toThrow('hooks is not a table')
    expect(() => setHookStateField(`[[hooks.state."${K}"]]\nenabled = false\n`, K, 'trusted_hash', H)).toThrow(/is not a table/)
    expect(() => setHookStateField(`[hooks.state]\n"${K}" = 5\n`, K, 'trusted_hash', H)).toThrow()
  })

  it('leaves no partial file behind on refusal', () => {
    const { codexHome, configPath, load } = setup(`hooks = 5\n`)
    const handlers = load().handlers
    expect(() => trustCodexHooks({ handlers, keys: 'all', target: 'codex', codexHome })).toThrow()
    expect(readFileSync(configPath, 'utf8')).toBe('hooks = 5\n')
    expect(existsSync(`${configPath}.tmp`)).toBe(false)
  })
})

describe('defaultHarnessTrustPath', () => {
  it('is $HARNESS_HOME/trust/codex.json, ~/.harness by default', () => {
    expect(defaultHarnessTrustPath({ HARNESS_HOME: '/h' })).toBe('/h/trust/codex.json')
    expect(defaultHarnessTrustPath({ HOME: '/home/u' })).toBe('/home/u/.harness/trust/codex.json')
  })
})
