/**
 * A bug the chaos test found (seed 1928837369: PostgreSQL restarted while a worker took the thread over from a node
 * killed during a shell command): `kernel.resumeSession` took the lease and opened the log, then reaped what the
 * previous kernel left running; when that step failed (there, the process ledger's `clear()` met the restart's
 * connection reset), `resumeSession` rejected but the session it opened stayed open, its lease renewed for as long as
 * the process lived. The App Server logged `did not take thread … over` and never served the thread, and no other
 * process could take it over: the thread was wedged and its inbox only grew. Fixed: `resumeSession` ends what it
 * opened when a later step fails.
 */
import { mkdtempSync, realpathSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKernel, definePlugin, type ProcessGroupRecord } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { postgresStore } from '@harness-kernel/store-postgres'
import { type PostgresServer, startPostgres } from '@harness-kernel/testing/postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ThreadDb, until } from './support/thread-db.js'

const LEASE_MS = 1500

let postgres: PostgresServer
const closers: (() => Promise<unknown>)[] = []
beforeAll(async () => {
  postgres = await startPostgres()
})
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {})
  await postgres?.stop()
})

function kernelOn(store: ReturnType<typeof postgresStore>) {
  const kernel = createKernel(
    [scriptedModel({ script: [] }), definePlugin({ name: 'store', setup: (api) => api.provide('sessionStore', store) })],
    { cwd: realpathSync(mkdtempSync(join(tmpdir(), 'resume-failure-'))) },
  )
  closers.push(() => kernel.dispose())
  return kernel
}

describe('a take-over whose resume fails after the lease is taken', () => {
  it('lets the thread go, so another process can take it over', async () => {
    const schema = 'resume_failure'
    const store = (ledger: string) => {
      const made = postgresStore(postgres.url, { schema, leaseMs: LEASE_MS, localDir: mkdtempSync(join(tmpdir(), `${ledger}-`)) })
      closers.push(() => made.close())
      return made
    }
    const first = await kernelOn(store('first')).startSession()
    const threadId = first.id
    await first.end('done')

    // The next owner finds a process group the previous kernel left, and clearing the record fails (a connection reset).
    const taker = store('taker')
    const ledgerOf = taker.processLedger.bind(taker)
    const left: ProcessGroupRecord = { pgid: 2 ** 22 - 3, command: 'sleep 1', startedAt: new Date().toISOString(), host: hostname() }
    taker.processLedger = (id: string) => ({
      ...ledgerOf(id),
      path: ledgerOf(id).path,
      unfinished: async () => [left],
      clear: async () => {
        throw new Error('read ECONNRESET')
      },
    })
    await expect(kernelOn(taker).resumeSession(threadId)).rejects.toThrow('ECONNRESET')

    // The lease is released, or runs out unrenewed; then a third process takes the thread.
    const db = new ThreadDb(postgres.url, schema)
    closers.push(() => db.close())
    await until(async () => (await db.holder(threadId))?.live !== true, 'the failed taker’s lease to end', 3 * LEASE_MS)
    const lock = await store('third').lock(threadId)
    await lock.release()
  }, 30_000)
})
