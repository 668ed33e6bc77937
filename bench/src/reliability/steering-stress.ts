import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createKernel,
  definePlugin,
  defineTool,
  type Message,
  type ModelProvider,
  type ModelRequest,
  type SessionEvent,
  SteeringCancelledError,
  type SteerReceipt,
  textOf,
} from '@harness-kernel/kernel'
import { z } from 'zod'
import { type Prng, prng } from './prng.js'

/** Steers whose text holds this are dropped by a prompt policy: their receipts must say `dropped`. */
const DROP = 'DROP-ME'

export interface SteerRecord {
  text: string
  itemIds: readonly string[]
  /** How often the receipt promise settled (must be 1). */
  settled: number
  /** `recorded`, `dropped`, `cancelled` (rejected with SteeringCancelledError at session end), or `error: …`. */
  outcome?: string
  /** What the steer asked for: dropped by the policy, only for the next turn, or left for the session's end to cancel. */
  expect: 'recorded' | 'dropped' | 'cancelled'
}

export interface SteeringStressResult {
  seed: number
  steers: SteerRecord[]
  interrupts: number
  turnStatuses: Record<string, number>
  /** Texts of the `message` events from steering, in log order. */
  loggedTexts: string[]
  /** Item ids named by `steering/dropped` events (the session's end cancelling queued input). */
  cancelledIds: string[]
  /** The model's last request, flattened to the texts of its messages. */
  lastRequestTexts: string[]
}

/** Waits `ms`, or less when the signal aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

/** A model that takes 0–3 ms, then calls one or two tools (at most four tool steps in a row) or answers. */
function randomModel(rng: Prng, requests: { last?: ModelRequest }): ModelProvider {
  return {
    id: 'random-steps',
    async generate(request, { signal }) {
      requests.last = request
      await pause(rng.int(4), signal)
      let toolSteps = 0
      for (const message of [...request.messages].reverse()) {
        if (message.role === 'user' && message.source.kind !== 'tool') break
        if (message.role === 'assistant' && message.content.some((block) => block.type === 'tool_call')) toolSteps++
      }
      if (toolSteps < 4 && rng.chance(0.6)) {
        const calls = rng.chance(0.5) ? 1 : 2
        return {
          content: Array.from({ length: calls }, (_, index) => ({
            type: 'tool_call' as const,
            id: `call-${request.messages.length}-${index}`,
            name: calls === 1 ? 'echo' : 'slow',
            input: calls === 1 ? { text: 'x' } : { text: 'y', ms: rng.int(4) },
          })),
        }
      }
      return { content: [{ type: 'text', text: 'ok' }] }
    },
  }
}

const stressPlugin = (model: ModelProvider) =>
  definePlugin({
    name: 'steering-stress',
    setup(kernel) {
      kernel.provide('model', model)
      kernel.registerTool(
        defineTool({
          name: 'echo',
          description: 'echo',
          inputSchema: z.object({ text: z.string() }),
          execute: async ({ text }) => ({ output: text, isError: false }),
        }),
      )
      kernel.registerTool(
        defineTool({
          name: 'slow',
          description: 'wait, then echo',
          inputSchema: z.object({ text: z.string(), ms: z.number() }),
          parallel: true,
          async execute({ text, ms }, { signal }) {
            await pause(ms, signal)
            return { output: text, isError: false }
          },
        }),
      )
      kernel.hooks.preStep.tap('drop-marked-steers', (decision) =>
        decision.kind === 'enter'
          ? { ...decision, messages: decision.messages.filter((message) => !textOf(message).includes(DROP)) }
          : decision,
      )
    },
  })

/**
 * `turns` turns on the kernel's own loop with tool calls, while `session.steer()` is called at random times (some
 * dropped by a policy, some for the next turn only) and `session.interrupt()` now and then. A last turn drains what
 * interrupts left queued; then steers for the next turn wait behind an interrupted turn and the session ends, which
 * cancels them.
 */
