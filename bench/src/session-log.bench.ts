import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JsonlSessionStore, type Message } from '@harness-kernel/kernel'
import { fmt, gc, now, type Stats, since, summarize } from './measure.js'
import type { Section } from './report.js'

interface Case {
  payload: 'small' | '1 KB'
  sync: boolean
  events: number
}

export interface LogRow extends Case {
  /** Bytes per JSONL line, as written. */
  lineBytes: number
  eventsPerSec: Stats
  mbPerSec: Stats
}

const message = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }], source: { kind: 'model' } })
const PAYLOADS = { small: message('ok'), '1 KB': message('x'.repeat(1000)) }

/** Appends `events` message events to a fresh log; returns [ns, bytes written]. */
async function appendRun(store: JsonlSessionStore, id: string, { payload, sync, events }: Case): Promise<[number, number]> {
  const lock = await store.lock(id)
  const log = await store.create(id, lock)
  const body = { type: 'message' as const, turnId: 'turn-1', message: PAYLOADS[payload] }
  gc()
  const start = now()
  for (let i = 0; i < events; i++) {
    log.append(body)
    if (sync) await log.sync()
  }
  const elapsed = since(start)
  await log.close()
  await lock.release()
  return [elapsed, statSync(log.path).size]
}

export async function sessionLogBench(options: { events: number; syncedEvents: number; samples: number }): Promise<Section> {
  const dir = mkdtempSync(join(tmpdir(), 'hk-bench-log-'))
  const store = new JsonlSessionStore(dir)
  const cases: Case[] = [
    { payload: 'small', sync: false, events: options.events },
    { payload: '1 KB', sync: false, events: options.events },
    { payload: 'small', sync: true, events: options.syncedEvents },
    { payload: '1 KB', sync: true, events: options.syncedEvents },
  ]
  const rows: LogRow[] = []
  try {
    let run = 0
    await appendRun(store, `warmup-${run++}`, { payload: 'small', sync: false, events: options.events }) // warmup
    for (const item of cases) {
      const rates: number[] = []
      const throughput: number[] = []
      let lineBytes = 0
      for (let sample = 0; sample < options.samples; sample++) {
        const [ns, bytes] = await appendRun(store, `log-${run++}`, item)
        rates.push(item.events / (ns / 1e9))
        throughput.push(bytes / 2 ** 20 / (ns / 1e9))
        lineBytes = bytes / item.events
      }
      rows.push({ ...item, lineBytes, eventsPerSec: summarize(rates), mbPerSec: summarize(throughput) })
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const unsynced = (payload: Case['payload']) => rows.find((row) => row.payload === payload && !row.sync)!
  return {
    title: '(c) Session log: `JsonlSessionStore` append rate (`message` events)',
    head: ['payload', 'line bytes', 'fsync each append', 'events', 'events/s (median)', 'MB/s (median)', 'vs no fsync'],
    rows: rows.map((row) => [
      row.payload,
      fmt(row.lineBytes),
      row.sync ? 'yes' : 'no',
      fmt(row.events),
      fmt(row.eventsPerSec.median),
      fmt(row.mbPerSec.median, 2),
      row.sync ? `1/${fmt(unsynced(row.payload).eventsPerSec.median / row.eventsPerSec.median)}` : '1',
    ]),
    notes: [
      `Median of ${options.samples} samples per case, each on a fresh log in the OS temp dir (${tmpdir()}); ` +
        'an append is `JSON.stringify` + one `writeSync`; "fsync each append" adds `await log.sync()` (fsync) after every append.',
    ],
    data: { options, dir: tmpdir(), rows },
  }
}
