import { join } from 'node:path'
import { postgresStore } from '@harness-kernel/store-postgres'
import { FixtureProcess } from './fixture-process.js'
import { fmt, type Stats, summarize } from './measure.js'
import { withPostgres } from './postgres-setup.js'
import type { Section } from './report.js'

export interface FleetSteerOptions {
  /** Steers accepted, one after the other, each once the previous was claimed. */
  steers: number
  /** Unrecorded steers first. */
  warmup: number
  /** The claimer's `watchInbox` poll: what a row waits for when its notification is lost. */
  pollMs: number
}

/** One steer's times (performance.timeOrigin + performance.now() in each process, ms). */
interface SteerTimes {
  sent: number
  committed: number
  woken: number
  claimed: number
}

const clock = () => performance.timeOrigin + performance.now()

export async function fleetSteerBench(options: FleetSteerOptions): Promise<Section> {
  const title = '(u) fleet-steer: an accepted steer → claimed by the thread’s holder in another process'
  return withPostgres(title, 'hk-bench-fleet-steer-', async (server, root) => {
    const schema = 'bench_steer'
    const localDir = join(root, 'ledgers')
    const thread = 'steered'
    const store = postgresStore(server.url, { schema, localDir })
    let claimer: FixtureProcess | undefined
    const times: SteerTimes[] = []
    try {
      await store.connect()
      const args = [
        '--url',
        server.url,
        '--schema',
        schema,
        '--local-dir',
        localDir,
        '--thread',
        thread,
        '--poll-ms',
        String(options.pollMs),
      ]
      claimer = new FixtureProcess('inbox-claimer', args)
      await claimer.waitForEvent('ready', 20_000)
      const fleet = store.fleet()
      for (let i = 0; i < options.warmup + options.steers; i++) {
        const id = `steer-${i}`
        const payload = { input: [{ type: 'text', text: `steer ${i}` }], expectedTurnId: 'turn-1', clientUserMessageId: null }
        const sent = clock()
        await fleet.accept({ id, threadId: thread, kind: 'steer', payload, acceptedBy: fleet.instance })
        const committed = clock()
        const line = await claimer.waitFor((each) => each.event === 'claimed' && each.id === id, 10_000, `the claim of ${id}`)
        if (i >= options.warmup) times.push({ sent, committed, woken: line.wokenAt as number, claimed: line.claimedAt as number })
      }
    } finally {
      await claimer?.kill()
      await store.close()
    }
    const stat = (of: (steer: SteerTimes) => number) => summarize(times.map(of))
    const rows: [string, Stats][] = [
      ['`accept` committed → claimed', stat((t) => t.claimed - t.committed)],
      ['`accept` called → claimed', stat((t) => t.claimed - t.sent)],
      ['… `accept` called → committed (its round trip)', stat((t) => t.committed - t.sent)],
      ['… `accept` called → the holder woken (NOTIFY)', stat((t) => t.woken - t.sent)],
      ['… woken → claimed (`claim`)', stat((t) => t.claimed - t.woken)],
    ]
    return {
      title,
      head: ['interval', 'p50 ms', 'p99 ms', 'p50 ÷ pollMs'],
      rows: [
        ...rows.map(([name, stats]) => [
          name,
          fmt(stats.median, 2),
          fmt(stats.p99, 2),
          name.startsWith('…') ? '' : fmt(stats.median / options.pollMs, 4),
        ]),
        [
          `poll-only fallback (a lost NOTIFY): the next poll, pollMs = ${fmt(options.pollMs)}`,
          `≈ ${fmt(options.pollMs / 2)}`,
          `≈ ${fmt(options.pollMs)}`,
          '≈ 0.5',
        ],
      ],
      notes: [
        `A child process (\`src/fixtures/inbox-claimer.ts\`) holds the thread's lease and serves its inbox as an App Server ` +
          `would: \`store.fleet({ pollMs: ${options.pollMs} }).watchInbox\`, and \`claim(thread)\` on each wake. The bench ` +
          `process \`accept\`s ${fmt(options.steers)} steers (after ${options.warmup} unrecorded) one after the other on a fleet of ` +
          'its own store, each once the previous was claimed; the child prints when it was woken and when `claim` returned the ' +
          'row (`performance.timeOrigin + performance.now()` in both processes, one machine clock). The poll-only row is not ' +
          'measured (the LISTEN cannot be turned off): a row whose notification is lost waits for the next poll, up to ' +
          'pollMs, then the same `claim`.',
      ],
      data: { options, times },
    }
  })
}
