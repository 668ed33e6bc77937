import { spawnSync } from 'node:child_process'
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createKernel, JsonlSessionStore, type SessionEvent, type SessionLog } from '../src/index.js'
import { modelPlugin, tempDir } from './helpers.js'

function lines(path: string): SessionEvent[] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
}

/** A new log of `store` for session `id`, under its lock (released after `write`). */
async function withLog(store: JsonlSessionStore, id: string, write: (log: SessionLog) => void): Promise<SessionLog> {
  const lock = await store.lock(id)
  try {
    const log = await store.create(id, lock)
    write(log)
    await log.close()
    return log
  } finally {
    await lock.release()
  }
}

// What every store does is the shared contract suite's (jsonl-session-store-contract.test.ts); these are the file's own.
describe('JsonlSessionStore', () => {
  it('appends one JSON event per line with a version, a sequence number and a timestamp', async () => {
    const store = new JsonlSessionStore(tempDir(), { now: () => Date.UTC(2026, 0, 2) })
    const log = await withLog(store, 's1', (log) => {
      log.append({ type: 'turn/start', turnId: 't1' })
      log.append({ type: 'notice', level: 'info', text: 'hi', source: 'test' })
    })
    expect(readFileSync(log.path, 'utf8')).toBe(
      '{"v":1,"seq":1,"at":"2026-01-02T00:00:00.000Z","type":"turn/start","turnId":"t1"}\n' +
        '{"v":1,"seq":2,"at":"2026-01-02T00:00:00.000Z","type":"notice","level":"info","text":"hi","source":"test"}\n',
    )
    expect(await store.load('s1')).toEqual({ events: lines(log.path), droppedTail: undefined })
  })

  it('drops a torn last line on load and cuts it before the next append', async () => {
    const store = new JsonlSessionStore(tempDir())
    const log = await withLog(store, 's1', (log) => log.append({ type: 'turn/start', turnId: 't1' }))
    appendFileSync(log.path, '{"v":1,"seq":2,"type":"mess')
    const loaded = await store.load('s1')
    expect(loaded.events.map((event) => event.seq)).toEqual([1])
    expect(loaded.droppedTail).toBe('{"v":1,"seq":2,"type":"mess')
    const lock = await store.lock('s1')
    const reopened = await store.reopen('s1', 1, lock)
    reopened.append({ type: 'turn/end', turnId: 't1', status: 'completed' })
    await reopened.close()
    await lock.release()
    expect(lines(log.path).map((event) => [event.seq, event.type])).toEqual([
      [1, 'turn/start'],
      [2, 'turn/end'],
    ])
  })

  it('a corrupt line in the middle is an error naming the file and line; a missing log names its path', async () => {
    const dir = tempDir()
    const store = new JsonlSessionStore(dir)
    writeFileSync(join(dir, 'bad.jsonl'), '{"v":1,"seq":1,"type":"turn/start","turnId":"t"}\nnot json\n{"v":1,"seq":3,"type":"turn/end"}\n')
    await expect(store.load('bad')).rejects.toThrow(`session log ${join(dir, 'bad.jsonl')} is corrupt at line 2`)
    await expect(store.load('missing')).rejects.toThrow(`no session missing: ${join(dir, 'missing.jsonl')} does not exist`)
  })

  it('lists sessions with their first prompt and turn count', async () => {
    const cwd = tempDir()
    const kernel = createKernel([modelPlugin], { cwd })
    const session = await kernel.startSession({ id: 'listed' })
    await session.run('first prompt')
    await session.end()
    const [summary] = await new JsonlSessionStore(join(cwd, '.harness/sessions')).list()
    expect(summary).toMatchObject({ id: 'listed', cwd, turns: 1, ended: true, firstPrompt: 'first prompt' })
    expect(summary).toMatchObject({ name: undefined, archived: false, forkedFrom: undefined })
    await kernel.dispose()
  })
})

