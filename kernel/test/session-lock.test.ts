import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { createKernel, KernelError, type SessionEvent } from '../src/index.js'
import { modelPlugin, tempDir } from './helpers.js'

// Children run the built kernel (`tsc -b` first), as the CLI and App Server tests run theirs.
const kernelDist = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href

/**
 * A child process that resumes one session and obeys lines on stdin: `resume`, `turn` (runs a turn whose model
 * waits for `answer`), `answer`, `end`, `exit` (leaves without ending). It reports JSON lines on stdout.
 */
const CHILD = `
import { createInterface } from 'node:readline'
const { createKernel, definePlugin } = await import(${JSON.stringify(kernelDist)})
const [cwd, id] = process.argv.slice(2)
const say = (message) => process.stdout.write(JSON.stringify(message) + '\\n')
let answer
const model = {
  id: 'gated',
  async generate(request) {
    say({ event: 'sampling' })
    await new Promise((resolve) => { answer = resolve })
    const last = request.messages.at(-1)
    return { content: [{ type: 'text', text: 'reply to ' + last.content.map((block) => block.text ?? '').join('') }] }
  },
}
const kernel = createKernel([definePlugin({ name: 'model', setup: (api) => api.provide('model', model) })], { cwd })
let session
for await (const command of createInterface({ input: process.stdin })) {
  try {
    if (command === 'resume') {
      session = await kernel.resumeSession(id)
      say({ event: 'resumed', pid: process.pid })
    } else if (command === 'turn') {
      session.run('from ' + process.pid).then((result) => say({ event: 'turn', status: result.status }))
    } else if (command === 'answer') {
      answer()
    } else if (command === 'end') {
      await session.end()
      say({ event: 'ended' })
    } else if (command === 'exit') {
      process.exit(0)
    }
  } catch (error) {
    say({ event: 'error', name: error.name, message: error.message })
  }
}
`

interface Child {
  pid: number
  send(command: string): void
  /** The next report with this event (or an `error` report). */
  next(event: string): Promise<Record<string, unknown>>
  exited: Promise<number | null>
  process: ChildProcessWithoutNullStreams
}

const children: Child[] = []

afterEach(() => {
  for (const child of children.splice(0)) if (child.process.exitCode === null) child.process.kill('SIGKILL')
})

function child(dir: string, cwd: string, id: string): Child {
  const script = join(dir, 'child.mjs')
  if (!existsSync(script)) writeFileSync(script, CHILD)
  const proc = spawn(process.execPath, [script, cwd, id], { stdio: ['pipe', 'pipe', 'pipe'] })
  const reports: Record<string, unknown>[] = []
  const waiters: (() => void)[] = []
  createInterface({ input: proc.stdout }).on('line', (line) => {
    reports.push(JSON.parse(line) as Record<string, unknown>)
    for (const wake of waiters.splice(0)) wake()
  })
  let stderr = ''
  proc.stderr.on('data', (chunk) => {
    stderr += String(chunk)
  })
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)))
  const handle: Child = {
    pid: proc.pid!,
    process: proc,
    exited,
    send: (command) => proc.stdin.write(`${command}\n`),
    async next(event) {
      for (;;) {
        const index = reports.findIndex((report) => report.event === event || report.event === 'error')
        if (index >= 0) return reports.splice(index, 1)[0]!
        if (proc.exitCode !== null) throw new Error(`child ${proc.pid} exited (${proc.exitCode}) before "${event}": ${stderr}`)
        await Promise.race([new Promise<void>((resolve) => waiters.push(resolve)), exited])
      }
    },
  }
  children.push(handle)
  return handle
}

function events(path: string): SessionEvent[] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
}

/** A session started and ended in this process, so that children resume it. */
async function endedSession(): Promise<{ dir: string; cwd: string; id: string; path: string; lockPath: string }> {
  const dir = tempDir()
  const cwd = join(dir, 'project')
  const kernel = createKernel([modelPlugin], { cwd })
  const session = await kernel.startSession({ id: 'shared' })
  await session.run('hello')
  await session.end()
  await kernel.dispose()
  const path = session.transcriptPath
  return { dir, cwd, id: 'shared', path, lockPath: path.replace(/\.jsonl$/, '.lock') }
}

