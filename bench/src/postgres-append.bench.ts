import { statSync } from 'node:fs'
import { join } from 'node:path'
import { JsonlSessionStore, type SessionLock, type SessionLog, type SessionStore } from '@harness-kernel/kernel'
import { postgresStore } from '@harness-kernel/store-postgres'
import { fmt, now, perCall, type Stats, since, summarize } from './measure.js'
import { MESSAGE_EVENT } from './message-event.js'
import { postgresCpuMs } from './postgres-cpu.js'
import { withPostgres } from './postgres-setup.js'
import type { Section } from './report.js'

export interface PostgresAppendOptions {
  /** Per-event latency: calls per variant (each an append, then `await sync()` where the variant syncs). */
  calls: number
  /** Unrecorded rounds first. */
  warmup: number
  /** Batched rate: appends per sample, then one `sync()`. */
  batchEvents: number
  /** Batched rate: samples per variant (after one unrecorded round). */
  samples: number
}

type Variant = 'postgres' | 'jsonl-fsync' | 'jsonl'
const VARIANTS: Variant[] = ['postgres', 'jsonl-fsync', 'jsonl']
const LABELS: Record<Variant, string> = {
  postgres: 'PostgreSQL: `append`, `await sync()` (commit)',
  'jsonl-fsync': 'JSONL: `append`, `await sync()` (fsync)',
  jsonl: 'JSONL: `append` only (no fsync)',
}
const syncs = (variant: Variant) => variant !== 'jsonl'

interface OpenLog {
  log: SessionLog
  lock: SessionLock
}

let logs = 0
async function openLog(store: SessionStore): Promise<OpenLog> {
  const id = `append-${++logs}`
  const lock = await store.lock(id)
  return { log: await store.create(id, lock), lock }
}

async function closeLog({ log, lock }: OpenLog): Promise<void> {
  await log.close()
  await lock.release()
}

/** `events` appends then, where the variant syncs, one `sync()`: ns, on a fresh log. */
async function batchRun(store: SessionStore, variant: Variant, events: number): Promise<number> {
  const opened = await openLog(store)
  const start = now()
  for (let i = 0; i < events; i++) opened.log.append(MESSAGE_EVENT)
  if (syncs(variant)) await opened.log.sync()
  const ns = since(start)
  await closeLog(opened)
  return ns
}

export async function postgresAppendBench(options: PostgresAppendOptions): Promise<Section> {
  const title = '(s) postgres-append: the PostgreSQL store vs the JSONL store, append latency and rate'
  return withPostgres(title, 'hk-bench-postgres-append-', async (server, root) => {
    const postgres = postgresStore(server.url, { schema: 'bench_append', localDir: join(root, 'ledgers') })
    const jsonl = new JsonlSessionStore(join(root, 'jsonl'))
    const storeOf = (variant: Variant): SessionStore => (variant === 'postgres' ? postgres : jsonl)
    try {
      await postgres.connect()
      // Per event: one long-lived log per variant, calls interleaved round by round.
      const open = Object.fromEntries(await Promise.all(VARIANTS.map(async (v) => [v, await openLog(storeOf(v))] as const)))
      const postgresCpuBefore = postgresCpuMs(server.dataDir)
      const latency = await perCall(
        Object.fromEntries(
          VARIANTS.map((v) => [
            v,
            async () => {
              open[v]!.log.append(MESSAGE_EVENT)
              if (syncs(v)) await open[v]!.log.sync()
            },
          ]),
        ),
        { warmup: options.warmup, samples: options.calls, gc: 'never' },
      )
      const postgresCpuAfter = postgresCpuMs(server.dataDir)
      const lineBytes = statSync(open.jsonl!.log.path).size / (options.warmup + options.calls)
      for (const opened of Object.values(open)) await closeLog(opened)

      // Batched: a fresh log per sample, the variants in a rotating order.
      const rates: Record<Variant, number[]> = { postgres: [], 'jsonl-fsync': [], jsonl: [] }
      for (let round = 0; round < options.samples + 1; round++) {
        for (let i = 0; i < VARIANTS.length; i++) {
          const variant = VARIANTS[(i + round) % VARIANTS.length]!
          const ns = await batchRun(storeOf(variant), variant, options.batchEvents)
          if (round > 0) rates[variant].push(options.batchEvents / (ns / 1e9))
        }
      }
      const rate = Object.fromEntries(VARIANTS.map((v) => [v, summarize(rates[v])])) as Record<Variant, Stats>

      const pg = latency.postgres!.wallMs
      const rows = VARIANTS.map((v) => {
        const wall = latency[v]!.wallMs
        return [
          LABELS[v],
          fmt(wall.median * 1000, 1),
          fmt(wall.p99 * 1000, 1),
          fmt(latency[v]!.cpuMs.median * 1000, 1),
          fmt(pg.median / wall.median, 1),
          fmt(pg.p99 / wall.p99, 1),
          fmt(rate[v].median),
          fmt(rate[v].median / rate.postgres.median, 1),
        ]
      })
      const serverCpuPerCall =
        postgresCpuBefore === undefined || postgresCpuAfter === undefined
          ? 'unknown'
          : `${fmt(((postgresCpuAfter - postgresCpuBefore) / (options.warmup + options.calls)) * 1000)} µs`
      return {
        title,
        head: [
          'variant',
          'per event: p50 µs',
          'p99 µs',
          'bench CPU µs (p50)',
          'PG ÷ this, p50',
          'PG ÷ this, p99',
          `${fmt(options.batchEvents)} appends + one sync: events/s`,
          'PG ÷ this, time per event',
        ],
        rows,
        notes: [
          `\`message\` events of ${fmt(lineBytes)} bytes as a JSONL line. Per event: ${fmt(options.calls)} calls per variant after ` +
            `${options.warmup} warmup rounds, one call of each per round in a rotating order, no forced GC ` +
            "(`perCall`, `gc: 'never'`: after a full GC the next PostgreSQL call ran 2–5× slower, its JS cold again); one log " +
            'per variant for all of them. PostgreSQL: the embedded PostgreSQL 18 on loopback, its data in ' +
            `the OS temp dir as the JSONL logs (one disk), default settings (\`synchronous_commit\` on: every commit waits for ` +
            `its WAL flush). The server's own CPU per PostgreSQL append + sync (all its processes, /proc): ${serverCpuPerCall}. ` +
            `Batched: ${fmt(options.batchEvents)} appends on a fresh log then one \`await sync()\` (none for "no fsync"), ` +
            `median of ${options.samples} samples per variant after one unrecorded round, in a rotating order, no forced ` +
            'GC; the PostgreSQL log commits them in batches of up to 1,000 events, one transaction each.',
        ],
        data: { options, lineBytes, latency, rates: rate, postgresCpuMs: { before: postgresCpuBefore, after: postgresCpuAfter } },
      }
    } finally {
      await postgres.close()
    }
  })
}
