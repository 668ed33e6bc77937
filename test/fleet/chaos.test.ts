/**
 * The fleet under faults, with real processes: five App Server processes (two front-ends the client talks to, three
 * workers nobody talks to) share one thread through a real PostgreSQL (leases of 1.5 s). The client starts the
 * thread on front-end 1, then sends 100 inputs through randomly chosen front-ends, `turn/steer` into the turn it sees
 * open or `turn/start`, each with a `clientUserMessageId`, retrying the same id through any front-end after any
 * failure. Meanwhile: three `kill -9`s of the thread's owner (each replaced by a new node of its role, so five stay
 * up), one SIGSTOP of the owner while it runs a shell command, held past its lease until another node has taken the
 * thread over, then SIGCONT (the command stays stopped: only a kill ends it), and one immediate restart of PostgreSQL.
 *
 * Oracles: every input in the final log exactly once (inputs handed back are sent again under a new id and count as
 * the same input), `seq` 1..N without gaps, the events' epoch never decreasing along `seq`, the zombie refused (it
 * reports its session lost, nothing of its epoch after the next epoch's first event) and its command gone, no inbox
 * row left open, and three followers on store instances of their own ending with the log `load` gives.
 *
 * `CHAOS_SEED=<n>` replays the draws (input gaps, fault kinds and points, the client's choices); timings vary.
 *
 * Observed on a 2-core machine, 45 runs (a green run: 22–45 s; 100–150 requests; 4 leases taken after the first, 5
 * when the owner lost its lease during the restart; 0 inputs handed back; 230–280 events):
 * - kill -9 to another node holding the lease: 1.1–2.1 s (what the 1.5 s lease had left, then a sweep).
 * - SIGSTOP to take-over: 1.2–2.1 s; up to 9 s when the client's request was on the frozen front-end (a take-over
 *   waits for input, which comes once the client gives up on that front-end: 8 s without an answer).
 * - PostgreSQL's immediate restart: 0.3–1.1 s. Retries after failures: 1–6 a run (the request in flight on a killed or
 *   frozen front-end; `cannot reach PostgreSQL` or `thread not found` answers during the restart); after a stale view
 *   of the turn: 0–51.
 * - Before two fixes, 5 of 29 runs failed: an owner frozen inside its write transaction could not be taken over (3),
 *   a take-over whose resume failed during the restart wedged the thread (1), one early run unrecorded. Both are in
 *   README.md, each with a test of its own. Since the fixes: 16 of 16 green, the failing seeds included.
 */
import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as pause } from 'node:timers/promises'
import { isDeepStrictEqual } from 'node:util'
import { AppServerClient } from '@harness-kernel/app-server'
import { postgresStore } from '@harness-kernel/store-postgres'
import { type PostgresServer, startPostgres } from '@harness-kernel/testing/postgres'
import { afterAll, describe, expect, it } from 'vitest'
import { prng } from '../../bench/src/reliability/prng.js'
import { ChaosClient, type ClientStats } from './support/chaos-client.js'
import { drawFaultPlan, FaultRunner } from './support/fault-plan.js'
import { type FaultReport, stoppedTools } from './support/faults.js'
import { Fleet } from './support/fleet-nodes.js'
import { describeEvents, epochRegressions, inputViolations, seqGaps, zombieWrites } from './support/log-oracles.js'
import { LogWatcher } from './support/log-watcher.js'
import { ThreadDb, until } from './support/thread-db.js'

const INPUTS = 100
const LEASE_MS = 1500
/** Faults fire at one drawn input in each span of 12 from input 8; the client waits for one 10 inputs past its point. */
const FAULTS_FROM = 8
const FAULT_SPAN = 12
const FAULT_SLACK = 10

let postgres: PostgresServer | undefined
let fleet: Fleet | undefined
let db: ThreadDb | undefined
let client: ChaosClient | undefined
const watchers: LogWatcher[] = []
const closers: (() => Promise<unknown>)[] = []
/** What a failed run prints besides the nodes' last words: the client's last attempts, the faults, the thread. */
let report: (() => Promise<string>) | undefined

afterAll(async () => {
  await fleet?.killAll()
  for (const pid of stoppedTools) signal(pid, 'SIGKILL')
  if (client) closers.push(() => client!.close())
  for (const watcher of watchers) closers.push(() => watcher.close())
  if (db) closers.push(() => db!.close())
  for (const close of closers) await close().catch(() => {})
  await postgres?.stop()
}, 60_000)

