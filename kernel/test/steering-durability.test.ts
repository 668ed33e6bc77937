import { describe, expect, it } from 'vitest'
import { createKernel } from '../src/index.js'
import { echoModel, plugin, tempDir } from './helpers.js'
import { MemorySessionStore } from './support/memory-session-store.js'

async function sessionOnMemoryStore() {
  const store = new MemorySessionStore()
  const kernel = createKernel(
    [
      plugin('memory-store', (api) => {
        api.provide('sessionStore', store)
        api.provide('model', echoModel)
      }),
    ],
    { cwd: tempDir() },
  )
  return { store, kernel, session: await kernel.startSession({ id: 'steered' }) }
}

describe('steering is acknowledged once its record is durable', () => {
  it('a claim is accepted only after the log synced its steering/accepted', async () => {
    const { store, kernel, session } = await sessionOnMemoryStore()
    const syncs = store.holdSyncs()
    const receipt = session.steer('steered in')
    await syncs.requested
    expect(receipt.state()).toBe('claimed')
    const accepted = (await store.load('steered')).events.find((event) => event.type === 'steering/accepted')
    expect(accepted).toMatchObject({ itemIds: receipt.itemIds, droppedIds: [] })
    syncs.settle()
    expect(await receipt).toEqual({ state: 'recorded', itemIds: receipt.itemIds })
    await session.idle()
    expect((await store.load('steered')).events.findLast((event) => event.type === 'turn/end')).toMatchObject({ status: 'completed' })
    await kernel.dispose()
  })

  it('a sync that fails gives the claim back to its source and fails the turn', async () => {
    const { store, kernel, session } = await sessionOnMemoryStore()
    const syncs = store.holdSyncs()
    // Only a turn's first step takes it: given back, it stays queued.
    const receipt = session.steer('steered in', { when: 'next-turn' })
    await syncs.requested
    syncs.settle(new Error('the disk is gone'))
    await session.idle()
    expect(receipt.state()).toBe('returned')
    const end = (await store.load('steered')).events.findLast((event) => event.type === 'turn/end')
    expect(end).toMatchObject({ status: 'failed', error: 'the disk is gone' })
    await kernel.dispose()
    await expect(receipt).rejects.toThrow('was cancelled: session ended (dispose)')
  })
})
