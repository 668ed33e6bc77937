import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadCodexHooks } from '../src/config/load-codex-hooks.js'
import { command, put, tempRoot } from './fixtures/config/layout.js'

interface Observed {
  json: string
  warnings: string[]
  hooks?: { key: string; displayOrder: number; currentHash: string }[]
}

/** hooks.json files given to the real Codex 0.169.0 (`hooks/list`), with what it reported. */
const observed: Observed[] = JSON.parse(
  readFileSync(new URL('./fixtures/config/codex-0.169.0-hooks-json-parse.json', import.meta.url), 'utf8'),
)

function loadUserHooksJson(json: string | Uint8Array) {
  const root = tempRoot()
  const codexHome = join(root, 'home')
  mkdirSync(codexHome)
  const path = join(codexHome, 'hooks.json')
  writeFileSync(path, json)
  return { path, loaded: loadCodexHooks({ cwd: root, codexHome }) }
}

describe('hooks.json parsing, as serde_json in Codex 0.169.0', () => {
  it.each(observed.map((c) => [JSON.stringify(c.json).slice(0, 90), c] as const))('%s', (_, c) => {
    const { path, loaded } = loadUserHooksJson(c.json)
    expect(loaded.warnings).toEqual(c.warnings.map((w) => w.replaceAll('<path>', path)))
    expect(loaded.handlers.map((h) => ({ key: h.key, displayOrder: h.displayOrder, currentHash: h.currentHash }))).toEqual(
      (c.hooks ?? [])
        .filter((h) => !h.key.includes(':pre_model_request:') && !h.key.includes(':post_model_request:'))
        .map((h) => ({ ...h, key: h.key.replace('<path>', path) })),
    )
  })

  it('gives the spec example for a file cut off inside a list', () => {
    const { path, loaded } = loadUserHooksJson('{"hooks":{"Stop":[\n')
    expect(loaded.warnings).toEqual([`failed to parse hooks config ${path}: EOF while parsing a list at line 2 column 0`])
    expect(loaded.handlers).toEqual([])
  })

  it('counts columns in bytes, as serde_json does', () => {
    const { path, loaded } = loadUserHooksJson('{"hooks":{"Stop":[{"matcher":"é","hooks":[{"type":"command","command":"x"}]}]},}')
    expect(loaded.warnings).toEqual([`failed to parse hooks config ${path}: trailing comma at line 1 column 81`])
  })

  it('rejects a file that is not UTF-8 with the read error Codex gives', () => {
    const { path, loaded } = loadUserHooksJson(new Uint8Array([0x7b, 0xff, 0x7d]))
    expect(loaded.warnings).toEqual([`failed to read hooks config ${path}: stream did not contain valid UTF-8`])
  })

  it.skipIf(process.getuid?.() === 0)('reports an unreadable file and still loads the other representation of the layer', () => {
    const root = tempRoot()
    const path = put(root, 'home/hooks.json', { hooks: { Stop: [{ hooks: [command('x')] }] } })
    chmodSync(path, 0o000)
    put(root, 'home/config.toml', '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "t"\n')
    const loaded = loadCodexHooks({ cwd: root, codexHome: join(root, 'home') })
    expect(loaded.warnings).toEqual([`failed to read hooks config ${path}: Permission denied (os error 13)`])
    expect(loaded.handlers.map((h) => h.command)).toEqual(['t'])
  })

  it('ignores a hooks.json that is a directory, and one that declares no event', () => {
    const root = tempRoot()
    mkdirSync(join(root, 'home/hooks.json'), { recursive: true })
    expect(loadCodexHooks({ cwd: root, codexHome: join(root, 'home') })).toEqual({ handlers: [], warnings: [], featureEnabled: true })
    const { loaded } = loadUserHooksJson('{"description":"nothing yet","hooks":{"Stop":[]}}')
    expect(loaded).toEqual({ handlers: [], warnings: [], featureEnabled: true })
  })
})
