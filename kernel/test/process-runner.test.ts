import { getEventListeners } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CappedCapture } from '../src/process/capped-capture.js'
import type { ProcessStdin } from '../src/process-runner.js'
import { launcherFallbacks, processRunners, runnerParents, testLauncher } from './support/process-runners.js'

// Every runner test runs in this process (`ExecProcessRunner`) and through the process launcher (`LauncherProcessRunner`).
const runners = processRunners()
const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'process-runner-')))
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true })
  testLauncher.close()
  expect(launcherFallbacks).toEqual([])
})

interface ProcStat {
  pid: number
  state: string
  ppid: number
  pgid: number
}

function procStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { pid, state: fields[0]!, ppid: Number(fields[1]), pgid: Number(fields[2]) }
  } catch {
    return undefined
  }
}

function allProcesses(): ProcStat[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => procStat(Number(entry)))
    .filter((stat): stat is ProcStat => stat !== undefined)
}

/** Running (non-zombie) processes in a group. Orphans are reaped by init, which may be slow, so zombies count as dead. */
function liveMembers(pgid: number): number[] {
  return allProcesses()
    .filter((stat) => stat.pgid === pgid && stat.state !== 'Z')
    .map((stat) => stat.pid)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  return procStat(pid)?.state !== 'Z'
}

/** Waits until a child of this process (or of its launcher) leads a group with at least `count` running members; returns them. */
async function groupOfChild(count: number): Promise<{ pgid: number; members: number[] }> {
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    for (const stat of allProcesses()) {
      // The launcher leads a group of its own, which holds each child it forks until the child's setsid().
      if (!runnerParents().includes(stat.ppid) || stat.pgid !== stat.pid || stat.pid === testLauncher.pid) continue
      const members = liveMembers(stat.pgid)
      if (members.length >= count) return { pgid: stat.pgid, members }
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`no child process group with ${count} members appeared`)
}