describe('a fleet of App Server processes under faults', () => {
  it('records every input exactly once through owner kills, a stalled owner and a PostgreSQL restart', async () => {
    try {
      await run()
    } catch (error) {
      const state = await report?.().catch((failure: unknown) => `(no report: ${String(failure)})`)
      console.log(`chaos run failed: ${error instanceof Error ? error.message : String(error)}\n${state ?? ''}\n${nodeTails()}`)
      throw error
    }
  }, 240_000)
})

async function run(): Promise<void> {
  const startedAt = performance.now()
  const seed = process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : Math.floor(Math.random() * 2 ** 31)
  console.log(`chaos seed ${seed} (CHAOS_SEED=${seed} replays the draws; timings vary)`)
  const rng = prng(seed)
  const plan = drawFaultPlan(rng, FAULTS_FROM, FAULT_SPAN)
  const gaps = Array.from({ length: INPUTS + 1 }, () => rng.int(300))

  postgres = await startPostgres()
  const schema = `chaos_${seed}`
  db = new ThreadDb(postgres.url, schema)
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'fleet-chaos-')))
  fleet = new Fleet({ databaseUrl: postgres.url, schema, cwd, ledgerDir: join(cwd, 'ledger'), leaseMs: LEASE_MS })
  const first = await fleet.start('front-end')
  await Promise.all([fleet.start('front-end'), fleet.start('worker'), fleet.start('worker'), fleet.start('worker')])

  const starter = await AppServerClient.connect(first.url)
  closers.push(() => starter.close())
  await starter.initialize({ name: 'chaos-starter' })
  const { thread } = await starter.startThread()
  const threadId = thread.id
  for (let index = 0; index < 3; index++) watchers.push(new LogWatcher(postgres.url, schema, threadId))
  await starter.startTurn(threadId, 'begin')
  await starter.close()

  const view = watchers[0]!
  client = new ChaosClient({
    threadId,
    rng: prng(seed + 1),
    frontEnds: () => fleet!.live('front-end').map((node) => node.url),
    openTurn: () => view.openTurnId,
    rowState: async (rowId) => (await db!.rowStates([rowId])).get(rowId),
    // A frozen front-end neither refuses nor answers: the client gives up on it as a real one would.
    connectTimeoutMs: 3_000,
    requestTimeoutMs: 8_000,
    inputDeadlineMs: 90_000,
  })
  const faults = new FaultRunner(plan, { fleet, db, postgres, threadId }, FAULT_SLACK)
  report = async () => {
    const epochs = new Map((await db!.epochs(threadId)).map((row) => [row.seq, row.epoch]))
    return [
      `plan: ${JSON.stringify(plan)}`,
      `faults: ${JSON.stringify(faults.reports)}`,
      `holder: ${JSON.stringify(await db!.holder(threadId))}, open rows: ${await db!.openRows(threadId)}, last seq: ${await db!.lastSeq(threadId)}`,
      `watcher: last seq ${view.lastSeq}, open turn ${view.openTurnId}`,
      `client: ${JSON.stringify({ ...client!.stats, failureReasons: [...client!.stats.failureReasons], recent: undefined })}`,
      `last attempts:\n${client!.stats.recent.join('\n')}`,
      `nodes: ${fleet!.nodes.map((node) => `${node.name} pid ${node.pid} ${node.url} ${node.alive ? 'alive' : 'gone'}`).join('; ')}`,
      `last events:\n${describeEvents(view.events.slice(-40), epochs)}`,
    ].join('\n')
  }

  // The ids each input was sent under, the last one being the one that counts (the others were handed back).
  const ids = new Map<number, string[]>()
  const sendInput = async (n: number) => {
    const sent = ids.get(n) ?? []
    ids.set(n, sent)
    for (;;) {
      const id = sent.length === 0 ? `item-${n}` : `item-${n}-again-${sent.length}`
      sent.push(id)
      if ((await client!.send(`item-${n}`, id)) === 'accepted') return
    }
  }
  const inputs = async () => {
    for (let n = 1; n <= INPUTS; n++) {
      await faults.before(n)
      await pause(gaps[n]!)
      await sendInput(n)
    }
  }
  const sending = inputs()
  sending.catch(() => {})
  await Promise.race([sending, faults.failure])
  await faults.finished()

  // Settled: every input's row recorded (one handed back is sent again), nothing open, the turn over.
  const rowOf = (clientId: string) => `steer:${threadId}:${clientId}`
  let resent = 0
  await until(
    async () => {
      const states = await db!.rowStates([...ids.values()].map((sent) => rowOf(sent.at(-1)!)))
      for (const [n, sent] of ids) {
        if (states.get(rowOf(sent.at(-1)!)) !== 'dropped') continue
        resent++
        await sendInput(n)
      }
      const recorded = [...ids.values()].every((sent) => states.get(rowOf(sent.at(-1)!)) === 'recorded')
      const caughtUp = view.lastSeq === (await db!.lastSeq(threadId))
      return recorded && (await db!.openRows(threadId)) === 0 && caughtUp && view.openTurnId === undefined
    },
    'every input to be recorded and the thread to be idle',
    90_000,
  )

  const reader = postgresStore(postgres.url, { schema })
  closers.push(() => reader.close())
  const { events } = await reader.load(threadId)
  await until(() => watchers.every((watcher) => watcher.lastSeq >= events.length), 'the watchers to catch up', 30_000)
  const epochs = await db.epochs(threadId)
  const stall = faults.reports.find((fault): fault is Extract<FaultReport, { kind: 'SIGSTOP' }> => fault.kind === 'SIGSTOP')!

  const violations = {
    inputs: inputViolations(
      events,
      [...ids.keys()].map((n) => `item-${n}`),
    ),
    seqGaps: seqGaps(events),
    epochRegressions: epochRegressions(epochs),
    zombieWrites: zombieWrites(epochs, stall.epochs.zombie, stall.epochs.next),
    zombieRefusal: /taken over|lease|another process/.test(stall.refusal),
    watchersEqualToLoad: watchers.map((watcher) => watcher.failure === undefined && isDeepStrictEqual(watcher.events, events)),
  }
  const expected = {
    inputs: { lost: [], doubled: [] },
    seqGaps: [],
    epochRegressions: [],
    zombieWrites: [],
    zombieRefusal: true,
    watchersEqualToLoad: [true, true, true],
  }

  const takeOvers = (await db.epoch(threadId)) - 1
  console.log(summary(seed, { resent, takeOvers, events: events.length }, faults.reports, client.stats, performance.now() - startedAt))
  if (!isDeepStrictEqual(violations, expected))
    console.log(`chaos seed ${seed} FAILED; the log:\n${describeEvents(events, new Map(epochs.map((row) => [row.seq, row.epoch])))}`)
  expect(violations, `seed ${seed}`).toEqual(expected)
}

