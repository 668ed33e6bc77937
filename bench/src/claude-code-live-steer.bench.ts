import { performance } from 'node:perf_hooks'
import type { SteerReceipt } from '@harness-kernel/kernel'
import { type Gate, gate, newInput, type RecordedRequest, startFakeAnthropic } from '@harness-kernel/testing'
import { driverKernel, withClaude } from './claude-code-driver-setup.js'
import { fmt, gc, type Stats, summarize } from './measure.js'
import type { Section } from './report.js'

const PROMPT = 'Answer at length.'
const STEER = 'Also note the build time.'

/** One steered turn's timestamps, `performance.now()` ms. */
interface LiveSteer {
  /** `session.steer()`, while the answer streams (its reply has begun and waits for the bench). */
  steer: number
  /** The SDK took the steer message (`priority: 'next'`) from the driver's input. */
  submit: number
  /** Claude Code's `command_lifecycle` `queued` receipt for it. */
  queued: number
  /** The bench let the answer go on, once the steer was queued. */
  released: number
  /** The model request that carries the steer: Claude Code's follow-up after the answer. */
  carried: number
}

export interface LiveSteerBenchResult {
  turns: number
  steerToSubmit: Stats
  submitToQueued: Stats
  steerToQueued: Stats
  releasedToCarried: Stats
  samples: LiveSteer[]
}

/**
 * (k′) A steer while Claude Code streams its answer, on the Claude Code driver: how soon Claude Code admits it
 * (`queued`), and how soon the request that carries it goes out once the answer has ended. `turns` turns on one warm
 * session after `warmup` turns. The fake Messages API begins each answer and holds it until the steer is queued, so
 * every steer lands mid-answer.
 */
export async function claudeCodeLiveSteerBench(options: { turns: number; warmup: number }): Promise<Section> {
  const title = '(k′) Claude Code driver: steer → `queued` while the answer streams, and → the request carrying it'
  return withClaude(title, 'hk-bench-claude-code-live-steer-', async (_bin, root) => {
    let answer: Gate = gate()
    const server = await startFakeAnthropic({
      script: (request) =>
        newInput(request).some((text) => text.includes(PROMPT))
          ? { text: ['The answer, ', 'at length, ', 'ends here.'], heldUntil: answer.opened }
          : { text: `noted (request #${request.n})` },
    })
    let current: Partial<LiveSteer> = {}
    let steerUuid: string | undefined
    const kernel = await driverKernel({
      dir: root,
      baseUrl: server.url,
      plugins: [],
      tap: {
        onSubmit(message, at) {
          if ((message as { priority?: string }).priority === 'next' && current.steer !== undefined && current.submit === undefined) {
            current.submit = at
            steerUuid = message.uuid
          }
        },
        onMessage(message, at) {
          if (message.type === 'command_lifecycle' && message.command_uuid === steerUuid && message.state === 'queued') {
            current.queued ??= at
            current.released = performance.now()
            answer.open()
          }
        },
      },
    })
    try {
      const session = await kernel.startSession()
      const turn = async (): Promise<LiveSteer> => {
        current = {}
        steerUuid = undefined
        answer = gate()
        const before = server.requests.length
        gc()
        const running = session.run(PROMPT)
        await (await server.waitForRequest(before)).held
        current.steer = performance.now()
        const receipt: SteerReceipt = session.steer(STEER)
        const result = await running
        if (result.status !== 'completed') throw new Error(`claude-code-live-steer: a turn ended ${result.status}: ${result.error ?? ''}`)
        const outcome = await receipt
        if (outcome.state !== 'recorded') throw new Error(`claude-code-live-steer: the steer was ${outcome.state}`)
        const requests = server.requests.slice(before)
        const carrying = requests.filter((request) => newInput(request).some((text) => text.includes(STEER)))
        if (requests.length !== 2 || carrying.length !== 1 || carrying[0] !== requests[1])
          throw new Error(`claude-code-live-steer: ${requests.length} requests, ${carrying.length} carrying the steer; expected the second`)
        const sample = { ...current, carried: (requests[1] as RecordedRequest).at }
        for (const key of ['steer', 'submit', 'queued', 'released'] as const) {
          if (sample[key] === undefined) throw new Error(`claude-code-live-steer: no ${key} timestamp`)
        }
        return sample as LiveSteer
      }
      for (let i = 0; i < options.warmup; i++) await turn()
      const samples: LiveSteer[] = []
      for (let i = 0; i < options.turns; i++) samples.push(await turn())
      await session.end()
      const of = (from: keyof LiveSteer, to: keyof LiveSteer) => summarize(samples.map((sample) => sample[to] - sample[from]))
      const result: LiveSteerBenchResult = {
        turns: options.turns,
        steerToSubmit: of('steer', 'submit'),
        submitToQueued: of('submit', 'queued'),
        steerToQueued: of('steer', 'queued'),
        releasedToCarried: of('released', 'carried'),
        samples,
      }
      const row = (label: string, stats: Stats) => [label, fmt(stats.median, 2), fmt(stats.p99, 2), fmt(stats.min, 2), fmt(stats.max, 2)]
      return {
        title,
        head: ['interval', 'ms (median)', 'p99', 'min', 'max'],
        rows: [
          row('`session.steer()` → submit (live claim + `agent/pre-step`)', result.steerToSubmit),
          row('submit → `queued` (Claude Code admits the steer)', result.submitToQueued),
          row('**`session.steer()` → `queued`**', result.steerToQueued),
          row(
            'answer released → the request carrying the steer (rest of the answer, its `result`, the follow-up)',
            result.releasedToCarried,
          ),
        ],
        notes: [
          `${options.turns} turns on one session (one Claude Code process, warm: ${options.warmup} turns first), a full GC ` +
            'before each. The fake Messages API begins each answer (`message_start`) and holds its text until the bench lets ' +
            "it go, which it does at Claude Code's `queued` receipt for the steer: every steer is sent while the answer " +
            "streams. Checked every turn: completed, the steer recorded, two requests, the second (Claude Code's follow-up, " +
            'inside the same kernel turn) the only one carrying it. The p99 of ' +
            `${options.turns} samples is their maximum.`,
        ],
        data: result,
      }
    } finally {
      await kernel.dispose()
      await server.close()
    }
  })
}
