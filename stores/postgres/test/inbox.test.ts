import type { SessionEventBody } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { useTestDatabase } from './support/test-database.js'

const database = useTestDatabase()

describe('the steering inbox', () => {
  it('a steering/accepted event settles the thread’s pending and claimed rows in the same transaction: items recorded, drops settled dropped', async () => {
    const store = database.store()
    const id = 'steered-thread'
    const lock = database.track(await store.lock(id))
    const log = database.track(await store.create(id, lock))
    log.append({ type: 'session/start', sessionId: id, cwd: '/w', createdAt: '2026-03-01T00:00:00.000Z' })
    log.append({ type: 'turn/start', turnId: 't1' })
    await log.sync()
    const inbox = `"${store.schema}".inbox`
    const rows: [string, string, string][] = [
      ['pending-item', id, 'pending'],
      ['claimed-item', id, 'claimed'],
      ['dropped-item', id, 'claimed'],
      ['settled-before', id, 'recorded'],
      ['other-threads-item', 'another-thread', 'pending'],
      ['untouched-item', id, 'pending'],
    ]
    for (const [itemId, threadId, state] of rows)
      await database.sql(`INSERT INTO ${inbox} (id, thread_id, kind, payload, state) VALUES ($1, $2, 'steer', '{"text":"hi"}', $3)`, [
        itemId,
        threadId,
        state,
      ])
    const accepted: SessionEventBody = {
      type: 'steering/accepted',
      turnId: 't1',
      step: 1,
      boundary: 'pre-step',
      transport: 'postgres-inbox',
      itemIds: ['pending-item', 'claimed-item', 'settled-before', 'other-threads-item'],
      droppedIds: ['dropped-item'],
    }
    log.append({
      type: 'message',
      turnId: 't1',
      message: { role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } },
    })
    const event = log.append(accepted)
    await log.sync()
    const settled = await database.sql<{ id: string; state: string; settled_seq: string | null; settled: boolean }>(
      `SELECT id, state, settled_seq, settled_at IS NOT NULL AS settled FROM ${inbox} ORDER BY id`,
    )
    expect(settled).toEqual([
      { id: 'claimed-item', state: 'recorded', settled_seq: String(event.seq), settled: true },
      { id: 'dropped-item', state: 'dropped', settled_seq: String(event.seq), settled: true },
      { id: 'other-threads-item', state: 'pending', settled_seq: null, settled: false },
      { id: 'pending-item', state: 'recorded', settled_seq: String(event.seq), settled: true },
      { id: 'settled-before', state: 'recorded', settled_seq: null, settled: false },
      { id: 'untouched-item', state: 'pending', settled_seq: null, settled: false },
    ])
  })
})
