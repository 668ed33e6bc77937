import { performance } from 'node:perf_hooks'
import { definePlugin, STAGE_OBSERVE, type SteerReceipt } from '@harness-kernel/kernel'
import { mainRequests, type RecordedRequest, startFakeAnthropic, userTexts } from '@harness-kernel/testing'
import { driverKernel, withClaude } from './claude-code-driver-setup.js'
import { fmt, gc, type Stats, summarize } from './measure.js'
import { claudeBenchScript } from './model-scripts.js'
import type { Section } from './report.js'

const STEER = 'Also note the build time.'

/** One steered turn's timestamps, `performance.now()` ms. */
interface SteeredTurn {
  /** `session.steer()`, called from a `tools/post-execute` tap: the tool has run, its result is about to be parked. */
  steer: number
  /** The `tool/result` event. */
  toolResult: number
  /** The SDK took the steer message (`priority: 'next'`) from the driver's input; it writes it to Claude Code's stdin. */
  submit: number
  /** Claude Code's `command_lifecycle` `queued` receipt for it, as the driver is about to see it. */
  queued: number
  /** Claude Code's `user` message holding the tool result: it has the result the driver released. */
  resultInClaude: number
  /** The next main-loop model request (it carries the tool result and the steer). */
  nextRequest: number
  /** `session.run()` start to end. */
  turnMs: number
  /** From the `tool/result` event to Claude Code's `user` message with the result: the parked result's way out. */
  release: number
  /** From the `tool/result` event to the next model request. */
  toNext: number
}

export interface SteerBenchResult {
  turns: number
  /** Every interval, ms, over the steered turns. */
  submitToQueued: Stats
  steerToSubmit: Stats
  steerToQueued: Stats
  steerToResultInClaude: Stats
  steerToNextRequest: Stats
  steerToToolResultEvent: Stats
  turnWithSteer: Stats
  turnWithoutSteer: Stats
  releaseWithSteer: Stats
  releaseWithoutSteer: Stats
  toNextWithSteer: Stats
  toNextWithoutSteer: Stats
  samples: SteeredTurn[]
}

/**
 * (k) How long a steer waits at a parked kernel tool call on the Claude Code driver before Claude Code admits it
 * (`queued`), and what it adds to the turn. `turns` steered turns and as many without a steer, alternating, on one warm
 * session (one Claude Code process), after `warmup` turns of each.
 */
