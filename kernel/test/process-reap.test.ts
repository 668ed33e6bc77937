import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { createKernel, describeReap, FileProcessLedger, reapProcessGroups, type SessionEvent } from '../src/index.js'
import { modelPlugin, tempDir } from './helpers.js'
import { processesNamed } from './support/marked-processes.js'
import { waitUntil } from './support/waits.js'

// Children run the built kernel (`tsc -b` first), as the CLI and App Server tests run theirs.
const kernelDist = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href
const zodUrl = pathToFileURL(createRequire(import.meta.url).resolve('zod')).href

/**
 * A kernel in a child process: it starts session `id` and runs a turn whose model calls the tool `spawn`, which starts
 * a shell holding two `sleep`s (one in the background) named `marker` through `exec -a`, under the sandbox mode given.
 * It reports the group's pid.
 */
const CHILD = `
const { createKernel, definePlugin, defineTool, guardrails } = await import(${JSON.stringify(kernelDist)})
const { z } = await import(${JSON.stringify(zodUrl)})
const [cwd, id, marker, sandbox] = process.argv.slice(2)
const say = (message) => process.stdout.write(JSON.stringify(message) + '\\n')
const model = {
  id: 'calls-spawn',
  async generate(request) {
    const called = request.messages.some((message) => message.role === 'tool')
    return called
      ? { content: [{ type: 'text', text: 'done' }] }
      : { content: [{ type: 'tool_call', id: 'call-1', name: 'spawn', input: {} }] }
  },
}
const spawnTool = defineTool({
  name: 'spawn',
  description: 'Starts two sleeps.',
  inputSchema: z.object({}),
  async execute(_input, context) {
    const command = '(exec -a ' + marker + '-background sleep 300) & exec -a ' + marker + '-leader sleep 300'
    const result = await context.processRunner.run({ command, shell: '/bin/bash', cwd: context.cwd, onStart: (pid) => say({ event: 'spawned', pid }) })
    return { output: String(result.exitCode), isError: false }
  },
})
const kernel = createKernel([definePlugin({ name: 'child', setup: (api) => { api.provide('model', model); api.registerTool(spawnTool) } }), guardrails({ sandbox })], { cwd })
const session = await kernel.startSession({ id })
say({ event: 'started' })
await session.run('start the sleeps')
`

const children: ChildProcess[] = []
const strays: number[] = []

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
  for (const pid of strays.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      // gone already
    }
  }
})

/** Waits (by polling /proc) until `count` marked processes run. */
async function untilRunning(marker: string, count: number): Promise<void> {
  await waitUntil(() => processesNamed(marker).length >= count, `${count} processes named ${marker}`)
}

/** Starts the child kernel and waits until both sleeps run; returns the group's pid. */
async function kernelChild(
  dir: string,
  cwd: string,
  id: string,
  marker: string,
  sandbox = 'danger-full-access',
): Promise<{ child: ChildProcess; pgid: number }> {
  const script = join(dir, 'child.mjs')
  if (!existsSync(script)) writeFileSync(script, CHILD)
  const child = spawn(process.execPath, [script, cwd, id, marker, sandbox], { stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk)
  })
  const pgid = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const report = JSON.parse(line) as { event: string; pid?: number }
      if (report.event === 'spawned') resolve(report.pid!)
    })
    child.on('exit', (code) => reject(new Error(`the child kernel exited (${code}) before spawning: ${stderr}`)))
  })
  strays.push(pgid)
  await untilRunning(marker, 2)
  return { child, pgid }
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await exited
}

const events = (path: string) =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)

