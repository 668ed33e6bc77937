import { spawn } from 'node:child_process'
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Duplex } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { createKernel, type ProcessRunner } from '../src/index.js'
import { ExecProcessRunner } from '../src/process/exec-process-runner.js'
import { LauncherProcessRunner } from '../src/process/launcher/launcher-process-runner.js'
import { launcherScript } from '../src/process/launcher/launcher-script.js'
import { ProcessLauncher } from '../src/process/launcher/process-launcher.js'
import { tempDir } from './helpers.js'
import { waitUntil } from './support/waits.js'

// Children run the built kernel (`tsc -b` first), as the launcher itself does.
const kernelDist = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href

const launchers: ProcessLauncher[] = []
afterEach(() => {
  for (const launcher of launchers.splice(0)) launcher.close()
})

/** A launcher of the test's own and a runner through it, which records why it fell back, if it does. */
function launcherRunner(options: ConstructorParameters<typeof ProcessLauncher>[0] = {}) {
  const launcher = new ProcessLauncher(options)
  launchers.push(launcher)
  const fallbacks: string[] = []
  const runner = new LauncherProcessRunner({ launcher, onFallback: (reason) => fallbacks.push(reason) })
  return { launcher, runner, fallbacks }
}

function procStat(pid: number): { state: string; ppid: number; startTicks: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { state: fields[0]!, ppid: Number(fields[1]), startTicks: Number(fields[19]) }
  } catch {
    return undefined
  }
}

/** Running, not a zombie (an orphan waits for init to reap it). */
const isAlive = (pid: number) => {
  const state = procStat(pid)?.state
  return state !== undefined && state !== 'Z'
}

describe.skipIf(process.platform !== 'linux')('LauncherProcessRunner: the launcher', () => {
  it('is started by the first run, not before, and is the parent of the commands', async () => {
    const cwd = tempDir()
    const { launcher, runner, fallbacks } = launcherRunner()
    expect(launcher.pid).toBeUndefined()
    const result = await runner.run({ command: 'echo $PPID', shell: true, cwd })
    expect(launcher.pid).toBeTypeOf('number')
    expect(result).toMatchObject({ exitCode: 0, stdout: `${launcher.pid}\n` })
    // Started once: the next run goes to the same launcher.
    const again = await runner.run({ command: 'echo $PPID', shell: true, cwd })
    expect(again.stdout).toBe(`${launcher.pid}\n`)
    expect(procStat(launcher.pid!)?.ppid).toBe(process.pid)
    expect(fallbacks).toEqual([])
  })

  it('gives its commands no descriptor more than the in-process runner does: its pipe to the kernel stays its own', async () => {
    const cwd = tempDir()
    const { runner } = launcherRunner()
    // The shell's own descriptors (`ls` runs as its child).
    const descriptors = async (through: ProcessRunner) => (await through.run({ command: 'ls /proc/$$/fd', shell: true, cwd })).stdout
    const launched = await descriptors(runner)
    expect(launched).toBe(await descriptors(new ExecProcessRunner()))
    expect(launched.split('\n')).toEqual(expect.arrayContaining(['0', '1', '2']))
  })

  it("honours the kernel's environment as it is at each run, not as it was when the launcher started", async () => {
    const cwd = tempDir()
    const { runner } = launcherRunner()
    process.env.HARNESS_LAUNCHER_GONE = 'before'
    try {
      expect((await runner.run({ command: 'printenv HARNESS_LAUNCHER_GONE', shell: true, cwd })).stdout).toBe('before\n')
      process.env.HARNESS_LAUNCHER_LATE = 'set after the launcher started'
      delete process.env.HARNESS_LAUNCHER_GONE
      const result = await runner.run({
        command: 'printenv HARNESS_LAUNCHER_LATE; printenv HARNESS_LAUNCHER_GONE || echo unset',
        shell: true,
        cwd,
      })
      expect(result.stdout).toBe('set after the launcher started\nunset\n')
    } finally {
      delete process.env.HARNESS_LAUNCHER_LATE
      delete process.env.HARNESS_LAUNCHER_GONE
    }
  })

  it('runs each command with its own environment while more environments come than the launcher keeps', async () => {
    const cwd = tempDir()
    const { runner } = launcherRunner()
    // Ten environments, the first ones again after the others: the launcher keeps eight, so some are sent again.
    const order = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 9, 1, 5, 0, 2]
    for (const n of order) {
      const env = { HARNESS_SLOT_TEST: `env ${n}`, ...(n % 2 === 0 ? { HARNESS_SLOT_EVEN: 'yes' } : {}) }
      const result = await runner.run({ command: 'printenv HARNESS_SLOT_TEST HARNESS_SLOT_EVEN', shell: true, cwd, env })
      expect(result.stdout).toBe(`env ${n}\n${n % 2 === 0 ? 'yes\n' : ''}`)
    }
  })

  it('starts nothing for a run naming an environment it was never sent, and says so', async () => {
    const launcher = spawn(process.execPath, [launcherScript()], { stdio: ['ignore', 'ignore', 'inherit', 'pipe'] })
    const channel = launcher.stdio[3] as Duplex
    try {
      const events = createInterface({ input: channel })[Symbol.asyncIterator]()
      expect(JSON.parse((await events.next()).value)).toEqual({ type: 'ready' })
      const marker = join(tempDir(), 'ran')
      const run = { command: `touch ${marker}`, shell: true, cwd: tempDir() }
      const settings = { pipeGraceMs: 100, maxOutputBytes: 1024, killGraceMs: 100 }
      channel.write(`${JSON.stringify({ type: 'run', id: 1, run, env: { slot: 3 }, settings, output: false, keepStdinOpen: false })}\n`)
      const result = JSON.parse((await events.next()).value)
      expect(result).toMatchObject({ type: 'result', id: 1, result: { exitCode: null } })
      expect(result.result.pid).toBeUndefined()
      expect(result.result.spawnError).toBe('the process launcher holds no environment in slot 3; the command was not started')
      expect(existsSync(marker)).toBe(false)
    } finally {
      launcher.kill('SIGKILL')
    }
  })

  it("tells onStart the child's start as the launcher read it, for the process ledger", async () => {
    const cwd = tempDir()
    const { runner } = launcherRunner()
    const controller = new AbortController()
    let seen: { pid: number; startTicks: number | undefined; onProc: number | undefined } | undefined
    const result = await runner.run({
      command: 'sleep 30',
      shell: true,
      cwd,
      signal: controller.signal,
      onStart: (pid, start) => {
        seen = { pid, startTicks: start?.startTicks, onProc: procStat(pid)?.startTicks }
        controller.abort()
      },
    })
    expect(result.aborted).toBe(true)
    expect(seen?.pid).toBe(result.pid)
    expect(seen?.startTicks).toBeTypeOf('number')
    expect(seen?.startTicks).toBe(seen?.onProc)
  })

  it('forwards every byte of a large output, in order', async () => {
    const cwd = tempDir()
    const { runner } = launcherRunner()
    const chunks: Buffer[] = []
    const result = await runner.run({
      command: 'seq 1 2000000',
      shell: true,
      cwd,
      maxOutputBytes: 64,
      onOutput: (_stream, chunk) => chunks.push(Buffer.from(chunk)),
    })
    const text = Buffer.concat(chunks).toString()
    expect(result).toMatchObject({ exitCode: 0, stdoutBytes: Buffer.byteLength(text), stdoutTruncated: true })
    expect(text.startsWith('1\n2\n3\n')).toBe(true)
    expect(text.endsWith('1999999\n2000000\n')).toBe(true)
    expect(text.split('\n')).toHaveLength(2_000_001)
  })
})

