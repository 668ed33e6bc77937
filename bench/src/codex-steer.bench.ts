import { performance } from 'node:perf_hooks'
import { definePlugin, defineTool, type Session, type SteerReceipt, textOf } from '@harness-kernel/kernel'
import { type InputItem, itemText, type RecordedRequest, startFakeOpenAI } from '@harness-kernel/testing'
import { z } from 'zod'
import { codexDriverKernel, withCodex } from './codex-driver-setup.js'
import { fmt, gc, type Stats, summarize } from './measure.js'
import { callsDirective, codexBenchScript, streamDirective, streamedText } from './model-scripts.js'
import type { Section } from './report.js'

const STEER = 'Also note the build time.'
/** How long a steered `park` call waits at most for the kernel to claim the steer before the bench gives up. */
const CLAIM_TIMEOUT_MS = 5_000

/** One steered turn's timestamps, `performance.now()` ms. */
interface SteeredTurn {
  /** `session.steer()`. */
  steer: number
  /** `agent/pre-step` over the steer: the driver claimed it (and sends `turn/steer` next). */
  claimed: number
  /** The steer's `message` event: the driver wrote it to the kernel log, at Codex's `userMessage` `item/completed`. */
  logged: number
  /** The steer's receipt resolved `recorded`. */
  recorded: number
  /** The next model request (it carries the steer). */
  nextRequest: number
  /** At a parked tool: the `tool/result` event (the tool returned once the steer was claimed). */
  toolResult?: number
  /** During a stream: Codex closed the streaming response (it discards it for the steer). */
  aborted?: number
  turnMs: number
}

interface PlainTurn {
  /** The `tool/result` event → the next model request. */
  toNext: number
  turnMs: number
}

export interface CodexSteerResult {
  turns: number
  tool: Record<string, Stats>
  stream: Record<string, Stats>
  plain: Record<string, Stats>
  samples: { tool: SteeredTurn[]; stream: SteeredTurn[]; plain: PlainTurn[] }
}

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`codex-steer: ${what} did not happen within ${ms} ms`)), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })

/**
 * Steer → `recorded` on the Codex driver. One kernel, one session (one `codex app-server`, one thread), against the fake
 * Responses API. Three kinds of turn, interleaved: (a) the model calls a kernel tool `park`, whose handler calls
 * `session.steer()` and waits until the kernel has claimed the steer; (b) the model streams its final answer in deltas,
 * and a `model/delta` tap steers at the first; (c) for reference, the same `park` turn without a steer.
 */
