import { randomUUID } from 'node:crypto'
import { fmt } from './measure.js'
import { BIG_OUTPUT_SOURCES, type BigOutputResult, runBigOutput } from './reliability/big-output.js'
import { fuzzParsers } from './reliability/fuzz-parsers.js'
import { runFuzzedSubprocessSessions } from './reliability/fuzz-subprocess.js'
import { type HangingHooksResult, runHangingHooks } from './reliability/hanging-hooks.js'
import { killResumeViolations, runKillResume } from './reliability/kill-resume.js'
import { runSteeringStress, type SteeringStressResult, steeringViolations } from './reliability/steering-stress.js'
import type { Section } from './report.js'

export interface ReliabilityBenchOptions {
  /** Hanging hooks in all, run `hooksPerRound` at a time (half Codex, half Claude Code). */
  hangingHooks: number
  hooksPerRound: number
  /** Bytes on each of stdout and stderr per big-output run. */
  bigOutputBytes: number
  /** Groups of 1–4 replies through both dialects' parsing, in process. */
  fuzzGroups: number
  /** Sessions with fuzzed replies from real hook processes (10 each). */
  fuzzSessions: number
  /** Sessions of the steering stress, each its own seed (one long session would time the history's growth instead). */
  steeringSessions: number
  steeringTurns: number
  steersPerTurn: number
  killRounds: number
  seed: number
}

const MB = 1024 * 1024
const seconds = (ms: number) => fmt(ms / 1000, 1)

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now()
  const value = await run()
  return { value, ms: performance.now() - start }
}

/**
 * (p) The reliability suite (test/reliability) at full scale: its scenarios are the same code, run bigger. Figures, not
 * times, are the point: orphans, peak RSS, lost and doubled input must all be 0 or within bounds.
 */