describe.skipIf(process.platform !== 'linux')('LauncherProcessRunner: when the launcher dies', () => {
  it('fails a run it had started, naming the cause, kills its group; the next run starts a new launcher', async () => {
    const cwd = tempDir()
    const { launcher, runner, fallbacks } = launcherRunner()
    let started: (pid: number) => void = () => {}
    const onStart = new Promise<number>((resolve) => {
      started = resolve
    })
    const running = runner.run({ command: 'sleep 30 & sleep 30', shell: true, cwd, onStart: (pid) => started(pid) })
    const pid = await onStart
    const first = launcher.pid!
    process.kill(first, 'SIGKILL')
    const result = await running
    expect(result).toMatchObject({ exitCode: null, signal: null, pid, stdout: '' })
    expect(result.spawnError).toBe(
      `the process launcher (pid ${first}) was killed by SIGKILL while the command ran (its process group ${pid} was killed)`,
    )
    await waitUntil(() => !isAlive(pid), `the group leader ${pid} to be gone`)

    const next = await runner.run({ command: 'echo $PPID', shell: true, cwd })
    expect(next.exitCode).toBe(0)
    expect(launcher.pid).not.toBe(first)
    expect(next.stdout).toBe(`${launcher.pid}\n`)
    expect(fallbacks).toEqual([])
  })

  it('sends a run it had not started to a new launcher', async () => {
    const cwd = tempDir()
    const { launcher, runner } = launcherRunner()
    await runner.run({ command: 'true', cwd })
    const first = launcher.pid!
    // Stopped, it cannot start the run sent to it before it is killed.
    process.kill(first, 'SIGSTOP')
    const running = runner.run({ command: 'echo $PPID', shell: true, cwd })
    process.kill(first, 'SIGKILL')
    const result = await running
    expect(result.exitCode).toBe(0)
    expect(launcher.pid).not.toBe(first)
    expect(result.stdout).toBe(`${launcher.pid}\n`)
  })

  it('exits once the process that started it is gone, and does not keep that process alive', async () => {
    const dir = tempDir()
    const script = join(dir, 'host.mjs')
    writeFileSync(
      script,
      `const { LauncherProcessRunner, ProcessLauncher } = await import(${JSON.stringify(kernelDist)})
const runner = new LauncherProcessRunner()
const result = await runner.run({ command: 'echo ran', shell: true, cwd: process.cwd() })
process.stdout.write(JSON.stringify({ launcher: ProcessLauncher.shared().pid, stdout: result.stdout }) + '\\n')
if (process.argv[2] === 'stay') setInterval(() => {}, 1000)
`,
    )
    const host = (mode: 'leave' | 'stay') => {
      const child = spawn(process.execPath, [script, mode], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] })
      const report = new Promise<{ launcher: number; stdout: string }>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)))
        child.once('exit', (code) => reject(new Error(`the host exited (${code}) before it reported`)))
      })
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
      return { child, report, exited }
    }

    // Its work done, the host ends by itself: the idle launcher holds nothing open in it. Then the launcher leaves.
    const leaving = host('leave')
    const left = await leaving.report
    expect(left.stdout).toBe('ran\n')
    expect(await leaving.exited).toBe(0)
    await waitUntil(() => !isAlive(left.launcher), `launcher ${left.launcher} to exit after its host did`)

    // A host killed outright: the launcher leaves too.
    const staying = host('stay')
    const stayed = await staying.report
    expect(isAlive(stayed.launcher)).toBe(true)
    staying.child.kill('SIGKILL')
    await staying.exited
    await waitUntil(() => !isAlive(stayed.launcher), `launcher ${stayed.launcher} to exit after its host was killed`)
  })
})

