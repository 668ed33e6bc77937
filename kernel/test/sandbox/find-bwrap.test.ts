import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxPolicy } from '../../src/guardrails/types.js'
import type { ProcessRunner } from '../../src/process-runner.js'
import { bwrapSandbox } from '../../src/sandbox/bwrap-sandbox.js'
import { codexBwrap, findBwrap } from '../../src/sandbox/find-bwrap.js'
import { launcherFallbacks, processRunners, testLauncher } from '../support/process-runners.js'

const base = realpathSync(mkdtempSync(join(tmpdir(), 'hk-sandbox-find-')))
afterAll(() => rmSync(base, { recursive: true, force: true }))

const workspaceWrite: SandboxPolicy = {
  type: 'workspaceWrite',
  writableRoots: [],
  networkAccess: false,
  excludeSlashTmp: false,
  excludeTmpdirEnvVar: false,
}
// The sandbox wraps either runner: each block runs with both (`inner` is the block's).
const runners = processRunners()
let inner: ProcessRunner = runners[0]!.runner
afterAll(() => {
  testLauncher.close()
  expect(launcherFallbacks).toEqual([])
})

/** An executable script at `dir/name`. */
function script(dir: string, name: string, body: string): string {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, name)
  writeFileSync(path, `#!/bin/sh\n${body}\n`)
  chmodSync(path, 0o755)
  return path
}

describe('findBwrap', () => {
  it('finds the bubblewrap @openai/codex ships, in this repository', () => {
    const target = { x64: 'x86_64', arm64: 'aarch64' }[process.arch as string]
    const found = codexBwrap()
    const repository = fileURLToPath(new URL('../../..', import.meta.url))
    const vendored = join(`@openai/codex-linux-${process.arch}`, 'vendor', `${target}-unknown-linux-musl`, 'codex-resources', 'bwrap')
    expect(found).toBe(realpathSync(join(repository, 'node_modules', vendored)))
    expect(spawnSync(found!, ['--version'], { encoding: 'utf8' }).stdout).toContain('bubblewrap built for Codex')
  })

  it('takes the option, then HARNESS_BWRAP, then bwrap on PATH, then the one @openai/codex ships', () => {
    const onPath = script(join(base, 'bin'), 'bwrap', 'exit 0')
    const notExecutable = join(base, 'plain', 'bwrap')
    mkdirSync(join(base, 'plain'))
    writeFileSync(notExecutable, '')
    const PATH = `${join(base, 'plain')}:${join(base, 'bin')}`
    expect(findBwrap({ bwrap: '/a/bwrap', env: { HARNESS_BWRAP: '/b/bwrap', PATH } })).toEqual({ path: '/a/bwrap', source: 'option' })
    expect(findBwrap({ env: { HARNESS_BWRAP: '/b/bwrap', PATH } })).toEqual({ path: '/b/bwrap', source: 'HARNESS_BWRAP' })
    expect(findBwrap({ env: { PATH } })).toEqual({ path: onPath, source: 'PATH' })
    expect(findBwrap({ env: { PATH: join(base, 'plain') } })).toEqual({ path: codexBwrap(), source: '@openai/codex' })
  })
})

describe.each(runners)('$name: bwrapSandbox where it cannot sandbox', ({ runner }) => {
  beforeAll(() => {
    inner = runner
  })

  const platform = process.platform
  // Restores what the non-Linux case overrides.
  afterEach(() => Object.defineProperty(process, 'platform', { value: platform }))

  it('is available here, from the bubblewrap in node_modules', () => {
    expect(bwrapSandbox({ env: { PATH: '' } }).unavailable()).toBeUndefined()
  })

  it('names a missing bubblewrap and the two ways out, runs nothing and writes nothing', async () => {
    const sandbox = bwrapSandbox({ bwrap: '/nonexistent' })
    const reason = sandbox.unavailable()
    expect(reason).toBe(
      'Commands cannot be sandboxed: the bubblewrap /nonexistent (from the bwrap option) does not exist; install bubblewrap ' +
        '(apt-get install bubblewrap, or npm install @openai/codex, which ships one) or opt out explicitly with the sandbox mode danger-full-access.',
    )
    const cwd = mkdtempSync(join(base, 'missing-'))
    let started = false
    const result = await sandbox
      .runner({ policy: workspaceWrite, cwd, inner })
      .run({ command: 'touch ran', shell: true, cwd, onStart: () => (started = true) })
    expect(result).toMatchObject({ spawnError: reason, exitCode: null, pid: undefined, stdout: '', stderr: '' })
    expect(started).toBe(false)
    await expect(sandbox.writeFile({ policy: workspaceWrite, cwd, path: join(cwd, 'written'), content: 'x' })).rejects.toThrow(reason)
    expect(existsSync(join(cwd, 'ran'))).toBe(false)
    expect(existsSync(join(cwd, 'written'))).toBe(false)
  })

  it('names where the bubblewrap came from', () => {
    expect(bwrapSandbox({ env: { HARNESS_BWRAP: '/nonexistent-too' } }).unavailable()).toContain(
      '/nonexistent-too (from HARNESS_BWRAP) does not exist',
    )
  })

  it('quotes what a bubblewrap that fails its probe said, and probes only once', async () => {
    // Its own folder: the block runs once per runner.
    const failing = mkdtempSync(join(base, 'failing-bwrap-'))
    const calls = join(failing, 'probe-calls')
    const bwrap = script(failing, 'bwrap', `echo called >> '${calls}'\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1`)
    const sandbox = bwrapSandbox({ bwrap })
    expect(sandbox.unavailable()).toContain(
      `the bubblewrap ${bwrap} (from the bwrap option) failed a probe run (exited with 1: bwrap: No permissions to create new namespace);`,
    )
    const cwd = mkdtempSync(join(base, 'failing-'))
    const result = await sandbox.runner({ policy: { type: 'readOnly', networkAccess: false }, cwd, inner }).run({ command: 'true', cwd })
    expect(result.spawnError).toBe(sandbox.unavailable())
    expect(readFileSync(calls, 'utf8')).toBe('called\n')
  })

  it('names the platform when it is not Linux', () => {
    Object.defineProperty(process, 'platform', { value: 'darwin' })
    const reason = bwrapSandbox().unavailable()
    expect(reason).toMatch(/^Commands cannot be sandboxed on darwin: the sandbox needs Linux and bubblewrap; .*apt-get install bubblewrap/)
    expect(reason).toContain('danger-full-access')
  })

  it('still runs and writes as they are under dangerFullAccess', async () => {
    const sandbox = bwrapSandbox({ bwrap: '/nonexistent' })
    const cwd = mkdtempSync(join(base, 'danger-'))
    expect(sandbox.runner({ policy: { type: 'dangerFullAccess' }, cwd, inner })).toBe(inner)
    await sandbox.writeFile({ policy: { type: 'dangerFullAccess' }, cwd, path: 'new/dir/file', content: 'direct' })
    expect(readFileSync(join(cwd, 'new/dir/file'), 'utf8')).toBe('direct')
  })
})