function expectSequential(log: SessionEvent[]): void {
  expect(log.map((event) => event.seq)).toEqual(log.map((_, index) => index + 1))
}

describe('one writer per session log, across processes', () => {
  it('a second process is refused while the first runs a turn, naming the holder; the log has one writer', async () => {
    const { dir, cwd, id, path, lockPath } = await endedSession()
    const before = events(path).length
    const first = child(dir, cwd, id)
    first.send('resume')
    expect(await first.next('resumed')).toEqual({ event: 'resumed', pid: first.pid })
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: first.pid, host: hostname() })
    first.send('turn')
    await first.next('sampling')

    const second = child(dir, cwd, id)
    second.send('resume')
    const refused = await second.next('resumed')
    expect(refused.event).toBe('error')
    expect(refused.name).toBe('KernelError')
    const since = (JSON.parse(readFileSync(lockPath, 'utf8')) as { since: string }).since
    expect(refused.message).toContain(`session ${id} is open in another process (pid ${first.pid} on ${hostname()}, since ${since})`)
    // Nothing written by the refused process: not even crash repair of the first one's live turn.
    const during = events(path)
    expect(during.filter((event) => event.type === 'session/resume')).toHaveLength(1)
    expect(during.some((event) => event.type === 'turn/end' && event.status === 'interrupted')).toBe(false)

    first.send('answer')
    expect(await first.next('turn')).toEqual({ event: 'turn', status: 'completed' })
    first.send('end')
    await first.next('ended')
    second.send('exit')
    first.send('exit')
    await Promise.all([first.exited, second.exited])

    const log = events(path)
    expectSequential(log)
    const added = log.slice(before)
    expect(added.map((event) => event.type)).toEqual([
      'session/resume',
      'turn/start',
      'step/start',
      'message',
      'message',
      'turn/end',
      'session/end',
    ])
    expect(added.flatMap((event) => (event.type === 'message' ? [event.message.content] : []))).toEqual([
      [{ type: 'text', text: `from ${first.pid}` }],
      [{ type: 'text', text: `reply to from ${first.pid}` }],
    ])
    expect(log.filter((event) => event.type === 'session/end')).toHaveLength(2)
    expect(existsSync(lockPath)).toBe(false)
  })

  it('after the holder is SIGKILLed, a new resume takes the stale lock over with a notice naming the dead pid', async () => {
    const { dir, cwd, id, path, lockPath } = await endedSession()
    const first = child(dir, cwd, id)
    first.send('resume')
    await first.next('resumed')
    first.send('turn')
    await first.next('sampling')
    first.process.kill('SIGKILL')
    await first.exited
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: first.pid })

    const kernel = createKernel([modelPlugin], { cwd })
    const resumed = await kernel.resumeSession(id)
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() })
    const log = events(path)
    expectSequential(log)
    // The killed process's turn, then the takeover and the crash repair of that turn.
    const tail = log.slice(log.findLastIndex((event) => event.type === 'turn/start'))
    expect(tail.map((event) => event.type)).toEqual(['turn/start', 'step/start', 'message', 'notice', 'turn/end', 'session/resume'])
    expect(tail[2]).toMatchObject({ message: { content: [{ type: 'text', text: `from ${first.pid}` }] } })
    expect(tail[3]).toMatchObject({
      level: 'warning',
      source: 'kernel',
      text: expect.stringContaining(`took over the stale lock of session ${id}`),
    })
    expect(tail[3]).toMatchObject({ text: expect.stringContaining(`pid ${first.pid} on ${hostname()}`) })
    expect(tail[4]).toMatchObject({ status: 'interrupted' })

    expect((await resumed.run('again')).status).toBe('completed')
    await kernel.dispose()
    expect(existsSync(lockPath)).toBe(false)
    expectSequential(events(path))
  })

  it('a normal end releases the lock: a later resume in another process works while the first still runs', async () => {
    const { dir, cwd, id, path, lockPath } = await endedSession()
    const first = child(dir, cwd, id)
    first.send('resume')
    await first.next('resumed')
    first.send('end')
    await first.next('ended')
    expect(existsSync(lockPath)).toBe(false)

    const second = child(dir, cwd, id)
    second.send('resume')
    expect(await second.next('resumed')).toEqual({ event: 'resumed', pid: second.pid })
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: second.pid })
    // Leaving without ending: the lock goes with the process.
    second.send('exit')
    first.send('exit')
    await Promise.all([first.exited, second.exited])
    expect(existsSync(lockPath)).toBe(false)
    expectSequential(events(path))
  })
})

