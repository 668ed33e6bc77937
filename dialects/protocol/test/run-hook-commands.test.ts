import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ExecProcessRunner, type ProcessRunner, type ProcessRunOptions, type ProcessRunResult } from '@harness-kernel/kernel'
import { afterAll, describe, expect, it } from 'vitest'
import { type HookCommandSpec, runHookCommand, runHookCommands } from '../src/index.js'

const runner = new ExecProcessRunner()
const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'hook-protocol-')))
afterAll(() => rmSync(cwd, { recursive: true, force: true }))

function spec(command: string, fields: Partial<HookCommandSpec> = {}): HookCommandSpec {
  return { command, shell: '/bin/bash', cwd, stdin: '', timeoutMs: 10_000, ...fields }
}

describe('runHookCommands (real processes)', () => {
  it('starts all handlers at once: every one starts before any of them finishes', async () => {
    const results = await runHookCommands(runner, [spec('sleep 1; echo a'), spec('sleep 1; echo b'), spec('sleep 1; echo c')])
    expect(results.map((r) => r.stdout)).toEqual(['a\n', 'b\n', 'c\n'])
    expect(results.every((r) => r.exitCode === 0)).toBe(true)
    // An ordering check, not a timing one (speed is in bench/): run one after another, the last would start after the first ended.
    expect(Math.max(...results.map((r) => r.startedAt))).toBeLessThan(Math.min(...results.map((r) => r.completedAt)))
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
    const results = await runHookCommands(runner, [spec('sleep 0.3; echo slow'), spec('sleep 0.1; echo fast'), spec('sleep 0.2; echo mid')])
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
    const started = performance.now()
    const result = await runHookCommand(runner, spec('sleep 10', { timeoutMs: 200 }))
    expect(result.timedOut).toBe(true)
    expect(result.exitCode).toBeNull()
    expect(performance.now() - started).toBeLessThan(5000)
  })

  it('kills a handler on abort', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 150)
    const started = performance.now()
    const [aborted, other] = await runHookCommands(runner, [spec('sleep 10', { signal: controller.signal }), spec('echo done')])
    expect(aborted!.aborted).toBe(true)
    expect(other!.stdout).toBe('done\n')
    expect(performance.now() - started).toBeLessThan(5000)
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