export async function codexSteerBench(options: { turns: number; warmup: number; deltas: number; deltaMs: number }): Promise<Section> {
  const title = '(n) Codex driver: steer → `recorded`, at a parked kernel tool call and during a streamed answer'
  return withCodex(title, 'hk-bench-codex-steer-', async (_bin, root) => {
    const server = await startFakeOpenAI({ script: codexBenchScript })
    let mode: 'tool' | 'stream' | 'plain' = 'plain'
    let current: Partial<SteeredTurn> = {}
    let receipt: SteerReceipt | undefined
    let claimed: (() => void) | undefined
    // Each steer's text is its own (a session's history holds the earlier ones).
    let steers = 0
    let text = STEER
    const isSteer = (candidate: string) => candidate.includes(text)
    const steer = (session: Session) => {
      text = `${STEER} (#${++steers})`
      current.steer = performance.now()
      receipt = session.steer(text)
      receipt.then(
        () => {
          current.recorded ??= performance.now()
        },
        () => {},
      )
    }
    const probe = definePlugin({
      name: 'bench-steer',
      setup(kernel) {
        kernel.registerTool(
          defineTool({
            name: 'park',
            description: 'Waits.',
            inputSchema: z.object({ command: z.string() }),
            async execute(_input, { session }) {
              if (mode !== 'tool') return { output: 'done', isError: false }
              const claim = new Promise<void>((resolve) => {
                claimed = resolve
              })
              steer(session)
              await withTimeout(claim, CLAIM_TIMEOUT_MS, 'the claim of a steer at a parked tool')
              return { output: 'done', isError: false }
            },
          }),
        )
        kernel.hooks.preStep.tap('bench-steer', (decision, { input }) => {
          if (current.steer !== undefined && current.claimed === undefined && input.some((message) => isSteer(textOf(message)))) {
            current.claimed = performance.now()
            claimed?.()
          }
          return decision
        })
        kernel.hooks.modelDelta.tap('bench-steer', ({ session }) => {
          if (mode === 'stream' && current.steer === undefined) steer(session)
        })
        kernel.hooks.sessionEvent.tap('bench-steer', ({ event }) => {
          const at = performance.now()
          if (event.type === 'tool/result') current.toolResult ??= at
          if (event.type === 'message' && event.message.source.kind === 'steering' && isSteer(textOf(event.message))) current.logged ??= at
        })
      },
    })
    const { kernel } = await codexDriverKernel({ dir: root, baseUrl: server.baseURL, plugins: [probe] })
    try {
      const session = await kernel.startSession()
      const turn = async (kind: typeof mode): Promise<SteeredTurn | PlainTurn> => {
        mode = kind
        current = {}
        receipt = undefined
        claimed = undefined
        const from = server.requests.length
        const prompt =
          kind === 'stream'
            ? `Answer at length. ${streamDirective(options.deltas, options.deltaMs)}`
            : `Wait once. ${callsDirective(1, 'park', { command: 'wait' })}`
        gc()
        const start = performance.now()
        const result = await session.run(prompt)
        const turnMs = performance.now() - start
        if (result.status !== 'completed') throw new Error(`codex-steer: a ${kind} turn ended ${result.status}: ${result.error ?? ''}`)
        const requests = server.requests.slice(from)
        if (kind === 'plain') {
          if (requests.length !== 2 || current.toolResult === undefined)
            throw new Error(`codex-steer: a plain turn made ${requests.length} requests, expected 2 (with a tool result)`)
          return { toNext: requests[1]!.at - current.toolResult, turnMs }
        }
        const outcome = await (receipt as SteerReceipt | undefined)
        if (outcome?.state !== 'recorded') throw new Error(`codex-steer: a steer in a ${kind} turn was ${outcome?.state ?? 'not made'}`)
        const carrying = (request: RecordedRequest) =>
          (request.body.input as InputItem[]).some(
            (item) => item.role === 'user' && item.type !== 'function_call_output' && isSteer(itemText(item)),
          )
        const next = requests.find(carrying)
        if (!next) throw new Error(`codex-steer: no request after a ${kind} turn's steer carries it`)
        if (kind === 'stream') {
          const streamed = requests.find(streamedText)
          if (streamed?.abortedAt !== undefined) current.aborted = streamed.abortedAt
        }
        const sample = { ...current, nextRequest: next.at, turnMs }
        for (const key of ['steer', 'claimed', 'logged', 'recorded', ...(kind === 'tool' ? ['toolResult'] : [])] as const) {
          if (sample[key as keyof SteeredTurn] === undefined) throw new Error(`codex-steer: no ${key} timestamp in a steered ${kind} turn`)
        }
        return sample as SteeredTurn
      }
      const kinds = ['tool', 'stream', 'plain'] as const
      for (let i = 0; i < options.warmup; i++) for (const kind of kinds) await turn(kind)
      const samples: CodexSteerResult['samples'] = { tool: [], stream: [], plain: [] }
      for (let i = 0; i < options.turns; i++) {
        for (let j = 0; j < kinds.length; j++) {
          const kind = kinds[(i + j) % kinds.length]!
          const sample = await turn(kind)
          if (kind === 'plain') samples.plain.push(sample as PlainTurn)
          else samples[kind].push(sample as SteeredTurn)
        }
      }
      await session.end()
      type Instant = 'steer' | 'claimed' | 'logged' | 'recorded' | 'nextRequest' | 'toolResult' | 'aborted'
      const of = (list: SteeredTurn[], from: Instant, to: Instant) => {
        const values = list.filter((s) => s[from] !== undefined && s[to] !== undefined).map((s) => s[to]! - s[from]!)
        return values.length > 0 ? summarize(values) : undefined
      }
      const pick = (list: SteeredTurn[], pairs: Record<string, [Instant, Instant]>) =>
        Object.fromEntries(
          Object.entries(pairs).flatMap(([name, [from, to]]) => {
            const stats = of(list, from, to)
            return stats ? [[name, stats]] : []
          }),
        ) as Record<string, Stats>
      const result: CodexSteerResult = {
        turns: options.turns,
        tool: {
          ...pick(samples.tool, {
            steerToClaimed: ['steer', 'claimed'],
            steerToToolResult: ['steer', 'toolResult'],
            steerToLogged: ['steer', 'logged'],
            steerToRecorded: ['steer', 'recorded'],
            toolResultToRecorded: ['toolResult', 'recorded'],
            recordedToNext: ['recorded', 'nextRequest'],
            toolResultToNext: ['toolResult', 'nextRequest'],
          }),
          turn: summarize(samples.tool.map((s) => s.turnMs)),
        },
        stream: {
          ...pick(samples.stream, {
            steerToClaimed: ['steer', 'claimed'],
            steerToAborted: ['steer', 'aborted'],
            steerToLogged: ['steer', 'logged'],
            steerToRecorded: ['steer', 'recorded'],
            recordedToNext: ['recorded', 'nextRequest'],
          }),
          turn: summarize(samples.stream.map((s) => s.turnMs)),
        },
        plain: {
          toolResultToNext: summarize(samples.plain.map((s) => s.toNext)),
          turn: summarize(samples.plain.map((s) => s.turnMs)),
        },
        samples,
      }
      const aborted = samples.stream.filter((s) => s.aborted !== undefined).length
      const row = (where: string, label: string, stats: Stats | undefined) =>
        stats
          ? [where, label, fmt(stats.median, 2), fmt(stats.p99, 2), fmt(stats.min, 2), fmt(stats.max, 2)]
          : [where, label, '', '', '', '']
      const t = result.tool
      const s = result.stream
      return {
        title,
        textColumns: 2,
        head: ['steer', 'interval', 'ms (median)', 'p99', 'min', 'max'],
        rows: [
          row('at a parked tool', '**`session.steer()` → receipt `recorded`**', t.steerToRecorded),
          row('', '`session.steer()` → claimed (`agent/pre-step`; the tool returns)', t.steerToClaimed),
          row('', '`session.steer()` → `tool/result` event', t.steerToToolResult),
          row('', '`tool/result` event → `recorded` (`turn/steer` answered, the tool answer sent, Codex records)', t.toolResultToRecorded),
          row('', '`session.steer()` → the steer in the kernel log (`message` event)', t.steerToLogged),
          row('', '`recorded` → next model request', t.recordedToNext),
          row('', '`tool/result` event → next model request, with a steer', t.toolResultToNext),
          row('', '`tool/result` event → next model request, without (a plain turn)', result.plain.toolResultToNext),
          row('', 'turn with a steer', t.turn),
          row('', 'turn without', result.plain.turn),
          row('during a streamed answer', '**`session.steer()` → receipt `recorded`**', s.steerToRecorded),
          row('', '`session.steer()` → claimed (`agent/pre-step`)', s.steerToClaimed),
          row('', `\`session.steer()\` → Codex closes the streaming response (${aborted} of ${samples.stream.length})`, s.steerToAborted),
          row('', '`session.steer()` → the steer in the kernel log', s.steerToLogged),
          row('', '`recorded` → next model request', s.recordedToNext),
          row('', 'turn', s.turn),
        ],
        notes: [
          `${options.turns} turns of each kind, interleaved in a rotating order, on one session (one \`codex app-server\`, ` +
            `warm: ${options.warmup} turns of each first), a full GC before each. At a parked tool: the fake Responses API asks ` +
            'for one call of a kernel tool `park`, whose handler calls `session.steer()` and returns once `agent/pre-step` has ' +
            'seen the steer (the driver claimed it while the call was parked and sends `turn/steer` next; it answers ' +
            '`item/tool/call` only after Codex answered the steer); Codex records the steer after the tool output. During a ' +
            `streamed answer: the final text comes in ${options.deltas} deltas ${options.deltaMs} ms apart, and a \`model/delta\` ` +
            'tap steers at the first; Codex discards the response in flight and samples again with the steer. Checked every ' +
            'turn: completed, the receipt resolved `recorded`, a later request carries the steer. The p99 of ' +
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
