import { join } from 'node:path'
import { KernelError, type SessionLock } from '@harness-kernel/kernel'
import { postgresStore } from '@harness-kernel/store-postgres'
import { FixtureProcess } from './fixture-process.js'
import { fmt, summarize } from './measure.js'
import { withPostgres } from './postgres-setup.js'
import type { Section } from './report.js'

export interface PostgresTakeoverOptions {
  /** The lease of the killed holder. */
  leaseMs: number
  /** Kills, each of a fresh holder of a thread of its own. */
  runs: number
  /** How often the taker tries `lock()` again. */
  retryMs: number
}

interface TakeoverRun {
  /** Where in the holder's renewal period (leaseMs / 3) the kill fell, ms. */
  phaseMs: number
  /** From the SIGKILL to the taker's `lock()` resolving, ms. */
  takeoverMs: number
  /** From the SIGKILL to `lease_until` as the last refused `lock()` named it: the wait the lease imposes, ms. */
  leaseLeftMs: number | undefined
  attempts: number
}

const clock = () => performance.timeOrigin + performance.now()
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const LEASE_UNTIL = /its lease runs until (\S+)\)/

export async function postgresTakeoverBench(options: PostgresTakeoverOptions): Promise<Section> {
  const title = '(t) postgres-takeover: a thread taken over after its holder was SIGKILLed'
  return withPostgres(title, 'hk-bench-postgres-takeover-', async (server, root) => {
    const schema = 'bench_takeover'
    const localDir = join(root, 'ledgers')
    const taker = postgresStore(server.url, { schema, localDir })
    const renewalMs = options.leaseMs / 3
    const runs: TakeoverRun[] = []
    let holder: FixtureProcess | undefined
    try {
      await taker.connect()
      for (let run = 0; run < options.runs; run++) {
        const thread = `takeover-${run}`
        const args = [
          '--url',
          server.url,
          '--schema',
          schema,
          '--local-dir',
          localDir,
          '--thread',
          thread,
          '--lease-ms',
          String(options.leaseMs),
        ]
        holder = new FixtureProcess('lease-holder', args)
        const lockedAt = (await holder.waitForEvent('ready', 20_000)).lockedAt as number
        // Past the first renewal, at a point of the second renewal period that moves with each run: how long the lease
        // has left at the kill depends on it (between 2/3 of the lease and all of it).
        await pause(lockedAt + renewalMs * (1 + (run + 0.5) / options.runs) - clock())
        const killedAt = clock()
        holder.child.kill('SIGKILL')
        let leaseUntil: number | undefined
        let lock: SessionLock | undefined
        let attempts = 0
        while (lock === undefined) {
          attempts++
          try {
            lock = await taker.lock(thread)
          } catch (error) {
            if (!(error instanceof KernelError) || !/is open in another process/.test(error.message)) throw error
            const named = LEASE_UNTIL.exec(error.message)?.[1]
            if (named !== undefined) leaseUntil = Date.parse(named)
            await pause(options.retryMs)
          }
        }
        const takeoverMs = clock() - killedAt
        if (lock.tookOver === undefined) throw new Error(`${thread}: the lock did not take over a holder`)
        await lock.release()
        await holder.kill()
        runs.push({
          phaseMs: (killedAt - lockedAt) % renewalMs,
          takeoverMs,
          leaseLeftMs: leaseUntil === undefined ? undefined : leaseUntil - killedAt,
          attempts,
        })
      }
    } finally {
      await holder?.kill()
      await taker.close()
    }
    const takeover = summarize(runs.map((run) => run.takeoverMs))
    const lagging = runs.filter((run) => run.leaseLeftMs !== undefined).map((run) => run.takeoverMs - run.leaseLeftMs!)
    const lag = lagging.length > 0 ? summarize(lagging) : undefined
    return {
      title,
      head: [
        'kill, ms into the renewal period',
        'lease left at the kill, ms',
        'take-over, ms',
        '÷ leaseMs',
        'after the lease ran out, ms',
        'lock() tries',
      ],
      rows: [
        ...runs.map((run) => [
          fmt(run.phaseMs),
          run.leaseLeftMs === undefined ? '?' : fmt(run.leaseLeftMs),
          fmt(run.takeoverMs),
          fmt(run.takeoverMs / options.leaseMs, 2),
          run.leaseLeftMs === undefined ? '?' : fmt(run.takeoverMs - run.leaseLeftMs),
          fmt(run.attempts),
        ]),
        ['**median**', '', fmt(takeover.median), fmt(takeover.median / options.leaseMs, 2), lag === undefined ? '?' : fmt(lag.median), ''],
      ],
      notes: [
        `A child process (\`src/fixtures/lease-holder.ts\`) on \`postgresStore(url, { leaseMs: ${fmt(options.leaseMs)} })\` takes a ` +
          'thread, creates its log and appends (each append synced, every 10 ms); it is SIGKILLed at a point of its second ' +
          `renewal period (renewals every leaseMs / 3 = ${fmt(renewalMs)} ms) that moves across the runs. From the kill, ` +
          `another store in the bench process calls \`lock()\` every ${options.retryMs} ms until it takes the lease ` +
          '(`tookOver` set). "Lease left" is `lease_until` (as the last refused `lock()` named it) minus the kill time: what ' +
          'the lease makes the taker wait, between 2/3 of leaseMs and all of it; "after the lease ran out" is the rest: ' +
          'the retry period and the `lock()` that succeeds.',
      ],
      data: { options, runs },
    }
  })
}