describe.each(runners)('$name: stdin, cwd, env, exit', ({ runner }) => {
  it('writes stdin byte for byte, without adding a trailing newline', async () => {
    const text = 'héllo wörld ✓ 日本'
    const result = await runner.run({ command: 'cat', cwd: tmp, stdin: text })
    expect(result.stdout).toBe(text)
    expect(result.stdoutBytes).toBe(Buffer.byteLength(text))
    expect(result.exitCode).toBe(0)
  })

  it('writes binary stdin exactly', async () => {
    const bytes = new Uint8Array([0x00, 0x0a, 0xff, 0x7f, 0x80, 0x0d])
    const result = await runner.run({ command: 'od -An -v -tx1', shell: true, cwd: tmp, stdin: bytes })
    expect(result.stdout.trim().split(/\s+/)).toEqual(['00', '0a', 'ff', '7f', '80', '0d'])
  })

  it('gives /dev/null for stdin when none is given', async () => {
    const result = await runner.run({ command: 'cat', cwd: tmp, timeoutMs: 10_000 })
    expect(result).toMatchObject({ exitCode: 0, stdout: '', timedOut: false })
    const stdin = await runner.run({ command: 'readlink /proc/self/fd/0', shell: true, cwd: tmp })
    expect(stdin.stdout).toBe('/dev/null\n')
  })

  it('a bash without SHLVL does not read ~/.bashrc, with or without a payload (it does when its stdin is a socket)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'hk-home-'))
    writeFileSync(join(home, '.bashrc'), 'echo from-bashrc\n')
    const env = { HOME: home, PATH: '/usr/bin:/bin' }
    const bash = { command: '/bin/bash', args: ['-c', 'cat; echo ran'], cwd: tmp, env, extendEnv: false }
    expect((await runner.run(bash)).stdout).toBe('ran\n')
    expect((await runner.run({ ...bash, stdin: '{"hook":1}' })).stdout).toBe('{"hook":1}ran\n')
    // The payload comes from a file unlinked before the child runs.
    const fd0 = await runner.run({ command: 'readlink /proc/self/fd/0', shell: true, cwd: tmp, stdin: 'x' })
    expect(fd0.stdout).toMatch(/harness-stdin-[0-9a-f-]{36} \(deleted\)\n$/)
  })

  it('ignores a child that exits without reading a large stdin', async () => {
    const result = await runner.run({ command: 'true', cwd: tmp, stdin: 'x'.repeat(4 * 1024 * 1024) })
    expect(result.exitCode).toBe(0)
    expect(result.spawnError).toBeUndefined()
  })

  it('runs in cwd', async () => {
    const result = await runner.run({ command: 'pwd', shell: true, cwd: tmp })
    expect(result.stdout).toBe(`${tmp}\n`)
  })

  it('merges env over process.env, and unsets keys given as undefined', async () => {
    const result = await runner.run({
      command: 'printenv HARNESS_FOO; printenv HOME; printenv HARNESS_GONE || echo unset',
      shell: true,
      cwd: tmp,
      env: { HARNESS_FOO: 'bar baz', HARNESS_GONE: undefined },
    })
    expect(result.stdout).toBe(`bar baz\n${process.env.HOME}\nunset\n`)
  })

  it('passes only the given env with extendEnv false', async () => {
    const result = await runner.run({
      command: 'printenv HARNESS_FOO; printenv HOME || echo unset',
      shell: true,
      cwd: tmp,
      env: { HARNESS_FOO: 'x', PATH: process.env.PATH },
      extendEnv: false,
    })
    expect(result.stdout).toBe('x\nunset\n')
  })

  it('reports exit codes and stderr', async () => {
    const result = await runner.run({ command: 'echo out; echo err >&2; exit 7', shell: true, cwd: tmp })
    expect(result).toMatchObject({ exitCode: 7, signal: null, stdout: 'out\n', stderr: 'err\n', timedOut: false, aborted: false })
    expect(result.pid).toBeTypeOf('number')
    expect(result.durationMs).toBeGreaterThan(0)
  })

  it('reports the signal that killed the process', async () => {
    const result = await runner.run({ command: 'kill -9 $$', shell: true, cwd: tmp })
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGKILL', timedOut: false, aborted: false })
  })

  it('runs an executable with exact args, without a shell', async () => {
    const result = await runner.run({ command: 'printf', args: ['%s|', 'a b', "c'd", '$HOME'], cwd: tmp })
    expect(result.stdout).toBe("a b|c'd|$HOME|")
  })

  it('uses /bin/sh -c for shell: true and the named shell for a string', async () => {
    const sh = await runner.run({ command: 'echo "$0"', shell: true, cwd: tmp })
    expect(sh.stdout).toBe('/bin/sh\n')
    const bash = await runner.run({ command: 'echo "$0 $BASH_VERSION"', shell: '/bin/bash', cwd: tmp })
    expect(bash.stdout).toMatch(/^\/bin\/bash \d/)
  })

  it('quotes args onto a shell command line', async () => {
    const result = await runner.run({ command: "printf '%s|'", args: ['a b', "c'd", '$HOME'], shell: true, cwd: tmp })
    expect(result.stdout).toBe("a b|c'd|$HOME|")
  })
})

