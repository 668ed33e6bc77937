import type { SessionEvent, SessionEventBody } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { appendThroughRestart } from './support/append-through-restart.js'
import { openThread, steerItem } from './support/fleet-threads.js'
import { useTestDatabase } from './support/test-database.js'
import { waitFor } from './support/wait-for.js'
import { Wakes } from './support/wakes.js'

const database = useTestDatabase()

const note = (text: string): SessionEventBody => ({ type: 'notice', level: 'info', text, source: 'fleet-restart-test' })
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index)

describe('the fleet across a database restart', () => {
  it('follow delivers every event once, in order, across an immediate restart, and catches up after it', async () => {
    const schema = database.freshSchema()
    const writer = database.store({ schema, leaseMs: 20_000 })
    const reader = database.store({ schema })
    const { log } = await openThread(database, writer, 'thread-1')
    const appended = [log.append(note('before'))]
    await log.sync()
    const received: SessionEvent[] = []
    const stop = new AbortController()
    const following = reader.fleet({ followPollMs: 10 }).follow('thread-1', 1, (events) => received.push(...events), stop.signal)
    await waitFor(async () => received.length === 1, 'the first event')
    appended.push(...(await appendThroughRestart(database.server, log, note)))
    appended.push(log.append(note('after')))
    await log.sync()
    await waitFor(async () => received.length >= appended.length, 'the follower to catch up')
    stop.abort()
    await following
    expect(received.map((event) => event.seq)).toEqual(range(2, appended.length + 1))
    expect(received).toEqual(appended)
  })

  it('watchInbox listens again after an immediate restart: it wakes what is pending, then hears new input', async () => {
    const schema = database.freshSchema()
    const front = database.store({ schema })
    const owner = database.store({ schema })
    await openThread(database, owner, 'waiting-thread')
    await openThread(database, owner, 'new-thread')
    const frontFleet = front.fleet()
    await frontFleet.accept(steerItem('waiting-item', 'waiting-thread'))
    const wakes = new Wakes()
    // No poll within the test: what wakes comes from the listener's connection.
    const watch = owner.fleet({ pollMs: 600_000 }).watchInbox(wakes.wake)
    await watch.ready
    expect(wakes.count('waiting-thread')).toBe(1)

    const reconnected = wakes.next('waiting-thread')
    await database.server.restart({ mode: 'immediate' })
    await reconnected
    const heard = wakes.next('new-thread')
    await waitFor(() => frontFleet.accept(steerItem('new-item', 'new-thread')), 'the accept to go through after the restart')
    await heard
    expect(wakes.count('new-thread')).toBe(1)
    await watch.close()
  })
})
