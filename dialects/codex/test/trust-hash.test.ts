import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadCodexHooks } from '../src/config/load-codex-hooks.js'
import { type CodexHookIdentity, codexHookHash } from '../src/trust/codex-hook-hash.js'
import { command, put, tempRoot } from './fixtures/config/layout.js'

const base: CodexHookIdentity = {
  event: 'PreToolUse',
  matcher: 'Bash',
  command: '/home/user/bin/check.sh',
  timeoutSec: 600,
  async: false,
  statusMessage: undefined,
  additionalContextLimit: undefined,
}

describe('codexHookHash', () => {
  it('reproduces both golden values of codex-hooks.md §2', () => {
    expect(codexHookHash(base)).toBe('sha256:1eb690240869866deac67833439882e384e57704e9aa589f238bd6fd9b06a0c2')
    expect(
      codexHookHash({
        ...base,
        event: 'Stop',
        matcher: undefined,
        command: '/home/user/bin/stop.sh',
        timeoutSec: 30,
        statusMessage: 'Checking',
      }),
    ).toBe('sha256:162c58faf29017c2eab27a3e88f42c7b66cba473c21f2700dff297d45c17f9c6')
  })

  it('includes the matcher only where it is effective', () => {
    expect(codexHookHash({ ...base, matcher: undefined })).not.toBe(codexHookHash(base))
    expect(codexHookHash({ ...base, matcher: '' })).not.toBe(codexHookHash({ ...base, matcher: undefined }))
    for (const event of ['UserPromptSubmit', 'Stop', 'Interrupt'] as const) {
      expect(codexHookHash({ ...base, event, matcher: 'Bash' })).toBe(codexHookHash({ ...base, event, matcher: undefined }))
    }
  })

  it('includes statusMessage only when set, additionalContextLimit only when not 2500', () => {
    expect(codexHookHash({ ...base, statusMessage: '' })).not.toBe(codexHookHash(base))
    expect(codexHookHash({ ...base, additionalContextLimit: 2500 })).toBe(codexHookHash(base))
    expect(codexHookHash({ ...base, additionalContextLimit: 0 })).not.toBe(codexHookHash(base))
  })

  it('changes with the timeout, the command, async and the event', () => {
    const hashes = [
      base,
      { ...base, timeoutSec: 30 },
      { ...base, command: `${base.command} ` },
      { ...base, async: true },
      { ...base, event: 'PostToolUse' as const },
    ].map(codexHookHash)
    expect(new Set(hashes).size).toBe(hashes.length)
  })

  it('matches the hashes Codex 0.169.0 reported for loaded handlers', () => {
    const root = tempRoot()
    put(root, 'home/hooks.json', {
      hooks: {
        PreToolUse: [
          { hooks: [command('x', { additionalContextLimit: 2500 }), command('x'), command('x', { additionalContextLimit: 0 })] },
          { matcher: '', hooks: [command('x')] },
          { matcher: '*', hooks: [command('x')] },
          { matcher: 'Bash', hooks: [command('/home/user/bin/check.sh', { commandWindows: 'c:\\check.cmd', timeoutSec: 9 })] },
        ],
        SessionEnd: [{ hooks: [command('a', { timeout: 10, additionalContextLimit: 5 })] }],
        Stop: [{ matcher: 'ignored', hooks: [command('x', { additionalContextLimit: 100 })] }],
      },
    })
    const loaded = loadCodexHooks({ cwd: root, codexHome: join(root, 'home') })
    expect(loaded.handlers.map((h) => h.currentHash)).toEqual([
      'sha256:250c1e9748c7a3130fcf12b596c40e211966274196ce0e2fec7f5eb707626bb0',
      'sha256:250c1e9748c7a3130fcf12b596c40e211966274196ce0e2fec7f5eb707626bb0',
      'sha256:327e3e17baeeabf49279a55264e6f07d0b7d5c6e71a408b7491a82fc912c8643',
      'sha256:b22089b130d882c1c73d1ff80b8d260c544274033f130ad1e1c72d6c40cacc38',
      'sha256:d45cad3a97f5da232114b0dc9ca05a3f9e009c837ab5cce24784763e811e223d',
      'sha256:1eb690240869866deac67833439882e384e57704e9aa589f238bd6fd9b06a0c2',
      'sha256:42a5307396a3311376788cd874aae704206cb585b4da5dbcc11a59a23e824111',
      'sha256:6f14477468be127a92604ce05b51030268ccd6077fa7a807515589cfcfc7fd17',
    ])
  })

  it('gives a config.toml handler the same hash as the same hooks.json handler', () => {
    const root = tempRoot()
    put(root, 'home/hooks.json', { hooks: { Stop: [{ hooks: [command('j')] }] } })
    put(root, 'home/config.toml', '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "j"\n')
    const [json, toml] = loadCodexHooks({ cwd: root, codexHome: join(root, 'home') }).handlers
    expect(json?.currentHash).toBe('sha256:b9a1ded073015768ee79d3bbda2adbbd9ec4fbde003402d82b05da85cfa17f8a')
    expect(toml?.currentHash).toBe(json?.currentHash)
  })
})