/** The run in one line (inputs, retries, take-overs, failover times), then the faults and the failures in detail. */
function summary(
  seed: number,
  { resent, takeOvers, events }: { resent: number; takeOvers: number; events: number },
  reports: FaultReport[],
  stats: ClientStats,
  ms: number,
): string {
  const failovers = reports.flatMap((fault) => (fault.kind === 'postgres restart' ? [] : [`${fault.kind} ${fault.failoverMs}`]))
  const restart = reports.flatMap((fault) => (fault.kind === 'postgres restart' ? [fault.restartMs] : []))
  return [
    `chaos seed ${seed}: ${INPUTS} inputs (${resent} handed back and sent again), ${stats.requests} requests ` +
      `(${stats.steers} steers, ${stats.starts} starts), retries: ${stats.failures} after failures + ${stats.staleTurn} after a stale turn, ` +
      `${takeOvers} take-overs (leases taken after the first), failover ms: ${failovers.join(', ')}, postgres restart ${restart.join(', ')} ms, ` +
      `${events} events, ${Math.round(ms / 1000)} s`,
    `chaos faults: ${JSON.stringify(reports)}`,
    `chaos failures: ${JSON.stringify([...stats.failureReasons])}`,
  ].join('\n')
}

/** Each node's last words, for a failed run. */
function nodeTails(): string {
  return (fleet?.nodes ?? [])
    .map((node) => `--- ${node.name} (pid ${node.pid}, ${node.alive ? 'alive' : 'gone'}):\n${node.stderr.slice(-3_000)}`)
    .join('\n')
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name)
  } catch {}
}