describe.skipIf(process.platform !== 'linux')('LauncherProcessRunner: when no launcher can start', () => {
  it('runs in this process, and says why once, when the script is missing', async () => {
    const cwd = realpathSync(tempDir())
    const script = join(cwd, 'no-launcher.js')
    const { launcher, runner, fallbacks } = launcherRunner({ script })
    for (let run = 0; run < 2; run++) {
      const result = await runner.run({ command: 'echo $PPID', shell: true, cwd })
      expect(result).toMatchObject({ exitCode: 0, stdout: `${process.pid}\n` })
    }
    expect(fallbacks).toEqual([
      `commands run in this process, not through the process launcher: the process launcher's script ${script} does not exist (not built, or left out of a bundle)`,
    ])
    expect(launcher.unavailable).toContain('does not exist')
  })

  it('runs in this process when the launcher dies before it is ready, naming how', async () => {
    const cwd = tempDir()
    const script = join(cwd, 'broken-launcher.mjs')
    writeFileSync(script, "throw new Error('this launcher is broken')\n")
    const { runner, fallbacks } = launcherRunner({ script })
    const results = await Promise.all([1, 2].map(() => runner.run({ command: 'echo $PPID', shell: true, cwd })))
    for (const result of results) expect(result).toMatchObject({ exitCode: 0, stdout: `${process.pid}\n` })
    expect(fallbacks).toHaveLength(1)
    expect(fallbacks[0]).toMatch(/the process launcher \(pid \d+\) exited with code 1 \(.*Error: this launcher is broken/)
  })

  it('runs in this process when the launcher does not answer in time, and ends it', async () => {
    const cwd = tempDir()
    const script = join(cwd, 'silent-launcher.mjs')
    writeFileSync(script, 'setInterval(() => {}, 1000)\n')
    const { launcher, runner, fallbacks } = launcherRunner({ script, startTimeoutMs: 300 })
    const running = runner.run({ command: 'echo $PPID', shell: true, cwd })
    const silent = launcher.pid!
    expect(await running).toMatchObject({ exitCode: 0, stdout: `${process.pid}\n` })
    expect(fallbacks).toEqual([
      'commands run in this process, not through the process launcher: the process launcher did not start within 300 ms',
    ])
    await waitUntil(() => !isAlive(silent), `the silent launcher ${silent} to be killed`)
  })
})

describe('the kernel', () => {
  it('runs its processes through the launcher by default, in process when asked', async () => {
    const cwd = tempDir()
    const byDefault = createKernel([], { cwd })
    const inProcess = createKernel([], { cwd, processRunner: 'in-process' })
    expect(byDefault.resolve('processRunner')).toBeInstanceOf(LauncherProcessRunner)
    expect(inProcess.resolve('processRunner')).toBeInstanceOf(ExecProcessRunner)
    await Promise.all([byDefault.dispose(), inProcess.dispose()])
  })
})
