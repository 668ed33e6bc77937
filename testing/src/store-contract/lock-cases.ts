import { hostname } from 'node:os'
import { expect, it } from 'vitest'
import { expectKernelError, type StoreFixture, sessionId, sessionStart } from './fixture.js'

/** One writer per session: a held lock refuses a second holder, a released one is free, a stale one is taken over. */
export function lockCases(fixture: StoreFixture): void {
  it('refuses a second lock while the first is held, naming the holder; a released lock can be taken again', async () => {
    const id = sessionId('locked')
    const first = await fixture.lock(id)
    expect(first.tookOver).toBeUndefined()
    await expectKernelError(fixture.store.lock(id), `pid ${process.pid}`)
    await expectKernelError(fixture.store.lock(id), hostname())
    await first.release()
    await first.release()
    const second = await fixture.lock(id)
    expect(second.tookOver).toBeUndefined()
    await expectKernelError(fixture.store.lock(id), `pid ${process.pid}`)
  })

  it('locks sessions apart: holding one leaves another free', async () => {
    await fixture.lock(sessionId('one'))
    expect((await fixture.lock(sessionId('two'))).tookOver).toBeUndefined()
  })

  it.runIf(fixture.harness.makeStale !== undefined)(
    'takes a stale lock over, naming the old holder; the old lock’s release then leaves the new one alone',
    async () => {
      const id = sessionId('stale')
      const first = await fixture.lock(id)
      await fixture.harness.makeStale?.(fixture.store, id)
      const second = await fixture.lock(id)
      expect(second.tookOver).toEqual({ pid: expect.any(Number), host: expect.any(String), since: expect.any(String) })
      if (first.epoch !== undefined) expect(second.epoch).toBeGreaterThan(first.epoch)
      await first.release()
      await expectKernelError(fixture.store.lock(id), `pid ${process.pid}`)
      await second.release()
      expect((await fixture.lock(id)).tookOver).toBeUndefined()
    },
  )

  it.runIf(fixture.harness.makeStale !== undefined)(
    'a fencing store loses the old holder’s log once its lock is taken over: onLost once, then appends throw',
    async (context) => {
      const id = sessionId('fenced')
      const { lock: first, log } = await fixture.create(id)
      if (first.epoch === undefined) context.skip('the store has no epochs: its lock alone keeps other writers out')
      const lost: Error[] = []
      const lostOnce = new Promise<Error>((resolve) =>
        log.onLost((error) => {
          lost.push(error)
          resolve(error)
        }),
      )
      const written = log.append(sessionStart(id, '/p', '2026-01-02T00:00:00.000Z'))
      await log.sync()
      await fixture.harness.makeStale?.(fixture.store, id)
      const second = await fixture.lock(id)
      expect(second.epoch).toBeGreaterThan(first.epoch as number)
      // The store finds out when it writes (or watches its lock): what the old holder appends now is never stored.
      log.append({ type: 'turn/start', turnId: 'late' })
      await expect(log.sync()).rejects.toThrow()
      expect(await lostOnce).toBeInstanceOf(Error)
      expect(() => log.append({ type: 'turn/start', turnId: 'later' })).toThrow(expect.objectContaining({ name: 'KernelError' }))
      await log.sync().catch(() => {})
      expect(lost).toHaveLength(1)
      expect((await fixture.store.load(id)).events).toEqual([written])
    },
  )
}
