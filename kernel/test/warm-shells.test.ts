import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { waitUntil } from '@harness-kernel/testing'
import { afterAll, describe, expect, it } from 'vitest'
import type { ProcessRunner, ProcessRunOptions } from '../src/process-runner.js'
import { processesNamed, processesWhere } from './support/marked-processes.js'
import { launcherFallbacks, processRunners, testLauncher } from './support/process-runners.js'

const base = realpathSync(mkdtempSync(join(tmpdir(), 'hk-warm-shells-')))
afterAll(() => {
  testLauncher.close()
  rmSync(base, { recursive: true, force: true })
  expect(launcherFallbacks).toEqual([])
})

/** Pids of live processes whose command line holds `marker` (the runs below put one in their command). */
const processesWith = (marker: string) => processesWhere((cmdline) => cmdline.includes(marker))

const newMarker = () => `hk-warm-${randomUUID().slice(0, 8)}`

type Options = (marker: string, extra?: Partial<ProcessRunOptions>) => ProcessRunOptions

/** A shell's probe runs: its command for a marker, the payload on stdin, prestart asked for. */
const optionsFor =
  (shell: string, probe: (marker: string) => string, env: Record<string, string>): Options =>
  (marker, extra = {}) => ({ command: probe(marker), shell, cwd: base, env, stdin: '{"payload":1}', prestart: true, ...extra })

/** A cold run, then, once the shell for its command line waits, the next run of that line; and the waiting shell's pid. */
async function coldThenWarm(runner: ProcessRunner, options: ProcessRunOptions, marker: string) {
  const cold = await runner.run(options)
  await waitUntil(() => processesWith(marker).length === 1 || undefined, 'the shell started for the next run')
  const [waiting] = processesWith(marker)
  const warm = await runner.run(options)
  return { cold, warm, waiting }
}

/** Each command, cold then warm without stdin, ends with the same exit code and output. */
async function expectSameOutcomes(runner: ProcessRunner, options: Options, commands: readonly string[]): Promise<void> {
  for (const command of commands) {
    const marker = newMarker()
    const { cold, warm } = await coldThenWarm(runner, options(marker, { command: `: ${marker}; ${command}`, stdin: undefined }), marker)
    expect({ exitCode: warm.exitCode, stdout: warm.stdout, stderr: warm.stderr }).toEqual({
      exitCode: cold.exitCode,
      stdout: cold.stdout,
      stderr: cold.stderr,
    })
  }
}

/** A warm run's stdin is a file of its own, removed once the shell has opened it. */
async function expectStdinFileRemoved(runner: ProcessRunner, options: Options): Promise<void> {
  const marker = newMarker()
  const { warm } = await coldThenWarm(runner, options(marker, { command: `: ${marker}; readlink /proc/$$/fd/0` }), marker)
  const payload = warm.stdout.trim().replace(/ \(deleted\)$/, '')
  expect(payload).toContain('harness-stdin-')
  await waitUntil(() => !existsSync(payload) || undefined, 'the stdin file removed')
}

/** What a fresh `bash -c` shows of itself, its stdin and its environment. */
const probe = (marker: string) =>
  `: ${marker}; echo "0=$0 flags=$- argc=$# underscore=$_ status=$? shlvl=$SHLVL pwd=$PWD line=$LINENO"; echo "exec=$BASH_EXECUTION_STRING" | md5sum; cat; echo; env | grep -c '^BASH_ENV=' ; fds=(/proc/$$/fd/*); echo "fds: \${fds[*]##*/}"`

