import { expect, it } from 'vitest'
import { createKernel } from '../src/index.js'
import { modelPlugin, tempDir } from './helpers.js'
import { waitUntil } from './support/waits.js'

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

it('turn ids are UUIDv7s: they sort by the time the turn started', async () => {
  const kernel = createKernel([modelPlugin], { cwd: tempDir() })
  const session = await kernel.startSession()
  const before = Date.now()
  const first = await session.run('one')
  // The second turn starts in a later millisecond than the first: its id sorts after.
  const firstMs = Date.now()
  await waitUntil(() => Date.now() > firstMs, 'the next millisecond')
  const second = await session.run('two')
  for (const { turnId } of [first, second]) expect(turnId).toMatch(UUID_V7)
  expect(Number.parseInt(first.turnId.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThanOrEqual(before)
  expect([second.turnId, first.turnId].sort()).toEqual([first.turnId, second.turnId])
  await kernel.dispose()
})