export async function reliabilityBench(options: ReliabilityBenchOptions): Promise<Section> {
  const rows: string[][] = []

  const hanging = await timed(async () => {
    const rounds: HangingHooksResult[] = []
    for (let done = 0; done < options.hangingHooks; done += options.hooksPerRound) {
      rounds.push(
        await runHangingHooks({
          hooks: Math.min(options.hooksPerRound, options.hangingHooks - done),
          marker: `hk-bench-hang-${randomUUID()}`,
        }),
      )
    }
    return rounds
  })
  const sum = (pick: (round: HangingHooksResult) => number) => hanging.value.reduce((total, round) => total + pick(round), 0)
  rows.push([
    'hanging hooks (`sleep 1000`, with a background child, ignoring SIGTERM; 1 s timeout)',
    `${fmt(options.hangingHooks)} hooks in ${hanging.value.length} turns`,
    `${fmt(sum((round) => round.timedOut))} timed out; up to ${fmt(Math.max(...hanging.value.map((round) => round.peakAlive)))} marked processes alive at once; **${sum((round) => round.orphans.length)} orphans**`,
    seconds(hanging.ms),
  ])

  const big = await timed(async () => {
    const results: BigOutputResult[] = []
    for (const source of BIG_OUTPUT_SOURCES) {
      results.push(await runBigOutput({ source, bytesPerStream: 1024 }))
      results.push(await runBigOutput({ source, bytesPerStream: options.bigOutputBytes }))
    }
    return results
  })
  for (const source of BIG_OUTPUT_SOURCES) {
    const [small, large] = big.value.filter((result) => result.source === source)
    const capped = large!.modelText.includes('…[truncated: ') || large!.modelText.includes(' truncated: kept last ')
    rows.push([
      `big output: ${source}`,
      `${fmt(options.bigOutputBytes / MB)} MiB on stdout and on stderr`,
      `peak RSS **${fmt(large!.peakRssBytes / MB, 1)} MB** (1 KiB output: ${fmt(small!.peakRssBytes / MB, 1)} MB); model text ${fmt(Buffer.byteLength(large!.modelText))} bytes, ${capped ? 'with' : '**without**'} the marker`,
      '',
    ])
  }
  rows.at(-1)![3] = seconds(big.ms)

  const fuzz = await timed(async () => fuzzParsers({ seed: options.seed, iterations: options.fuzzGroups }))
  rows.push([
    'fuzzed hook outputs, in process (Codex and Claude Code parse + merge)',
    `${fmt(fuzz.value.replies)} replies in ${fmt(fuzz.value.merges)} groups, per dialect`,
    `**${fuzz.value.failures.length} throws or bad shapes**`,
    seconds(fuzz.ms),
  ])
  const fuzzed = await timed(() => runFuzzedSubprocessSessions({ seed: options.seed, sessions: options.fuzzSessions }))
  const badOutcomes = fuzzed.value.filter((session) => !['completed', 'blocked', 'halted'].includes(session.outcome)).length
  const missingWitnesses = fuzzed.value.reduce(
    (total, session) =>
      total +
      Object.values(session.runs).reduce(
        (count, runs) => count + Math.abs(runs.fuzzed - runs.witness.filter((status) => status === 'completed').length),
        0,
      ),
    0,
  )
  const statuses = countBy(fuzzed.value.map((session) => session.outcome))
  rows.push([
    'fuzzed hook outputs, real hook processes (5 events × 2 dialects per session, a witness hook beside each)',
    `${fmt(options.fuzzSessions * 10)} replies in ${fmt(options.fuzzSessions)} sessions`,
    `turns ${describeCounts(statuses)}; **${badOutcomes} failed or threw, ${missingWitnesses} witness runs missing**`,
    seconds(fuzzed.ms),
  ])

  const steering = await timed(async () => {
    const sessions: SteeringStressResult[] = []
    for (let n = 0; n < options.steeringSessions; n++) {
      const seed = options.seed + n
      sessions.push(
        await runSteeringStress({ seed, turns: options.steeringTurns, steersPerTurn: options.steersPerTurn, interruptChance: 0.2 }),
      )
    }
    return sessions
  })
  const steers = steering.value.flatMap((session) => session.steers)
  const interrupts = steering.value.reduce((total, session) => total + session.interrupts, 0)
  const turnStatuses = countBy(
    steering.value.flatMap((session) =>
      Object.entries(session.turnStatuses).flatMap(([status, count]) => Array<string>(count).fill(status)),
    ),
  )
  const steerViolations = Object.fromEntries(
    Object.keys(steeringViolations(steering.value[0]!)).map((name) => [
      name,
      steering.value.reduce(
        (total, session) => total + steeringViolations(session)[name as keyof ReturnType<typeof steeringViolations>].length,
        0,
      ),
    ]),
  ) as Record<keyof ReturnType<typeof steeringViolations>, number>
  rows.push([
    'steering stress, native loop (tool calls, a drop policy, interrupts)',
    `${fmt(steers.length)} steers, ${fmt(interrupts)} interrupts, ${fmt(options.steeringSessions * options.steeringTurns)} turns in ${options.steeringSessions} sessions`,
    `receipts ${describeCounts(countBy(steers.map((steer) => steer.outcome ?? 'unsettled')))}; turns ${describeCounts(turnStatuses)}; **${steerViolations.lost} lost, ${steerViolations.doubled} doubled, ${steerViolations.settledTwice} settled twice, ${steerViolations.unsettled} unsettled, ${steerViolations.wrongOutcome} with another outcome, ${steerViolations.unexpectedInLog} unexpected in the log**`,
    seconds(steering.ms),
  ])

  const kill = await timed(() => runKillResume({ seed: options.seed, rounds: options.killRounds }))
  const killViolations = killResumeViolations(kill.value)
  rows.push([
    'kill + resume (SIGKILL mid-turn, resume in a new process)',
    `${fmt(options.killRounds)} kills, ${fmt(kill.value.sent.length)} steers sent`,
    `${fmt(kill.value.recorded.length)} recorded before a kill, ${fmt(kill.value.loggedTexts.length)} in the log; ${kill.value.takeovers} lock takeovers; final turn ${kill.value.finalTurn}; **${killViolations.lost.length} lost, ${killViolations.doubled.length} doubled**`,
    seconds(kill.ms),
  ])

  return {
    title: '(p) Reliability: the test/reliability scenarios at full scale',
    head: ['scenario', 'scale', 'figures', 's'],
    textColumns: 3,
    rows,
    notes: [
      `Seed ${options.seed} (\`RELIABILITY_SEED=${options.seed}\` replays the draws; timings vary). Bold figures must be 0, peak RSS under 200 MB (the test's bound).`,
    ],
    data: {
      seed: options.seed,
      hangingHooks: hanging.value.map(({ orphans, ...round }) => ({ ...round, orphans: orphans.length })),
      bigOutput: big.value.map(({ modelText, ...result }) => ({ ...result, modelTextBytes: Buffer.byteLength(modelText) })),
      fuzz: { replies: fuzz.value.replies, groups: fuzz.value.merges, kinds: fuzz.value.kinds, failures: fuzz.value.failures.slice(0, 20) },
      fuzzSubprocess: { sessions: options.fuzzSessions, statuses, badOutcomes, missingWitnesses },
      steering: { sessions: options.steeringSessions, steers: steers.length, interrupts, turnStatuses, violations: steerViolations },
      killResume: {
        rounds: kill.value.rounds,
        killPoints: countBy(kill.value.killPoints),
        sent: kill.value.sent.length,
        recorded: kill.value.recorded.length,
        logged: kill.value.loggedTexts.length,
        takeovers: kill.value.takeovers,
        finalTurn: kill.value.finalTurn,
        lost: killViolations.lost.length,
        doubled: killViolations.doubled.length,
      },
      durationsMs: {
        hanging: hanging.ms,
        bigOutput: big.ms,
        fuzz: fuzz.ms,
        fuzzSubprocess: fuzzed.ms,
        steering: steering.ms,
        killResume: kill.ms,
      },
    },
  }
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1
  return counts
}

const describeCounts = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .map(([name, count]) => `${fmt(count)} ${name}`)
    .join(', ')