describe.each(runners)('$name: killing the process group', ({ runner }) => {
  it('on timeout, kills the shell and every child, and settles promptly', async () => {
    const started = Date.now()
    // Long enough for the shell to start both children before the timeout, even on a loaded machine.
    const running = runner.run({ command: 'sleep 30 & sleep 30', shell: true, cwd: tmp, timeoutMs: 2000 })
    const group = await groupOfChild(2)
    const result = await running
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(result).toMatchObject({ timedOut: true, aborted: false, exitCode: null, pid: group.pgid })
    expect(result.signal).toMatch(/^SIG(TERM|KILL)$/)
    expect(group.members.length).toBeGreaterThanOrEqual(2)
    for (const pid of group.members) expect(isAlive(pid)).toBe(false)
    expect(liveMembers(group.pgid)).toEqual([])
  })

  it('on abort, kills the whole group and removes its abort listener', async () => {
    const controller = new AbortController()
    const started = Date.now()
    const running = runner.run({ command: 'sleep 30 & sleep 30', shell: true, cwd: tmp, signal: controller.signal })
    const group = await groupOfChild(2)
    controller.abort()
    const result = await running
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(result).toMatchObject({ aborted: true, timedOut: false, exitCode: null })
    for (const pid of group.members) expect(isAlive(pid)).toBe(false)
    expect(liveMembers(group.pgid)).toEqual([])
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })

  it('an abort that comes while the process starts (from onStart) still kills it', async () => {
    const controller = new AbortController()
    const result = await runner.run({
      command: 'sleep 30',
      shell: true,
      cwd: tmp,
      signal: controller.signal,
      onStart: () => controller.abort(),
    })
    expect(result).toMatchObject({ aborted: true, exitCode: null, signal: 'SIGTERM' })
  })

  it('removes its abort listener after a normal run', async () => {
    const controller = new AbortController()
    await runner.run({ command: 'true', cwd: tmp, signal: controller.signal, timeoutMs: 5000 })
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })

  it('does not start a process when the signal is already aborted', async () => {
    const result = await runner.run({ command: 'true', cwd: tmp, signal: AbortSignal.abort() })
    expect(result).toMatchObject({ aborted: true, exitCode: null, pid: undefined })
  })

  it('sends SIGKILL after killGraceMs when SIGTERM is ignored', async () => {
    // Stopped once the shell says it ignores SIGTERM (a timeout could come before the trap is set).
    const controller = new AbortController()
    const result = await runner.run({
      command: "trap '' TERM; echo ready; sleep 30",
      shell: true,
      cwd: tmp,
      signal: controller.signal,
      killGraceMs: 300,
      onOutput: () => controller.abort(),
    })
    expect(result).toMatchObject({ aborted: true, exitCode: null, signal: 'SIGKILL' })
    expect(liveMembers(result.pid!)).toEqual([])
  })

  it('returns promptly when a background child keeps the pipes open, and kills it', async () => {
    const started = Date.now()
    const result = await runner.run({ command: 'sleep 30 & echo $! >&2; echo done', shell: true, cwd: tmp })
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(result).toMatchObject({ exitCode: 0, stdout: 'done\n', timedOut: false })
    const background = Number(result.stderr.trim())
    expect(background).toBeGreaterThan(0)
    expect(isAlive(background)).toBe(false)
    expect(liveMembers(result.pid!)).toEqual([])
  })

  it('kills a background child that does not hold the pipes', async () => {
    const result = await runner.run({ command: 'sleep 30 >/dev/null 2>&1 & echo $!', shell: true, cwd: tmp })
    expect(result.exitCode).toBe(0)
    expect(isAlive(Number(result.stdout.trim()))).toBe(false)
    expect(liveMembers(result.pid!)).toEqual([])
  })
})

describe.each(runners)('$name: output capture', ({ runner }) => {
  it('keeps the tail up to the default 1 MiB and counts every byte', async () => {
    const result = await runner.run({ command: "head -c 3145728 /dev/zero | tr '\\0' a; printf END", shell: true, cwd: tmp })
    expect(result.stdoutBytes).toBe(3 * 1024 * 1024 + 3)
    expect(result.stdoutTruncated).toBe(true)
    expect(result.stdout).toHaveLength(1024 * 1024)
    expect(result.stdout.endsWith('aaaEND')).toBe(true)
    expect(result.stderrTruncated).toBe(false)
  })

  it('caps each stream separately at maxOutputBytes', async () => {
    const result = await runner.run({ command: 'printf 0123456789; printf abcdefghij >&2', shell: true, cwd: tmp, maxOutputBytes: 4 })
    expect(result).toMatchObject({
      stdout: '6789',
      stdoutBytes: 10,
      stdoutTruncated: true,
      stderr: 'ghij',
      stderrBytes: 10,
      stderrTruncated: true,
    })
  })

  it('decodes a multibyte character split across chunks', async () => {
    // The second part is printed only once the first has been read: two chunks.
    let stdin: ProcessStdin | undefined
    let released = false
    const result = await runner.run({
      command: "printf '\\342\\202'; read -r line; printf '\\254'",
      shell: true,
      cwd: tmp,
      onStdin: (handle) => {
        stdin = handle
      },
      onOutput: () => {
        if (released) return
        released = true
        void stdin!.write('next\n')
      },
    })
    expect(result.stdout).toBe('€')
    expect(result.stdoutBytes).toBe(3)
  })

  it('drops a partial character at the start of a kept tail', async () => {
    const result = await runner.run({ command: 'printf ééééé', shell: true, cwd: tmp, maxOutputBytes: 5 })
    expect(result).toMatchObject({ stdout: 'éé', stdoutBytes: 10, stdoutTruncated: true })
  })
})