export async function runSteeringStress(options: {
  seed: number
  turns: number
  steersPerTurn: number
  interruptChance: number
}): Promise<SteeringStressResult> {
  const rng = prng(options.seed)
  const requests: { last?: ModelRequest } = {}
  const dir = mkdtempSync(join(tmpdir(), 'hk-reliability-steer-'))
  const kernel = createKernel([stressPlugin(randomModel(rng, requests))], { cwd: dir })
  const session = await kernel.startSession()
  const steers: SteerRecord[] = []
  const steer = (expect: SteerRecord['expect'], nextTurn = false) => {
    const text = `STEER-${steers.length}${expect === 'dropped' ? ` ${DROP}` : ''}`
    const receipt: SteerReceipt = session.steer(text, nextTurn ? { when: 'next-turn' } : {})
    const record: SteerRecord = { text, itemIds: receipt.itemIds, settled: 0, expect }
    receipt.then(
      (outcome) => {
        record.settled++
        record.outcome = outcome.state
      },
      (error: unknown) => {
        record.settled++
        record.outcome = error instanceof SteeringCancelledError ? 'cancelled' : `error: ${String(error)}`
      },
    )
    steers.push(record)
  }
  let interrupts = 0
  const turnStatuses: Record<string, number> = {}
  for (let turn = 0; turn < options.turns; turn++) {
    const running = session.run(`turn ${turn}`)
    const timers: Promise<void>[] = []
    for (let n = rng.int(options.steersPerTurn * 2 + 1); n > 0; n--) {
      const kind = rng.chance(0.1) ? 'dropped' : 'recorded'
      const nextTurn = rng.chance(0.1)
      timers.push(pause(rng.int(15)).then(() => steer(kind, nextTurn)))
    }
    if (rng.chance(options.interruptChance)) {
      timers.push(
        pause(rng.int(15)).then(() => {
          interrupts++
          session.interrupt('stress')
        }),
      )
    }
    const status = (await running).status
    turnStatuses[status] = (turnStatuses[status] ?? 0) + 1
    await Promise.all(timers)
    await session.idle()
  }
  // After an interrupt queued input waits for the next turn: this one takes all of it.
  await session.run('drain')
  await session.idle()
  // Input for the next turn, queued behind an interrupted turn: nothing starts it, so ending the session cancels it.
  const last = session.run('last')
  for (let n = 0; n < 3; n++) steer('cancelled', true)
  session.interrupt('end of the stress')
  await last
  await session.end()
  await kernel.dispose()
  await pause(0)
  const log = readFileSync(session.transcriptPath, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
  rmSync(dir, { recursive: true, force: true })
  return {
    seed: options.seed,
    steers,
    interrupts,
    turnStatuses,
    loggedTexts: log.flatMap((event) =>
      event.type === 'message' && event.message.source.kind === 'steering' ? [textOf(event.message)] : [],
    ),
    cancelledIds: log.flatMap((event) => (event.type === 'steering/dropped' ? event.itemIds : [])),
    lastRequestTexts: (requests.last?.messages ?? []).map((message: Message) => textOf(message)),
  }
}

/** Counts from a result: what the bench reports and the test asserts to be zero. */
export function steeringViolations(result: SteeringStressResult): {
  unsettled: string[]
  settledTwice: string[]
  wrongOutcome: string[]
  lost: string[]
  doubled: string[]
  unexpectedInLog: string[]
} {
  const times = (texts: readonly string[], text: string) => texts.filter((logged) => logged === text).length
  const byText = new Map(result.steers.map((steer) => [steer.text, steer]))
  return {
    unsettled: result.steers.filter((steer) => steer.settled === 0).map((steer) => steer.text),
    settledTwice: result.steers.filter((steer) => steer.settled > 1).map((steer) => steer.text),
    wrongOutcome: result.steers.filter((steer) => steer.outcome !== steer.expect).map((steer) => `${steer.text}: ${steer.outcome}`),
    lost: result.steers
      .filter((steer) => steer.outcome === 'recorded' && times(result.loggedTexts, steer.text) === 0)
      .map((steer) => steer.text),
    doubled: result.steers.filter((steer) => times(result.loggedTexts, steer.text) > 1).map((steer) => steer.text),
    unexpectedInLog: result.loggedTexts.filter((text) => byText.get(text)?.outcome !== 'recorded'),
  }
}