describe.skipIf(process.platform !== 'linux')('process groups a crashed kernel left running', () => {
  it('do not survive a SIGKILLed kernel when they ran in the sandbox (it dies with the kernel)', async () => {
    const dir = tempDir()
    const marker = `hk-reap-${process.pid}-sandboxed`
    const { child } = await kernelChild(dir, join(dir, 'project'), 'sandboxed', marker, 'workspace-write')
    await kill(child)
    // bubblewrap's --die-with-parent kills the sandbox once the kernel is gone: wait for that.
    await waitUntil(() => processesNamed(marker).length === 0, 'the sandboxed processes to exit')
  })

  it('survive the SIGKILLed kernel (unsandboxed), and resuming the session kills them (leader and background child) and says so', async () => {
    const dir = tempDir()
    const cwd = join(dir, 'project')
    const marker = `hk-reap-${process.pid}-a`
    const { child, pgid } = await kernelChild(dir, cwd, 'crashed', marker)
    const ledgerPath = join(cwd, '.harness', 'sessions', 'crashed.processes')
    expect((await new FileProcessLedger(ledgerPath).unfinished()).map((group) => group.pgid)).toEqual([pgid])

    await kill(child)
    // Nothing else kills them: the group outlives its kernel.
    expect(processesNamed(marker)).toHaveLength(2)

    const kernel = createKernel([modelPlugin], { cwd })
    const session = await kernel.resumeSession('crashed')
    expect(processesNamed(marker)).toEqual([])
    expect(existsSync(ledgerPath)).toBe(false)
    const notices = events(session.transcriptPath).filter((event) => event.type === 'notice')
    const reaped = notices.find((event) => event.type === 'notice' && event.text.includes('left processes running'))
    expect(reaped).toMatchObject({ level: 'warning', source: 'kernel' })
    expect(reaped?.type === 'notice' && reaped.text).toContain(`killed process group ${pgid} (`)
    expect(reaped?.type === 'notice' && reaped.text).toContain('2 processes')
    // The turn the kill cut short is closed as before, after the reap.
    const types = events(session.transcriptPath).map((event) => event.type)
    expect(types.indexOf('notice')).toBeLessThan(types.lastIndexOf('session/resume'))
    await session.end()
    await kernel.dispose()
  })

  it('a session that ran its processes to the end leaves no ledger, and a resume reaps nothing', async () => {
    const dir = tempDir()
    const kernel = createKernel([modelPlugin], { cwd: dir })
    const session = await kernel.startSession({ id: 'clean' })
    const result = await session.processRunner.run({ command: 'true', shell: true, cwd: dir })
    expect(result.exitCode).toBe(0)
    expect(existsSync(join(dir, '.harness', 'sessions', 'clean.processes'))).toBe(false)
    await session.end()
    const resumed = await kernel.resumeSession('clean')
    expect(events(resumed.transcriptPath).some((event) => event.type === 'notice' && event.text.includes('left processes'))).toBe(false)
    await kernel.dispose()
  })

  it('leaves a group that is not provably the one recorded: another host, an unrecorded start, a group now older than the record', async () => {
    const other = spawn('/bin/bash', ['-c', 'exec -a hk-reap-other sleep 300'], { detached: true, stdio: 'ignore' })
    children.push(other)
    strays.push(other.pid!)
    await untilRunning('hk-reap-other', 1)
    const stat = readFileSync(`/proc/${other.pid}/stat`, 'utf8')
    const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19])
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
    const base = { pgid: other.pid!, command: 'sleep 300', startedAt: new Date().toISOString(), host: hostname(), bootId }
    const outcomes = await reapProcessGroups([
      { ...base, host: 'another-host' },
      { ...base, startTicks: undefined },
      { ...base, startTicks: startTicks + 100 },
    ])
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['left', 'left', 'left'])
    expect(describeReap(outcomes).join('\n')).toMatch(/another-host[\s\S]*not recorded[\s\S]*older than the one started/)
    expect(processesNamed('hk-reap-other')).toEqual([other.pid])

    // The same group, recorded as it is: killed.
    const [reaped] = await reapProcessGroups([{ ...base, startTicks }])
    expect(reaped).toMatchObject({ kind: 'reaped', pids: [other.pid] })
    expect(processesNamed('hk-reap-other')).toEqual([])
    // A group that is gone, or from another boot, is not reported at all.
    expect(
      describeReap(
        await reapProcessGroups([
          { ...base, startTicks },
          { ...base, startTicks, bootId: 'an-earlier-boot' },
        ]),
      ),
    ).toEqual([])
  })
})
