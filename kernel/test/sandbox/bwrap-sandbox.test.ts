import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox, SandboxPolicy } from '../../src/guardrails/types.js'
import type { ProcessRunner, ProcessRunResult } from '../../src/process-runner.js'
import { bwrapSandbox } from '../../src/sandbox/bwrap-sandbox.js'
import { launcherFallbacks, processRunners, testLauncher } from '../support/process-runners.js'

type WorkspaceWrite = Extract<SandboxPolicy, { type: 'workspaceWrite' }>

const readOnly: SandboxPolicy = { type: 'readOnly', networkAccess: false }
const danger: SandboxPolicy = { type: 'dangerFullAccess' }
function workspaceWrite(fields: Partial<WorkspaceWrite> = {}): WorkspaceWrite {
  return { type: 'workspaceWrite', writableRoots: [], networkAccess: false, excludeSlashTmp: false, excludeTmpdirEnvVar: false, ...fields }
}

// The workspace lives under os.tmpdir(); what must stay out of reach lives under /var/tmp, outside /tmp (writable
// under workspaceWrite) and outside the workspace. Each test writes to its own names there. The block runs once per
// runner (`inner`), each time on folders of its own (`fixture()`).
let base: string
let outside: string
let extraRoot: string
let envTmp: string
let slashTmp: string
let cwd: string
let outsideAtStart: string[]
let sandbox: Sandbox
const made: string[] = []
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
  testLauncher.close()
  expect(launcherFallbacks).toEqual([])
})

function fixture(): void {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'hk-sandbox-')))
  outside = realpathSync(mkdtempSync('/var/tmp/hk-sandbox-outside-'))
  extraRoot = realpathSync(mkdtempSync('/var/tmp/hk-sandbox-extra-'))
  envTmp = realpathSync(mkdtempSync('/var/tmp/hk-sandbox-tmpdir-'))
  slashTmp = realpathSync(mkdtempSync('/tmp/hk-sandbox-slash-tmp-'))
  made.push(base, outside, extraRoot, envTmp, slashTmp)
  cwd = join(base, 'project')
  mkdirSync(join(cwd, '.git'), { recursive: true })
  writeFileSync(join(cwd, '.git', 'config'), '[core]\n')
  mkdirSync(join(cwd, '.agents'))
  writeFileSync(join(cwd, '.aws'), 'credentials')
  writeFileSync(join(cwd, 'readme.txt'), 'inside\n')
  writeFileSync(join(outside, 'secret.txt'), 'outside\n')
  outsideAtStart = readdirSync(outside)
  sandbox = bwrapSandbox({ env: { PATH: process.env.PATH, TMPDIR: envTmp } })
}

const runners = processRunners()
let inner: ProcessRunner = runners[0]!.runner

function bash(policy: SandboxPolicy, command: string, options: { cwd?: string } = {}): Promise<ProcessRunResult> {
  const runCwd = options.cwd ?? cwd
  return sandbox.runner({ policy, cwd, inner }).run({ command, shell: '/bin/bash', cwd: runCwd })
}

function expectWritten(result: ProcessRunResult, path: string, content = 'x\n'): void {
  expect(result.stderr).toBe('')
  expect(result.exitCode).toBe(0)
  expect(readFileSync(path, 'utf8')).toBe(content)
}

/** The OS refused the write (EROFS), and nothing is left at `paths`. */
function expectRefused(result: ProcessRunResult, ...paths: string[]): void {
  expect(result.spawnError).toBeUndefined()
  expect(result.stderr).toContain('Read-only file system')
  expect(result.exitCode).not.toBe(0)
  for (const path of paths) expect(existsSync(path)).toBe(false)
}

