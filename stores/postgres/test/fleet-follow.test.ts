import type { SessionEvent } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { openThread } from './support/fleet-threads.js'
import { useTestDatabase } from './support/test-database.js'
import { waitFor } from './support/wait-for.js'

const database = useTestDatabase()

const note = (text: string) => ({ type: 'notice', level: 'info', text, source: 'follow-test' }) as const

describe('following a thread’s log', () => {
  it('delivers the events after afterSeq as they are committed, in order and each once, decoded as load gives them', async () => {
    const schema = database.freshSchema()
    const writer = database.store({ schema })
    const reader = database.store({ schema })
    const { log } = await openThread(database, writer, 'thread-1')
    const appended = [log.append(note('one')), log.append(note('a NUL \u0000 in a tool’s output'))]
    await log.sync()
    const received: SessionEvent[] = []
    const batches: number[] = []
    const stop = new AbortController()
    const following = reader.fleet({ followPollMs: 20 }).follow(
      'thread-1',
      1,
      (events) => {
        batches.push(events.length)
        received.push(...events)
      },
      stop.signal,
    )
    await waitFor(async () => received.length === 2, 'the first events')
    // More than a page (500) in one go, then a trickle.
    for (let index = 0; index < 1200; index++) appended.push(log.append(note(`bulk ${index}`)))
    await log.sync()
    for (let index = 0; index < 5; index++) {
      appended.push(log.append(note(`trickle ${index}`)))
      await log.sync()
    }
    await waitFor(async () => received.length === appended.length, 'every event')
    stop.abort()
    await following
    expect(received).toEqual(appended)
    expect(received).toEqual((await writer.load('thread-1')).events.slice(1))
    expect(Math.max(...batches)).toBe(500)
  })

  it('resolves when its signal aborts, or when the fleet (or its store) closes; an aborted signal reads nothing', async () => {
    const store = database.store()
    await openThread(database, store, 'thread-1')
    const fleet = store.fleet()
    const calls: SessionEvent[][] = []
    await fleet.follow('thread-1', 0, (events) => calls.push(events), AbortSignal.abort())
    expect(calls).toEqual([])
    const open = new AbortController()
    let settled = false
    const following = fleet
      .follow('thread-1', 0, (events) => calls.push(events), open.signal)
      .then(() => {
        settled = true
      })
    await waitFor(async () => calls.length === 1, 'the session/start')
    expect(settled).toBe(false)
    await store.close()
    await following
    expect(calls.flat().map((event) => event.type)).toEqual(['session/start'])
  })

  it('a throw of onEvents rejects the follow', async () => {
    const store = database.store()
    await openThread(database, store, 'thread-1')
    const failing = store.fleet().follow(
      'thread-1',
      0,
      () => {
        throw new Error('the consumer failed')
      },
      new AbortController().signal,
    )
    await expect(failing).rejects.toThrow('the consumer failed')
  })
})
