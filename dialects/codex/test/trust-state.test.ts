import { join } from 'node:path'
import { JsonFileTrustStore, MemoryTrustStore, type TrustStore } from '@harness-kernel/hook-protocol'
import { describe, expect, it } from 'vitest'
import { loadCodexHooks } from '../src/config/load-codex-hooks.js'
import { handlerRuns } from '../src/types.js'
import { command, gitRoot, put, tempRoot, trustProject } from './fixtures/config/layout.js'

const HASH_A = 'sha256:62c0d5cbe0b0c5b5a5d6e1e2f0b1a6d1b2c5d1e0f3a8b9c7d6e5f4a3b2c1d0e9'

/** A user hooks.json with Stop handlers `a`, `b`, `c`; returns a loader taking config.toml text and options. */
function setup() {
  const root = tempRoot()
  const codexHome = join(root, 'home')
  const path = put(codexHome, 'hooks.json', { hooks: { Stop: [{ hooks: [command('a'), command('b'), command('c')] }] } })
  const key = (i: number) => `${path}:stop:0:${i}`
  const load = (config = '', options: { sessionFlags?: string[]; trustStore?: TrustStore } = {}) => {
    put(codexHome, 'config.toml', config)
    return loadCodexHooks({ cwd: root, codexHome, ...options }).handlers
  }
  const hashes = load().map((h) => h.currentHash)
  return { root, codexHome, path, key, load, hash: (i: number) => hashes[i]! }
}

describe('trust keys, state and status', () => {
  it('keys handlers by absolute source path, snake_case event, group and handler index', () => {
    const { path, load } = setup()
    expect(load().map((h) => h.key)).toEqual([`${path}:stop:0:0`, `${path}:stop:0:1`, `${path}:stop:0:2`])
  })

  it('is untrusted without a hash, trusted with the current one, modified with another', () => {
    const { key, hash, load } = setup()
    const handlers = load(`[hooks.state."${key(1)}"]\ntrusted_hash = "${hash(1)}"\n[hooks.state."${key(2)}"]\ntrusted_hash = "${HASH_A}"\n`)
    expect(handlers.map((h) => h.trustStatus)).toEqual(['untrusted', 'trusted', 'modified'])
    expect(handlers.map((h) => handlerRuns(h, false))).toEqual([false, true, false])
    expect(handlers.map((h) => handlerRuns(h, true))).toEqual([true, true, true])
  })

  it('never runs a disabled handler, even with the trust bypass', () => {
    const { key, hash, load } = setup()
    const [a, b] = load(
      `[hooks.state."${key(0)}"]\nenabled = false\ntrusted_hash = "${hash(0)}"\n[hooks.state."${key(1)}"]\nenabled = false\n`,
    )
    expect([a?.enabled, a?.trustStatus, b?.enabled, b?.trustStatus]).toEqual([false, 'trusted', false, 'untrusted'])
    expect([handlerRuns(a!, true), handlerRuns(b!, true)]).toEqual([false, false])
  })

  it('trims keys and ignores a malformed entry whole', () => {
    const { key, hash, load } = setup()
    const handlers = load(
      `[hooks.state."  ${key(0)}  "]\ntrusted_hash = "${hash(0)}"\n[hooks.state."${key(1)}"]\nenabled = "no"\ntrusted_hash = "${hash(1)}"\n[hooks.state."${key(2)}"]\ntrusted_hash = 5\nenabled = false\n`,
    )
    expect(handlers.map((h) => [h.trustStatus, h.enabled])).toEqual([
      ['trusted', true],
      ['untrusted', true],
      ['untrusted', true],
    ])
  })

  it('layers the user config, then the harness trust store, then the session flags, field by field', () => {
    const { key, hash, load } = setup()
    const store = new MemoryTrustStore({
      [key(0)]: { trustedHash: hash(0) },
      [key(1)]: { enabled: false },
      [key(2)]: { trustedHash: HASH_A },
    })
    const user = `[hooks.state."${key(0)}"]\nenabled = false\n[hooks.state."${key(1)}"]\ntrusted_hash = "${hash(1)}"\n[hooks.state."${key(2)}"]\ntrusted_hash = "${hash(2)}"\n`
    expect(load(user, { trustStore: store }).map((h) => [h.trustStatus, h.enabled])).toEqual([
      ['trusted', false],
      ['trusted', false],
      ['modified', true],
    ])
    const flags = [`hooks.state={"${key(0)}"={enabled=true},"${key(2)}"={trusted_hash="${hash(2)}"}}`]
    expect(load(user, { trustStore: store, sessionFlags: flags }).map((h) => [h.trustStatus, h.enabled])).toEqual([
      ['trusted', true],
      ['trusted', false],
      ['trusted', true],
    ])
  })

  it("warns about an unreadable harness trust store and goes on with Codex's own state", () => {
    const { root, key, hash, load } = setup()
    const store = new JsonFileTrustStore(put(root, 'harness/trust/codex.json', 'not json'), 'codex')
    const handlers = load(`[hooks.state."${key(0)}"]\ntrusted_hash = "${hash(0)}"\n`, { trustStore: store })
    expect(handlers.map((h) => h.trustStatus)).toEqual(['trusted', 'untrusted', 'untrusted'])
    const root2 = tempRoot()
    const loaded = loadCodexHooks({ cwd: root2, codexHome: join(root2, 'home'), trustStore: store })
    expect(loaded.warnings).toEqual([expect.stringContaining('malformed hook trust store')])
  })

  it('reads no state from project config.toml', () => {
    const root = tempRoot()
    const codexHome = join(root, 'home')
    const project = gitRoot(root, 'p')
    trustProject(codexHome, project)
    const path = put(project, '.codex/hooks.json', { hooks: { Stop: [{ hooks: [command('p')] }] } })
    const [before] = loadCodexHooks({ cwd: project, codexHome }).handlers
    put(project, '.codex/config.toml', `[hooks.state."${path}:stop:0:0"]\nenabled = false\ntrusted_hash = "${before?.currentHash}"\n`)
    expect(loadCodexHooks({ cwd: project, codexHome }).handlers.map((h) => [h.trustStatus, h.enabled])).toEqual([['untrusted', true]])
  })

  it('makes managed handlers managed and enabled whatever the state says', () => {
    const root = tempRoot()
    const requirements = put(root, 'requirements.toml', '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "m"\n')
    put(root, 'home/config.toml', `[hooks.state."${requirements}:stop:0:0"]\nenabled = false\ntrusted_hash = "${HASH_A}"\n`)
    const store = new MemoryTrustStore({ [`${requirements}:stop:0:0`]: { enabled: false } })
    const [managed] = loadCodexHooks({
      cwd: root,
      codexHome: join(root, 'home'),
      managedRequirementsPath: requirements,
      trustStore: store,
    }).handlers
    expect([managed?.trustStatus, managed?.enabled, handlerRuns(managed!, false)]).toEqual(['managed', true, true])
  })
})
