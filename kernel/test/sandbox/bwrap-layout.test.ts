import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { SandboxPolicy } from '../../src/guardrails/types.js'
import type { ProcessRunOptions } from '../../src/process-runner.js'
import { bwrapInvocation } from '../../src/sandbox/bwrap-invocation.js'
import { bwrapLayout } from '../../src/sandbox/bwrap-layout.js'

const base = realpathSync(mkdtempSync(join(tmpdir(), 'hk-sandbox-layout-')))
afterAll(() => rmSync(base, { recursive: true, force: true }))

// Lengths grow with the names, so parents-first order is also this order.
const cwd = join(base, 'a')
const extra = join(base, 'bb')
const envTmp = join(base, 'ccc')
for (const dir of [cwd, extra, envTmp, join(cwd, '.git'), join(extra, 'decoy')]) mkdirSync(dir, { recursive: true })
writeFileSync(join(cwd, '.aws'), 'a file')
symlinkSync('decoy', join(extra, '.codex'))
symlinkSync('/etc', join(envTmp, '.agents'))

function workspaceWrite(
  fields: Partial<Extract<SandboxPolicy, { type: 'workspaceWrite' }>> = {},
): SandboxPolicy & { type: 'workspaceWrite' } {
  return { type: 'workspaceWrite', writableRoots: [], networkAccess: false, excludeSlashTmp: false, excludeTmpdirEnvVar: false, ...fields }
}

const CONFINEMENT = ['--unshare-user', '--cap-drop', 'ALL', '--die-with-parent', '--unshare-pid', '--as-pid-1']
const READ_ONLY_ROOT = ['--ro-bind', '/', '/', '--dev', '/dev']

describe('bwrapLayout', () => {
  it('binds the writable roots read-write, parents first, then their existing protected names read-only', () => {
    const policy = workspaceWrite({ writableRoots: [extra], excludeSlashTmp: true })
    expect(bwrapLayout({ policy, cwd, env: { TMPDIR: envTmp } })).toEqual([
      ...CONFINEMENT,
      '--unshare-net',
      ...READ_ONLY_ROOT,
      ...['--bind', cwd, cwd],
      ...['--bind', extra, extra],
      ...['--bind', envTmp, envTmp],
      ...['--ro-bind', join(cwd, '.git'), join(cwd, '.git')],
      ...['--ro-bind', join(cwd, '.aws'), join(cwd, '.aws')],
      // `.codex` links to `decoy` in the same root: the target is what stays read-only. `.agents` links out of the roots.
      ...['--ro-bind', join(extra, 'decoy'), join(extra, 'decoy')],
      '--proc',
      '/proc',
    ])
  })

  it('puts /tmp before the roots under it, and leaves out what the policy excludes or what does not exist', () => {
    const nested = join(cwd, 'sub', 'deeper')
    mkdirSync(nested, { recursive: true })
    const args = bwrapLayout({
      policy: workspaceWrite({ writableRoots: [nested, join(cwd, 'sub'), join(base, 'missing')], excludeTmpdirEnvVar: true }),
      cwd,
      env: { TMPDIR: envTmp },
    })
    const binds = args.flatMap((arg, index) => (arg === '--bind' ? [args[index + 1]] : []))
    expect(binds).toEqual(['/tmp', cwd, join(cwd, 'sub'), nested])
  })

  it('canonicalises the roots', () => {
    const link = join(base, 'link-to-a')
    symlinkSync(cwd, link)
    const args = bwrapLayout({ policy: workspaceWrite({ excludeSlashTmp: true }), cwd: link, env: {} })
    expect(args).toContain(cwd)
    expect(args).not.toContain(link)
  })

  it('makes nothing writable under readOnly, and keeps the network namespace only when the policy allows the network', () => {
    expect(bwrapLayout({ policy: { type: 'readOnly', networkAccess: false }, cwd, env: { TMPDIR: envTmp } })).toEqual([
      ...CONFINEMENT,
      '--unshare-net',
      ...READ_ONLY_ROOT,
      '--proc',
      '/proc',
    ])
    expect(bwrapLayout({ policy: { type: 'readOnly', networkAccess: true }, cwd, env: {} })).not.toContain('--unshare-net')
    expect(bwrapLayout({ policy: workspaceWrite({ networkAccess: true }), cwd, env: {} })).not.toContain('--unshare-net')
  })
})

describe('bwrapInvocation', () => {
  const layout = ['--layout']
  const run: ProcessRunOptions = { command: 'echo hi', shell: true, cwd: '/somewhere' }

  it('runs a shell command line as `<shell> -c <line>` inside bubblewrap, in the run’s cwd', () => {
    const invocation = bwrapInvocation({ bwrap: '/x/bwrap', layout, networkAccess: true, run })
    expect(invocation).toEqual({
      command: '/x/bwrap',
      args: ['--layout', '--chdir', '/somewhere', '--', '/bin/sh', '-c', 'echo hi'],
      cwd: '/somewhere',
    })
    expect('shell' in invocation).toBe(false)
    const bash = bwrapInvocation({ bwrap: 'b', layout, networkAccess: true, run: { ...run, shell: '/bin/bash', args: ['a b'] } })
    expect(bash.args).toEqual(['--layout', '--chdir', '/somewhere', '--', '/bin/bash', '-c', "echo hi 'a b'"])
  })

  it('runs an executable with its args as they are', () => {
    const invocation = bwrapInvocation({ bwrap: 'b', layout, networkAccess: true, run: { command: 'ls', args: ['-l', 'a b'], cwd: '/w' } })
    expect(invocation.args).toEqual(['--layout', '--chdir', '/w', '--', 'ls', '-l', 'a b'])
  })

  it('adds CODEX_SANDBOX_NETWORK_DISABLED=1 to the env when the network is off, keeping extendEnv', () => {
    expect(bwrapInvocation({ bwrap: 'b', layout, networkAccess: false, run }).env).toEqual({ CODEX_SANDBOX_NETWORK_DISABLED: '1' })
    const own = bwrapInvocation({ bwrap: 'b', layout, networkAccess: false, run: { ...run, env: { A: '1' }, extendEnv: false } })
    expect(own).toMatchObject({ env: { A: '1', CODEX_SANDBOX_NETWORK_DISABLED: '1' }, extendEnv: false })
    expect(bwrapInvocation({ bwrap: 'b', layout, networkAccess: true, run: { ...run, env: { A: '1' } } }).env).toEqual({ A: '1' })
  })

  it('passes every other option through', () => {
    const passed = {
      stdin: 'in',
      timeoutMs: 5,
      signal: new AbortController().signal,
      maxOutputBytes: 7,
      killGraceMs: 9,
      onOutput: () => {},
      onStdin: () => {},
      onStart: () => {},
    }
    expect(bwrapInvocation({ bwrap: 'b', layout, networkAccess: true, run: { ...run, ...passed } })).toMatchObject(passed)
  })
})