describe('names, archives and forks', () => {
  it('keeps a name and the archived flag in <id>.meta.json beside the log, removed once empty', async () => {
    const dir = tempDir()
    const store = new JsonlSessionStore(dir)
    const log = await withLog(store, 's1', (log) =>
      log.append({ type: 'session/start', sessionId: 's1', cwd: '/p', createdAt: '2026-01-02T00:00:00.000Z' }),
    )
    const before = readFileSync(log.path, 'utf8')
    await store.setName('s1', 'My session')
    await store.setArchived('s1', true)
    expect(readFileSync(join(dir, 's1.meta.json'), 'utf8')).toBe('{"name":"My session","archived":true}\n')
    expect(readFileSync(log.path, 'utf8')).toBe(before)
    expect(readdirSync(dir).sort()).toEqual(['s1.jsonl', 's1.meta.json'])
    await store.setArchived('s1', false)
    await store.setName('s1', undefined)
    expect(existsSync(join(dir, 's1.meta.json'))).toBe(false)
    await expect(store.setName('missing', 'x')).rejects.toThrow(`no session missing: ${join(dir, 'missing.jsonl')} does not exist`)
  })

  it('a fork starts at the clock’s time and says why a turn cannot be its end', async () => {
    const store = new JsonlSessionStore(tempDir(), { now: () => Date.UTC(2026, 0, 3) })
    await withLog(store, 'src', (log) => {
      log.append({ type: 'session/start', sessionId: 'src', cwd: '/p', createdAt: '2026-01-01T00:00:00.000Z' })
      log.append({ type: 'turn/start', turnId: 't1' })
      log.append({ type: 'turn/end', turnId: 't1', status: 'completed' })
      log.append({ type: 'turn/start', turnId: 't2' })
    })
    await store.fork('src', 'f1', { throughTurnId: 't1' })
    expect((await store.load('f1')).events[0]).toEqual({
      v: 1,
      seq: 1,
      at: '2026-01-03T00:00:00.000Z',
      type: 'session/start',
      sessionId: 'f1',
      cwd: '/p',
      createdAt: '2026-01-03T00:00:00.000Z',
      forkedFrom: { sessionId: 'src', turnId: 't1' },
    })
    await expect(store.fork('src', 'f3', { throughTurnId: 't2' })).rejects.toThrow('turn t2 of session src has not ended')
    await expect(store.fork('src', 'f3', { throughTurnId: 'nope' })).rejects.toThrow('session src has no turn nope')
    await expect(store.fork('src', 'f1')).rejects.toThrow(/session f1 already exists at .*f1\.jsonl/)
  })

  it('a fork resumes as its own session, and an open turn copied with it is closed as interrupted', async () => {
    const cwd = tempDir()
    const kernel = createKernel([modelPlugin], { cwd })
    const session = await kernel.startSession({ id: 'source' })
    const first = await session.run('first')
    await session.run('second')
    await session.end()
    const store = kernel.resolve('sessionStore')
    await store.fork('source', 'fork', { throughTurnId: first.turnId })
    const fork = await kernel.resumeSession('fork')
    expect(fork.messages.map((message) => message.content)).toEqual([
      [{ type: 'text', text: 'first' }],
      [{ type: 'text', text: 'echo: first' }],
    ])
    const next = await fork.run('third')
    expect(next.lastAssistantMessage).toBe('echo: third')
    await fork.end()
    expect((await store.summary('source')).turns).toBe(2)
    expect(await store.summary('fork')).toMatchObject({ turns: 2, forkedFrom: 'source', cwd })

    // A copied open turn (the source was mid-turn) is closed on resume, as after a crash.
    const path = store.pathFor('source')
    const seq = lines(path).at(-1)!.seq
    appendFileSync(path, `${JSON.stringify({ v: 1, seq: seq + 1, at: new Date().toISOString(), type: 'turn/start', turnId: 'open' })}\n`)
    await store.fork('source', 'fork-open')
    const resumed = await kernel.resumeSession('fork-open')
    await resumed.end()
    expect((await store.load('fork-open')).events.find((event) => event.type === 'turn/end' && event.turnId === 'open')).toMatchObject({
      status: 'interrupted',
    })
    await kernel.dispose()
  })
})

describe('resume after a crash', () => {
  it('recovers a torn tail, closes the open turn and answers dangling tool calls', async () => {
    const cwd = tempDir()
    const kernel = createKernel([modelPlugin], { cwd })
    const session = await kernel.startSession({ id: 'crashed' })
    await session.run('hello')
    const path = session.transcriptPath
    // Simulate a crash mid-turn: a turn with an unanswered tool call, then a torn line.
    const seq = lines(path).at(-1)!.seq
    const at = new Date().toISOString()
    appendFileSync(
      path,
      `${JSON.stringify({ v: 1, seq: seq + 1, at, type: 'turn/start', turnId: 'tc' })}\n` +
        `${JSON.stringify({ v: 1, seq: seq + 2, at, type: 'message', turnId: 'tc', message: { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'shell', input: {} }], source: { kind: 'model' } } })}\n` +
        '{"v":1,"seq":',
    )
    // …and the process gone: its lock names a pid that is no longer running, so the next resume takes it over.
    const lockPath = path.replace(/\.jsonl$/, '.lock')
    const dead = spawnSync(process.execPath, ['-e', '']).pid
    writeFileSync(lockPath, JSON.stringify({ ...JSON.parse(readFileSync(lockPath, 'utf8')), pid: dead }))
    const other = createKernel([modelPlugin], { cwd })
    const resumed = await other.resumeSession('crashed')
    const events = lines(path)
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1))
    const tail = events.slice(seq + 2).map((event) => event.type)
    expect(tail).toEqual(['notice', 'notice', 'tool/result', 'turn/end', 'session/resume'])
    expect(events[seq + 2]).toMatchObject({ type: 'notice', level: 'warning', text: expect.stringContaining(`pid ${dead} on `) })
    expect(events.find((event) => event.type === 'tool/result' && event.callId === 'c1')).toMatchObject({ isError: true })
    expect(resumed.messages.at(-1)).toMatchObject({ role: 'tool' })
    const next = await resumed.run('again')
    expect(next.status).toBe('completed')
    await other.dispose()
    await kernel.dispose()
  })
})
