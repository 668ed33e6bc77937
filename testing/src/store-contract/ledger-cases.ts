import { hostname } from 'node:os'
import { expect, it } from 'vitest'
import { type StoreFixture, sessionId } from './fixture.js'

/** The process ledger: the groups a session's kernel started and has not seen end, for the next opener to reap. */
export function ledgerCases(fixture: StoreFixture): void {
  it('records groups started and not ended, for a later reader of the same session; clear forgets them', async () => {
    const id = sessionId('ledger')
    await fixture.create(id)
    const ledger = fixture.store.processLedger(id)
    expect(await ledger.unfinished()).toEqual([])
    ledger.started({ pgid: 4242, command: 'sleep 30', startTicks: 7 })
    ledger.started({ pgid: 4343, command: 'make test' })
    ledger.ended(4242)
    const [left, ...more] = await fixture.store.processLedger(id).unfinished()
    expect(more).toEqual([])
    expect(left).toMatchObject({ pgid: 4343, command: 'make test', host: hostname(), startedAt: expect.any(String) })
    ledger.started({ pgid: 4444, command: 'sleep 30', startTicks: 9 })
    const pgids = (await fixture.store.processLedger(id).unfinished()).map((group) => group.pgid).sort((a, b) => a - b)
    expect(pgids).toEqual([4343, 4444])
    expect((await ledger.unfinished()).find((group) => group.pgid === 4444)).toMatchObject({ startTicks: 9 })
    await fixture.store.processLedger(id).clear()
    expect(await ledger.unfinished()).toEqual([])
    expect(await fixture.store.processLedger(id).unfinished()).toEqual([])
  })

  it('forgets a group once it ended, and keeps ledgers of sessions apart', async () => {
    const one = sessionId('one')
    const two = sessionId('two')
    await fixture.create(one)
    await fixture.create(two)
    const ledger = fixture.store.processLedger(one)
    ledger.started({ pgid: 5151, command: 'true' })
    expect(await fixture.store.processLedger(two).unfinished()).toEqual([])
    ledger.ended(5151)
    expect(await fixture.store.processLedger(one).unfinished()).toEqual([])
  })
}