describe('one writer per session log, in one process', () => {
  it('a second resume of an open session is refused, in the same kernel or another, before anything is written', async () => {
    const cwd = tempDir()
    const kernel = createKernel([modelPlugin], { cwd })
    const session = await kernel.startSession({ id: 'open' })
    await session.run('hello')
    const path = session.transcriptPath
    const before = readFileSync(path, 'utf8')
    const holder = `pid ${process.pid} on ${hostname()}`
    await expect(kernel.resumeSession('open')).rejects.toThrow(KernelError)
    await expect(kernel.resumeSession('open')).rejects.toThrow(`session open is already open in this process (${holder}, since `)
    const other = createKernel([modelPlugin], { cwd })
    await expect(other.resumeSession('open')).rejects.toThrow(`session open is already open in this process (${holder}`)
    await expect(other.startSession({ id: 'open' })).rejects.toThrow(`session open is already open in this process (${holder}`)
    expect(readFileSync(path, 'utf8')).toBe(before)

    // The session goes on, and its end lets it be resumed again.
    expect((await session.run('more')).status).toBe('completed')
    await session.end()
    const resumed = await other.resumeSession('open')
    expect(resumed.messages).toHaveLength(4)
    await other.dispose()
    await kernel.dispose()
    expectSequential(events(path))
  })

  it('dispose releases the locks of sessions still open; a failed resume leaves no lock', async () => {
    const cwd = tempDir()
    const kernel = createKernel([modelPlugin], { cwd })
    const session = await kernel.startSession({ id: 'kept' })
    const lockPath = session.transcriptPath.replace(/\.jsonl$/, '.lock')
    expect(existsSync(lockPath)).toBe(true)
    await expect(kernel.resumeSession('missing')).rejects.toThrow(/no session missing/)
    expect(existsSync(lockPath.replace('kept', 'missing'))).toBe(false)
    await kernel.dispose()
    expect(existsSync(lockPath)).toBe(false)
  })

  it('a lock from another host is never taken over: the error names it and how to remove it', async () => {
    const cwd = tempDir()
    const kernel = createKernel([modelPlugin], { cwd })
    const session = await kernel.startSession({ id: 'remote' })
    await session.end()
    const lockPath = session.transcriptPath.replace(/\.jsonl$/, '.lock')
    const dead = spawnSync(process.execPath, ['-e', '']).pid
    writeFileSync(lockPath, JSON.stringify({ pid: dead, host: 'elsewhere.example', since: '2026-01-02T00:00:00.000Z' }))
    const before = readFileSync(session.transcriptPath, 'utf8')
    await expect(kernel.resumeSession('remote')).rejects.toThrow(
      `session remote is locked by another host (pid ${dead} on elsewhere.example, since 2026-01-02T00:00:00.000Z): ${lockPath}. A lock from another host is never taken over; if no process on elsewhere.example is using the session, remove ${lockPath}`,
    )
    expect(readFileSync(session.transcriptPath, 'utf8')).toBe(before)
    expect(existsSync(lockPath)).toBe(true)
    await kernel.dispose()
    expect(existsSync(lockPath)).toBe(true)
  })
})
