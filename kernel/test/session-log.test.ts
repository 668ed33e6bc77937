import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createKernel, JsonlSessionStore, type SessionEvent } from '../src/index.js'
import { modelPlugin, tempDir } from './helpers.js'

function lines(path: string): SessionEvent[] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
}

describe('JsonlSessionStore', () => {
  it('appends one JSON event per line with a version, a sequence number and a timestamp', () => {
    const store = new JsonlSessionStore(tempDir(), { now: () => Date.UTC(2026, 0, 2) })
    const log = store.create('s1')
    log.append({ type: 'turn/start', turnId: 't1' })
    log.append({ type: 'notice', level: 'info', text: 'hi', source: 'test' })
    log.close()
    expect(readFileSync(log.path, 'utf8')).toBe(
      '{"v":1,"seq":1,"at":"2026-01-02T00:00:00.000Z","type":"turn/start","turnId":"t1"}\n' +
        '{"v":1,"seq":2,"at":"2026-01-02T00:00:00.000Z","type":"notice","level":"info","text":"hi","source":"test"}\n',
    )
    expect(store.load('s1')).toEqual({ events: lines(log.path), droppedTail: undefined })
  })

  it('drops a torn last line on load and cuts it before the next append', () => {
    const store = new JsonlSessionStore(tempDir())
    const log = store.create('s1')
    log.append({ type: 'turn/start', turnId: 't1' })
    log.close()
    appendFileSync(log.path, '{"v":1,"seq":2,"type":"mess')
    const loaded = store.load('s1')
    expect(loaded.events.map((event) => event.seq)).toEqual([1])
    expect(loaded.droppedTail).toBe('{"v":1,"seq":2,"type":"mess')
    const reopened = store.reopen('s1', 1)
    reopened.append({ type: 'turn/end', turnId: 't1', status: 'completed' })
    reopened.close()
    expect(lines(log.path).map((event) => [event.seq, event.type])).toEqual([
      [1, 'turn/start'],
      [2, 'turn/end'],
    ])
  })

  it('a corrupt line in the middle is an error naming the file and line', () => {
    const dir = tempDir()
    const store = new JsonlSessionStore(dir)
    writeFileSync(join(dir, 'bad.jsonl'), '{"v":1,"seq":1,"type":"turn/start","turnId":"t"}\nnot json\n{"v":1,"seq":3,"type":"turn/end"}\n')
    expect(() => store.load('bad')).toThrow(`session log ${join(dir, 'bad.jsonl')} is corrupt at line 2`)
    expect(() => store.load('missing')).toThrow(/no session missing/)
  })

  it('lists sessions with their first prompt and turn count', async () => {
    const cwd = tempDir()
    const kernel = createKernel([modelPlugin], { cwd })
    const session = await kernel.startSession({ id: 'listed' })
    await session.run('first prompt')
    await session.end()
    const [summary] = new JsonlSessionStore(join(cwd, '.harness/sessions')).list()
    expect(summary).toMatchObject({ id: 'listed', cwd, turns: 1, ended: true, firstPrompt: 'first prompt' })
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
    const other = createKernel([modelPlugin], { cwd })
    const resumed = await other.resumeSession('crashed')
    const events = lines(path)
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1))
    const tail = events.slice(seq + 2).map((event) => event.type)
    expect(tail).toEqual(['notice', 'tool/result', 'turn/end', 'session/resume'])
    expect(events.find((event) => event.type === 'tool/result' && event.callId === 'c1')).toMatchObject({ isError: true })
    expect(resumed.messages.at(-1)).toMatchObject({ role: 'tool' })
    const next = await resumed.run('again')
    expect(next.status).toBe('completed')
    await other.dispose()
    await kernel.dispose()
  })
})