describe.each(runners)('$name: spawn errors', ({ runner }) => {
  it('reports a missing cwd without throwing', async () => {
    const result = await runner.run({ command: 'echo hi', shell: true, cwd: join(tmp, 'missing') })
    expect(result).toMatchObject({ exitCode: null, pid: undefined, stdout: '' })
    expect(result.spawnError).toMatch(/cwd does not exist: .*missing/)
  })

  it('reports a cwd that is not a directory', async () => {
    const file = join(tmp, 'a-file')
    writeFileSync(file, '')
    const result = await runner.run({ command: 'echo hi', shell: true, cwd: file })
    expect(result.spawnError).toMatch(/cwd is not a directory/)
  })

  it('reports a missing executable or shell', async () => {
    const missing = await runner.run({ command: 'harness-no-such-command', cwd: tmp })
    expect(missing).toMatchObject({ exitCode: null, pid: undefined })
    expect(missing.spawnError).toMatch(/command not found: harness-no-such-command/)
    const shell = await runner.run({ command: 'true', shell: '/no/such/shell', cwd: tmp })
    expect(shell.spawnError).toMatch(/command not found: \/no\/such\/shell/)
  })

  it('reports an empty command', async () => {
    const result = await runner.run({ command: '', cwd: tmp })
    expect(result).toMatchObject({ exitCode: null, spawnError: 'the command is empty' })
  })

  it('reports an executable without permission', async () => {
    const file = join(tmp, 'not-executable')
    writeFileSync(file, '#!/bin/sh\n', { mode: 0o644 })
    const result = await runner.run({ command: file, cwd: tmp })
    expect(result.spawnError).toMatch(/permission denied/)
  })
})

