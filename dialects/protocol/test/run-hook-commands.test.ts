import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  ExecProcessRunner,
  LauncherProcessRunner,
  type ProcessRunner,
  type ProcessRunOptions,
  type ProcessRunResult,
} from '@harness-kernel/kernel'
import { processAlive, waitUntil } from '@harness-kernel/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type HookCommandSpec, runHookCommand, runHookCommands } from '../src/index.js'

// The real-process tests run in this process's runner and through the kernel's default, the process launcher; each
// in a folder of its own (their commands meet through files in the cwd).
const runners = [
  { name: 'ExecProcessRunner', runner: new ExecProcessRunner() },
  { name: 'LauncherProcessRunner', runner: new LauncherProcessRunner() },
]
const root = realpathSync(mkdtempSync(join(tmpdir(), 'hook-protocol-')))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let runner: ProcessRunner = runners[0]!.runner
let cwd = root

function spec(command: string, fields: Partial<HookCommandSpec> = {}): HookCommandSpec {
  return { command, shell: '/bin/bash', cwd, stdin: '', timeoutMs: 10_000, ...fields }
}

/** The real runner; once a command's run has settled it creates `<the command's output>.settled` in the cwd. */
const settlingRunner: ProcessRunner = {
  async run(options) {
    const result = await runner.run(options)
    writeFileSync(join(cwd, `${result.stdout.trim()}.settled`), '')
    return result
  },
}

describe.each(runners)('$name: runHookCommands (real processes)', (variant) => {
  beforeAll(() => {
    runner = variant.runner
    cwd = mkdtempSync(join(root, 'run-'))
  })

  it('starts all handlers at once: every one starts before any of them finishes', async () => {
    // Each finishes only once all three have started: run one after another, the first would time out.
    const meeting = (name: string) =>
      `touch ${name}.start; until [ -e a.start ] && [ -e b.start ] && [ -e c.start ]; do sleep 0.02; done; echo ${name}`
    const results = await runHookCommands(runner, [spec(meeting('a')), spec(meeting('b')), spec(meeting('c'))])
    expect(results.map((r) => [r.exitCode, r.timedOut, r.stdout])).toEqual([
      [0, false, 'a\n'],
      [0, false, 'b\n'],
      [0, false, 'c\n'],
    ])
  })

  it('caps a 10 MB stderr to its first and last 16 KiB around a marker with the full size', async () => {
    const result = await runHookCommand(
      runner,
      spec(`printf a >&2; head -c 9999998 /dev/zero | tr '\\0' m >&2; printf z >&2; echo out; exit 2`),
    )
    expect(result.exitCode).toBe(2)
    expect(result.stdout).toBe('out\n')
    expect(result.stderrBytes).toBe(10_000_000)
    expect(result.stderrTruncated).toBe(true)
    expect(result.stderr).toBe(
      `a${'m'.repeat(16_383)}\n…[truncated: 10,000,000 bytes in all; the first 16,384 and last 16,384 shown]…\n${'m'.repeat(16_383)}z`,
    )
  })

  it('returns results in input order and records the finish order', async () => {
    // fast finishes first, mid once fast's run has settled, slow once mid's has.
    const results = await runHookCommands(settlingRunner, [
      spec('until [ -e mid.settled ]; do sleep 0.02; done; echo slow'),
      spec('echo fast'),
      spec('until [ -e fast.settled ]; do sleep 0.02; done; echo mid'),
    ])
    expect(results.map((r) => r.stdout)).toEqual(['slow\n', 'fast\n', 'mid\n'])
    expect(results.map((r) => r.completionIndex)).toEqual([2, 0, 1])
    for (const r of results) expect(r.completedAt).toBeGreaterThanOrEqual(r.startedAt)
  })

  it('delivers stdin byte for byte, with or without a trailing newline', async () => {
    const codex = '{"hook_event_name":"Stop","note":"é"}'
    const claude = `${codex}\n`
    const hex = "od -An -tx1 | tr -d ' \\n'"
    const [a, b, c] = await runHookCommands(runner, [
      spec(hex, { stdin: codex }),
      spec(hex, { stdin: claude }),
      spec('cat', { stdin: claude }),
    ])
    expect(a!.stdout).toBe(Buffer.from(codex).toString('hex'))
    expect(b!.stdout).toBe(Buffer.from(claude).toString('hex'))
    expect(c!.stdout).toBe(claude)
  })

  it('runs `<shell> -c <command>`: $0 is the shell, bash flags are hBc', async () => {
    const result = await runHookCommand(runner, spec('echo "$0 $-"'))
    expect(result.stdout).toBe('/bin/bash hBc\n')
    const sh = await runHookCommand(runner, spec('echo "$0"', { shell: '/bin/sh' }))
    expect(sh.stdout).toBe('/bin/sh\n')
    expect(result.completionIndex).toBe(0)
  })

  it('runs the exec form (`shell: false`) with literal arguments and no shell', async () => {
    const result = await runHookCommand(runner, spec('/bin/echo', { shell: false, args: ['$HOME', '`id`', "it's", 'a  b'] }))
    expect(result.stdout).toBe("$HOME `id` it's a  b\n")
  })

  it('uses the given cwd and environment', async () => {
    const result = await runHookCommand(runner, spec('pwd; echo "$HOOK_TEST_VAR"', { env: { HOOK_TEST_VAR: 'x y' } }))
    expect(result.stdout).toBe(`${cwd}\nx y\n`)
  })

  it('marks a timed-out handler and kills it', async () => {
    // It never finishes by itself: that the run returns at all shows the kill.
    const result = await runHookCommand(runner, spec('sleep 1000', { timeoutMs: 200 }))
    expect(result.timedOut).toBe(true)
    expect(result.exitCode).toBeNull()
    await waitUntil(() => !processAlive(result.pid!), 'the timed-out handler to exit')
  })

  it('kills a handler on abort', async () => {
    const controller = new AbortController()
    const running = runHookCommands(runner, [spec('touch abort.started; sleep 1000', { signal: controller.signal }), spec('echo done')])
    await waitUntil(() => existsSync(join(cwd, 'abort.started')), 'the handler to start')
    controller.abort()
    const [aborted, other] = await running
    expect(aborted!.aborted).toBe(true)
    expect(other!.stdout).toBe('done\n')
  })
})