export async function claudeCodeSteerBench(options: { turns: number; warmup: number }): Promise<Section> {
  const title = '(k) Claude Code driver: steer → `queued` at a parked kernel tool call'
  return withClaude(title, 'hk-bench-claude-code-steer-', async (_bin, root) => {
    const server = await startFakeAnthropic({ script: claudeBenchScript })
    let armed = false
    let current: Partial<SteeredTurn> = {}
    let receipt: SteerReceipt | undefined
    let steerUuid: string | undefined
    const probe = definePlugin({
      name: 'bench-steer',
      setup(kernel) {
        kernel.hooks.toolPostExecute.tap({ name: 'steer', stage: STAGE_OBSERVE }, (decision, { session }) => {
          if (!armed) return decision
          armed = false
          current.steer = performance.now()
          receipt = session.steer(STEER)
          return decision
        })
        kernel.hooks.sessionEvent.tap('bench-steer', ({ event }) => {
          if (event.type === 'tool/result' && current.toolResult === undefined) current.toolResult = performance.now()
        })
      },
    })
    const kernel = await driverKernel({
      dir: root,
      baseUrl: server.url,
      plugins: [probe],
      tap: {
        onSubmit(message, at) {
          if ((message as { priority?: string }).priority === 'next' && current.steer !== undefined && current.submit === undefined) {
            current.submit = at
            steerUuid = message.uuid
          }
        },
        onMessage(message, at) {
          if (message.type === 'command_lifecycle' && message.command_uuid === steerUuid && message.state === 'queued')
            current.queued ??= at
          if (message.type === 'user' && current.toolResult !== undefined && current.resultInClaude === undefined) {
            const content = (message.message as { content?: unknown } | undefined)?.content
            if (Array.isArray(content) && content.some((block: { type?: string }) => block.type === 'tool_result'))
              current.resultInClaude = at
          }
        },
      },
    })
    try {
      const session = await kernel.startSession()
      const turn = async (steered: boolean) => {
        current = {}
        receipt = undefined
        steerUuid = undefined
        armed = steered
        const before = server.requests.length
        gc()
        const start = performance.now()
        const result = await session.run(`Run \`true\` once. [[calls:1]]`)
        const turnMs = performance.now() - start
        if (result.status !== 'completed') throw new Error(`claude-code-steer: a turn ended ${result.status}: ${result.error ?? ''}`)
        const main = mainRequests({ requests: server.requests.slice(before) })
        if (main.length !== 2) throw new Error(`claude-code-steer: ${main.length} main-loop requests in a turn, expected 2`)
        if (current.toolResult === undefined || current.resultInClaude === undefined)
          throw new Error('claude-code-steer: a turn without a timed tool result')
        const release = current.resultInClaude - current.toolResult
        const toNext = (main[1] as RecordedRequest).at - current.toolResult
        if (!steered) return { turnMs, release, toNext }
        const outcome = await (receipt as SteerReceipt | undefined)
        if (outcome?.state !== 'recorded') throw new Error(`claude-code-steer: the steer was ${outcome?.state ?? 'not made'}`)
        const next = main[1] as RecordedRequest
        if (!userTexts(next).some((text) => text.includes(STEER)))
          throw new Error('claude-code-steer: the next request does not carry the steer')
        const sample = { ...current, nextRequest: next.at, turnMs, release, toNext }
        for (const key of ['steer', 'toolResult', 'submit', 'queued', 'resultInClaude'] as const) {
          if (sample[key] === undefined) throw new Error(`claude-code-steer: no ${key} timestamp in a steered turn`)
        }
        return sample as SteeredTurn
      }
      for (let i = 0; i < options.warmup; i++) {
        await turn(true)
        await turn(false)
      }
      const samples: SteeredTurn[] = []
      const plain: { turnMs: number; release: number; toNext: number }[] = []
      for (let i = 0; i < options.turns; i++) {
        for (const steered of i % 2 === 0 ? [true, false] : [false, true]) {
          const sample = await turn(steered)
          if (steered) samples.push(sample as SteeredTurn)
          else plain.push(sample)
        }
      }
      await session.end()
      type Instant = 'steer' | 'toolResult' | 'submit' | 'queued' | 'resultInClaude' | 'nextRequest'
      const of = (from: Instant, to: Instant) => summarize(samples.map((sample) => sample[to] - sample[from]))
      const result: SteerBenchResult = {
        turns: options.turns,
        submitToQueued: of('submit', 'queued'),
        steerToSubmit: of('steer', 'submit'),
        steerToQueued: of('steer', 'queued'),
        steerToResultInClaude: of('steer', 'resultInClaude'),
        steerToNextRequest: of('steer', 'nextRequest'),
        steerToToolResultEvent: of('steer', 'toolResult'),
        turnWithSteer: summarize(samples.map((sample) => sample.turnMs)),
        turnWithoutSteer: summarize(plain.map((sample) => sample.turnMs)),
        releaseWithSteer: summarize(samples.map((sample) => sample.release)),
        releaseWithoutSteer: summarize(plain.map((sample) => sample.release)),
        toNextWithSteer: summarize(samples.map((sample) => sample.toNext)),
        toNextWithoutSteer: summarize(plain.map((sample) => sample.toNext)),
        samples,
      }
      const row = (label: string, stats: Stats) => [label, fmt(stats.median, 2), fmt(stats.p99, 2), fmt(stats.min, 2), fmt(stats.max, 2)]
      return {
        title,
        head: ['interval', 'ms (median)', 'p99', 'min', 'max'],
        rows: [
          row('submit → `queued` (Claude Code admits the steer)', result.submitToQueued),
          row('`session.steer()` → submit (claim + `agent/pre-step`)', result.steerToSubmit),
          row('**`session.steer()` → `queued`**', result.steerToQueued),
          row('`session.steer()` → Claude Code has the tool result (upper bound)', result.steerToResultInClaude),
          row('`session.steer()` → next model request (upper bound)', result.steerToNextRequest),
          row('`session.steer()` → `tool/result` event (not a bound: logged before the claim)', result.steerToToolResultEvent),
          row('`tool/result` event → Claude Code has the result, with a steer', result.releaseWithSteer),
          row('`tool/result` event → Claude Code has the result, without', result.releaseWithoutSteer),
          row('`tool/result` event → next model request, with a steer', result.toNextWithSteer),
          row('`tool/result` event → next model request, without', result.toNextWithoutSteer),
          row('turn with a steer', result.turnWithSteer),
          row('turn without a steer', result.turnWithoutSteer),
        ],
        notes: [
          `${options.turns} turns with a steer and ${options.turns} without, alternating, on one session (one Claude Code ` +
            `process, warm: ${options.warmup} turns of each first), a full GC before each. Each turn: the fake Messages API ` +
            'asks for one `mcp__host__shell` call of `true`, then answers with text. In a steered turn a `tools/post-execute` tap ' +
            'calls `session.steer()` once the tool has run, so the whole wait is the boundary: the driver claims it, runs ' +
            "`agent/pre-step`, submits it as a `next` message and releases the parked result only after Claude Code's " +
            "`queued` receipt. Timestamps are taken in process through the driver's `query` option (the real SDK `query`, its " +
            'input and output observed), the fake server and session-event taps; no driver code changed. Checked every turn: ' +
            'completed, 2 main-loop requests, the steer recorded and in the second request.',
          `Turn with − without a steer: ${fmt(result.turnWithSteer.median - result.turnWithoutSteer.median, 2)} ms ` +
            `(${fmt(result.turnWithSteer.median / result.turnWithoutSteer.median, 2)}×). The p99 of ${options.turns} samples is ` +
            'their maximum.',
        ],
        data: result,
      }
    } finally {
      await kernel.dispose()
      await server.close()
    }
  })
}