describe.each(runners)('$name: streaming output and an open stdin', ({ runner }) => {
  it('passes each chunk to onOutput as it arrives, all of it before the run resolves', async () => {
    const chunks: { stream: string; text: string }[] = []
    const go = join(mkdtempSync(join(tmp, 'streaming-')), 'go-on')
    // The command waits for a file the test writes only once the first chunk came: it finishes only if output streams.
    const result = await runner.run({
      command: `printf one; while [ ! -e ${go} ]; do sleep 0.02; done; printf two >&2; printf three`,
      shell: true,
      cwd: tmp,
      timeoutMs: 10_000,
      onOutput: (stream, chunk) => {
        chunks.push({ stream, text: Buffer.from(chunk).toString() })
        if (chunks.length === 1) writeFileSync(go, '')
      },
    })
    expect(result).toMatchObject({ stdout: 'onethree', stderr: 'two', exitCode: 0, timedOut: false })
    expect(chunks[0]).toEqual({ stream: 'stdout', text: 'one' })
    expect(
      chunks
        .filter((chunk) => chunk.stream === 'stdout')
        .map((chunk) => chunk.text)
        .join(''),
    ).toBe('onethree')
    expect(
      chunks
        .filter((chunk) => chunk.stream === 'stderr')
        .map((chunk) => chunk.text)
        .join(''),
    ).toBe('two')
  })

  it('forwards every byte past maxOutputBytes; a cap of 0 keeps no capture', async () => {
    let forwarded = 0
    const result = await runner.run({
      command: 'head -c 300000 /dev/zero',
      shell: true,
      cwd: tmp,
      maxOutputBytes: 0,
      onOutput: (_stream, chunk) => {
        forwarded += chunk.byteLength
      },
    })
    expect(forwarded).toBe(300_000)
    expect(result).toMatchObject({ stdout: '', stdoutBytes: 300_000, stdoutTruncated: true })
  })

  it('passes no more of a stream once onOutput stops it; the capture goes on', async () => {
    const seen = { stdout: 0, stderr: 0 }
    const result = await runner.run({
      command: 'head -c 1000000 /dev/zero; head -c 1000000 /dev/zero >&2',
      shell: true,
      cwd: tmp,
      onOutput: (stream, chunk, stop) => {
        seen[stream] += chunk.byteLength
        if (stream === 'stdout') stop()
      },
    })
    expect(result).toMatchObject({ exitCode: 0, stdoutBytes: 1_000_000, stderrBytes: 1_000_000 })
    expect(seen.stdout).toBeGreaterThan(0)
    expect(seen.stdout).toBeLessThan(1_000_000)
    expect(seen.stderr).toBe(1_000_000)
  })

  it('ignores an exception thrown by onOutput or onStdin', async () => {
    const result = await runner.run({
      command: 'echo hi',
      shell: true,
      cwd: tmp,
      onOutput: () => {
        throw new Error('boom')
      },
      onStdin: () => {
        throw new Error('boom')
      },
    })
    expect(result).toMatchObject({ exitCode: 0, stdout: 'hi\n' })
  })

  it('keeps stdin open with onStdin: writes reach the running child, end() gives it end of file', async () => {
    let stdin: ProcessStdin | undefined
    let output = ''
    const run = runner.run({
      command: 'echo ready; read line; echo "got:$line"; cat; echo eof',
      shell: true,
      cwd: tmp,
      stdin: 'first-',
      timeoutMs: 10_000,
      onStdin: (handle) => {
        stdin = handle
      },
      onOutput: (_stream, chunk) => {
        output += Buffer.from(chunk).toString()
      },
    })
    // The child runs with stdin open: it answered before anything more was written.
    while (!output.startsWith('ready')) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(stdin?.pid).toBeTypeOf('number')
    expect(stdin?.ended).toBe(false)
    await stdin!.write('line\n')
    await stdin!.write(new Uint8Array([0x72, 0x65, 0x73, 0x74]))
    stdin!.end()
    stdin!.end()
    expect(stdin!.ended).toBe(true)
    await expect(stdin!.write('late')).rejects.toThrow('stdin is already closed')
    expect(await run).toMatchObject({ exitCode: 0, stdout: 'ready\ngot:first-line\nresteof\n', timedOut: false })
  })

  it('fails a write once the run is over', async () => {
    let stdin: ProcessStdin | undefined
    const result = await runner.run({
      command: 'true',
      cwd: tmp,
      onStdin: (handle) => {
        stdin = handle
      },
    })
    expect(result.exitCode).toBe(0)
    expect(stdin!.ended).toBe(true)
    await expect(stdin!.write('x')).rejects.toThrow()
  })

  it('kills a child that waits on an open stdin when aborted', async () => {
    const controller = new AbortController()
    const result = await runner.run({
      command: 'echo ready; cat',
      shell: true,
      cwd: tmp,
      signal: controller.signal,
      onStdin: () => {},
      onOutput: () => controller.abort(),
      killGraceMs: 200,
    })
    expect(result).toMatchObject({ aborted: true, exitCode: null, signal: 'SIGTERM' })
  })
})

describe('CappedCapture', () => {
  it('keeps the tail across chunks and counts the total', () => {
    const capture = new CappedCapture(5)
    for (const chunk of ['ab', 'cde', 'fg', '', 'h']) capture.push(Buffer.from(chunk))
    expect(capture.text()).toBe('defgh')
    expect(capture.totalBytes).toBe(8)
    expect(capture.truncated).toBe(true)
  })

  it('keeps nothing with a zero limit but still counts', () => {
    const capture = new CappedCapture(0)
    capture.push(Buffer.from('abc'))
    expect(capture.text()).toBe('')
    expect(capture.totalBytes).toBe(3)
    expect(capture.truncated).toBe(true)
  })

  it('is not truncated at exactly the limit', () => {
    const capture = new CappedCapture(3)
    capture.push(Buffer.from('a'))
    capture.push(Buffer.from('bc'))
    expect(capture.text()).toBe('abc')
    expect(capture.truncated).toBe(false)
    expect(capture.keptBytes).toBe(3)
  })
})