describe('runHookCommands (fake runner)', () => {
  const ok: ProcessRunResult = {
    exitCode: 0,
    signal: null,
    stdout: '',
    stderr: '',
    stdoutBytes: 0,
    stderrBytes: 0,
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    aborted: false,
    durationMs: 1,
    pid: 1,
  }

  it('passes exactly the spec’s options to the runner', async () => {
    const seen: ProcessRunOptions[] = []
    const fake: ProcessRunner = {
      run: async (options) => {
        seen.push(options)
        return ok
      },
    }
    const signal = new AbortController().signal
    await runHookCommand(fake, {
      command: 'x',
      shell: '/bin/sh',
      cwd: '/',
      stdin: 's',
      timeoutMs: 5,
      env: { A: '1' },
      signal,
      maxOutputBytes: 9,
    })
    expect(seen).toEqual([
      {
        command: 'x',
        shell: '/bin/sh',
        cwd: '/',
        stdin: 's',
        timeoutMs: 5,
        env: { A: '1' },
        signal,
        maxOutputBytes: 9,
        // A hook's command runs again: its next shell may be started ahead of time.
        prestart: true,
        // Watches stderr for its head (the runner keeps the tail).
        onOutput: expect.any(Function),
      },
    ])
  })

  it('turns a runner that throws into a spawn error without losing the others', async () => {
    const fake: ProcessRunner = {
      run: async (options) => {
        if (options.command === 'boom') throw new Error('no such shell')
        return { ...ok, stdout: options.command }
      },
    }
    const [failed, fine] = await runHookCommands(fake, [spec('boom'), spec('fine')])
    expect(failed!.spawnError).toBe('no such shell')
    expect(failed!.exitCode).toBeNull()
    expect(fine!.stdout).toBe('fine')
  })
})