describe.each(processRunners())('$name: a prestarted bash', ({ runner }) => {
  const options = optionsFor('/bin/bash', probe, { HK_WARM_TEST: '1' })

  it('runs the next run of the same command line, which sees what a fresh bash -c sees', async () => {
    const marker = newMarker()
    const { cold, warm, waiting } = await coldThenWarm(runner, options(marker), marker)
    expect(warm.pid).toBe(waiting)
    expect(warm.pid).not.toBe(cold.pid)
    expect(cold.stdout).toContain('{"payload":1}')
    expect(cold.stdout).toContain('0=/bin/bash flags=hBc argc=0')
    expect(warm.stdout).toBe(cold.stdout)
    expect(warm.stderr).toBe(cold.stderr)
    expect(warm.exitCode).toBe(0)
  })

  it('leaves no file of its stdin behind', () => expectStdinFileRemoved(runner, options))

  it('keeps exit codes, syntax errors, no stdin and timeouts as a fresh bash -c has them', async () => {
    await expectSameOutcomes(runner, options, ['exit 7', 'if then', 'cat; echo done'])
    const marker = newMarker()
    const hang = join(base, `${marker}.hang`)
    const line = `: ${marker}; if [ -e ${hang} ]; then exec -a ${marker}-sleeping sleep 30; fi`
    await runner.run(options(marker, { command: line }))
    await waitUntil(() => processesWith(`: ${marker}`).length === 1 || undefined, 'the shell started for the next run')
    writeFileSync(hang, '')
    const timedOut = await runner.run(options(marker, { command: line, timeoutMs: 200, killGraceMs: 100 }))
    expect(timedOut.timedOut).toBe(true)
    expect(processesNamed(`${marker}-sleeping`)).toEqual([])
    // A run that hung leaves no shell waiting for its command: once another line's shell is waiting, its would be.
    const after = newMarker()
    await runner.run(options(after, { command: `: ${after}; true` }))
    await waitUntil(() => processesWith(after).length === 1 || undefined, 'the shell started for the next run')
    expect(processesWith(`: ${marker}`)).toEqual([])
  })

  it('is not used once its folder was replaced, nor for another environment', async () => {
    const marker = newMarker()
    const cwd = join(base, marker)
    mkdirSync(cwd)
    await runner.run(options(marker, { cwd }))
    await waitUntil(() => processesWith(marker).length === 1 || undefined, 'the shell started for the next run')
    const [waiting] = processesWith(marker)
    const other = await runner.run(options(marker, { cwd, env: { HK_WARM_TEST: '2' } }))
    expect(other.pid).not.toBe(waiting)
    rmSync(cwd, { recursive: true })
    mkdirSync(cwd)
    const replaced = await runner.run(options(marker, { cwd }))
    expect(replaced.pid).not.toBe(waiting)
    expect(replaced.exitCode).toBe(0)
    await waitUntil(() => !processesWith(marker).includes(waiting!) || undefined, 'the stale shell gone')
  })

  it('is not started for bash in POSIX mode, a shell by name, a kept-open stdin, or a run that does not ask for it', async () => {
    const marker = newMarker()
    await runner.run(options(marker, { command: `: ${marker}; true`, env: { POSIXLY_CORRECT: '1' } }))
    await runner.run(options(marker, { shell: 'sh', command: `: ${marker}; true` }))
    await runner.run(options(marker, { command: `: ${marker}; true`, prestart: false }))
    await runner.run(options(marker, { command: `: ${marker}; cat`, stdin: undefined, onStdin: (stdin) => stdin.end() }))
    // A prestarted run of another line, started after these: once it is waiting, those would have been too.
    const after = newMarker()
    await runner.run(options(after, { command: `: ${after}; true` }))
    await waitUntil(() => processesWith(after).length === 1 || undefined, 'the shell started for the next run')
    expect(processesWith(marker)).toEqual([])
  })
})

/** Claude Code runs hooks with `/bin/sh`; on Debian and Ubuntu that is dash. */
const shIsDash = basename(realpathSync('/bin/sh')) === 'dash'

/** What a fresh `sh -c` (dash) shows of itself, its stdin, its environment and its open files. */
const dashProbe = (marker: string) =>
  `: ${marker}; echo "0=$0 flags=$- argc=$# status=$? ppid=$PPID pwd=$PWD line=$LINENO ifs=$(printf %s "$IFS" | od -An -c)"; cat; echo; env; ls /proc/$$/fd`

describe.skipIf(!shIsDash).each(processRunners())('$name: a prestarted /bin/sh (dash)', ({ runner }) => {
  // Names dash drops and variables it sets: the exec'd shell must get what a fresh one would.
  const options = optionsFor('/bin/sh', dashProbe, { HK_WARM_TEST: '1', 'HK-NOT-A-NAME': 'x', IFS: ':', OPTIND: '4', PPID: '1', PWD: '/' })

  it('runs the next run of the same command line, which sees what a fresh sh -c sees', async () => {
    const marker = newMarker()
    const { cold, warm, waiting } = await coldThenWarm(runner, options(marker), marker)
    expect(warm.pid).toBe(waiting)
    expect(cold.stdout).toContain('0=/bin/sh flags= argc=0 status=0')
    expect(cold.stdout).toContain('{"payload":1}')
    expect(cold.stdout).not.toContain('HK-NOT-A-NAME')
    expect(warm.stdout).toBe(cold.stdout)
    expect(warm.stderr).toBe(cold.stderr)
  })

  it('keeps exit codes, errors, no stdin and its stdin file as a fresh sh -c has them', async () => {
    await expectSameOutcomes(runner, options, ['exit 7', 'if then', 'cat; echo done', 'no-such-command-hk'])
    await expectStdinFileRemoved(runner, options)
  })
})