describe.skipIf(process.platform !== 'linux').each(runners)('$name: bwrapSandbox runs processes under the policy', ({ runner }) => {
  beforeAll(() => {
    inner = runner
    fixture()
  })

  it('can sandbox here', () => {
    expect(sandbox.unavailable()).toBeUndefined()
  })

  it('reads anywhere in every mode', async () => {
    for (const policy of [readOnly, workspaceWrite(), danger]) {
      const result = await bash(
        policy,
        `cat readme.txt ${outside}/secret.txt /etc/hostname > /dev/null && cat readme.txt ${outside}/secret.txt`,
      )
      expect(result.stdout).toBe('inside\noutside\n')
    }
  })

  it('writes in cwd under workspaceWrite and dangerFullAccess, not under readOnly', async () => {
    expectRefused(await bash(readOnly, 'echo x > ro.txt'), join(cwd, 'ro.txt'))
    expectWritten(await bash(workspaceWrite(), 'mkdir -p sub && echo x > sub/ws.txt'), join(cwd, 'sub', 'ws.txt'))
    expectWritten(await bash(danger, 'echo x > danger.txt'), join(cwd, 'danger.txt'))
  })

  it('writes outside the writable roots only under dangerFullAccess', async () => {
    expectRefused(await bash(readOnly, `echo x > ${outside}/ro.txt`), join(outside, 'ro.txt'))
    expectRefused(await bash(workspaceWrite(), `mkdir ${outside}/ws-dir`), join(outside, 'ws-dir'))
    expectRefused(await bash(workspaceWrite(), `echo x > ${outside}/ws.txt`), join(outside, 'ws.txt'))
    expectRefused(await bash(workspaceWrite(), `echo x >> ${outside}/secret.txt`))
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside\n')
    expectWritten(await bash(danger, `echo x > ${outside}/danger.txt`), join(outside, 'danger.txt'))
    rmSync(join(outside, 'danger.txt'))
  })

  it('writes in /tmp under workspaceWrite unless excludeSlashTmp', async () => {
    expectWritten(await bash(workspaceWrite(), `echo x > ${slashTmp}/ws.txt`), join(slashTmp, 'ws.txt'))
    expectRefused(
      await bash(workspaceWrite({ excludeSlashTmp: true }), `echo x > ${slashTmp}/excluded.txt`),
      join(slashTmp, 'excluded.txt'),
    )
    expectRefused(await bash(readOnly, `echo x > ${slashTmp}/ro.txt`), join(slashTmp, 'ro.txt'))
  })

  it('writes in the TMPDIR it was built with unless excludeTmpdirEnvVar', async () => {
    expectWritten(await bash(workspaceWrite(), `echo x > ${envTmp}/ws.txt`), join(envTmp, 'ws.txt'))
    expectRefused(
      await bash(workspaceWrite({ excludeTmpdirEnvVar: true }), `echo x > ${envTmp}/excluded.txt`),
      join(envTmp, 'excluded.txt'),
    )
  })

  it('writes in writableRoots, except their protected names', async () => {
    mkdirSync(join(extraRoot, '.git'))
    const policy = workspaceWrite({ writableRoots: [extraRoot] })
    expectWritten(await bash(policy, `echo x > ${extraRoot}/root.txt`), join(extraRoot, 'root.txt'))
    expectRefused(await bash(policy, `echo x > ${extraRoot}/.git/HEAD`), join(extraRoot, '.git', 'HEAD'))
    expectRefused(await bash(workspaceWrite(), `echo x > ${extraRoot}/not-a-root.txt`), join(extraRoot, 'not-a-root.txt'))
  })

  it('keeps an existing .git, .agents and .aws in cwd read-only under workspaceWrite', async () => {
    const policy = workspaceWrite()
    expectRefused(await bash(policy, 'echo x >> .git/config'))
    expectRefused(await bash(policy, 'mkdir -p .git/hooks'), join(cwd, '.git', 'hooks'))
    expectRefused(await bash(policy, 'touch .agents/skill.md'), join(cwd, '.agents', 'skill.md'))
    expectRefused(await bash(policy, 'echo x >> .aws'))
    // A mount point can be neither removed nor renamed.
    const removal = await bash(policy, 'rm -rf .git; mv .agents agents')
    expect(removal.stderr).toMatch(
      /rm: cannot remove '\.git\/config': Read-only file system[\s\S]*mv: cannot move '\.agents' to 'agents': Device or resource busy/,
    )
    expect(readFileSync(join(cwd, '.git', 'config'), 'utf8')).toBe('[core]\n')
    expect(readFileSync(join(cwd, '.aws'), 'utf8')).toBe('credentials')
    expectWritten(await bash(danger, 'echo x > .git/danger'), join(cwd, '.git', 'danger'))
    rmSync(join(cwd, '.git', 'danger'))
  })

  it('leaves an absent protected name creatable (a gap against Codex: see protected-paths.ts)', async () => {
    expectWritten(await bash(workspaceWrite(), 'mkdir .codex && echo x > .codex/config.toml'), join(cwd, '.codex', 'config.toml'))
    rmSync(join(cwd, '.codex'), { recursive: true })
  })

  it('does not write through a symbolic link in cwd that points outside', async () => {
    symlinkSync(outside, join(cwd, 'out-link'))
    symlinkSync(join(outside, 'linked.txt'), join(cwd, 'dangling-link'))
    expectRefused(await bash(workspaceWrite(), 'echo x > out-link/through.txt'), join(outside, 'through.txt'))
    expectRefused(await bash(workspaceWrite(), 'echo x > dangling-link'), join(outside, 'linked.txt'))
    expectRefused(await bash(readOnly, 'echo x > out-link/through-ro.txt'), join(outside, 'through-ro.txt'))
  })

  it('does not write through /proc/self/root', async () => {
    expectRefused(await bash(workspaceWrite(), `echo x > /proc/self/root${outside}/proc.txt`), join(outside, 'proc.txt'))
    expectRefused(await bash(readOnly, `echo x > /proc/self/root${cwd}/proc-ro.txt`), join(cwd, 'proc-ro.txt'))
  })

  it('does not write elsewhere after cd, nor from a run started elsewhere', async () => {
    expectRefused(await bash(workspaceWrite(), `cd ${outside} && echo x > cd.txt`), join(outside, 'cd.txt'))
    expectRefused(await bash(workspaceWrite(), 'echo x > run-cwd.txt', { cwd: outside }), join(outside, 'run-cwd.txt'))
  })

  it('does not carry a write outside with cp, mv or ln -s', async () => {
    const policy = workspaceWrite()
    expectRefused(await bash(policy, `cp readme.txt ${outside}/copied.txt`), join(outside, 'copied.txt'))
    writeFileSync(join(cwd, 'to-move.txt'), 'moving\n')
    expectRefused(await bash(policy, `mv to-move.txt ${outside}/moved.txt`), join(outside, 'moved.txt'))
    expect(readFileSync(join(cwd, 'to-move.txt'), 'utf8')).toBe('moving\n')
    expectRefused(await bash(policy, `ln -s ${cwd}/readme.txt ${outside}/made-link`), join(outside, 'made-link'))
    expectRefused(await bash(policy, `ln -s ${outside}/via-new-link.txt new-link && echo x > new-link`), join(outside, 'via-new-link.txt'))
    expectRefused(await bash(policy, `ln -s ${outside} new-dir-link && cp readme.txt new-dir-link/`), join(outside, 'readme.txt'))
  })

  it('writes /dev/null in every mode', async () => {
    for (const policy of [readOnly, workspaceWrite(), danger]) expect((await bash(policy, 'echo x > /dev/null')).exitCode).toBe(0)
  })

  it('passes the run’s env, stdin, args and shell through, and tells the command the network is off', async () => {
    const runner = sandbox.runner({ policy: workspaceWrite(), cwd, inner })
    const env = await runner.run({ command: 'env', cwd, env: { ONLY: 'this' }, extendEnv: false })
    // bubblewrap sets PWD on --chdir.
    expect(env.stdout.split('\n').filter(Boolean).sort()).toEqual(['CODEX_SANDBOX_NETWORK_DISABLED=1', 'ONLY=this', `PWD=${cwd}`])
    const online = sandbox.runner({ policy: workspaceWrite({ networkAccess: true }), cwd, inner })
    const onlineEnv = await online.run({ command: 'env', cwd, env: { ONLY: 'this' }, extendEnv: false })
    expect(onlineEnv.stdout.split('\n').filter(Boolean).sort()).toEqual(['ONLY=this', `PWD=${cwd}`])
    const stdin = await runner.run({ command: 'cat', cwd, stdin: 'from stdin' })
    expect(stdin.stdout).toBe('from stdin')
    const args = await runner.run({ command: '/bin/echo', args: ['a  b', '$HOME'], cwd })
    expect(args.stdout).toBe('a  b $HOME\n')
    const shell = await runner.run({ command: 'echo "$0"', shell: true, cwd })
    expect(shell.stdout).toBe('/bin/sh\n')
  })

  it('passes the runner through unchanged under dangerFullAccess', () => {
    expect(sandbox.runner({ policy: danger, cwd, inner })).toBe(inner)
  })

  it('left nothing behind outside from what it refused', () => {
    expect(readdirSync(outside).sort()).toEqual(outsideAtStart)
  })
})
