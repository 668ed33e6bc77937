import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  assistantMessage,
  contextMessage,
  createKernel,
  type Driver,
  type DriverCapabilities,
  type DriverSessionContext,
  definePlugin,
  defineTool,
  type Entry,
  type Kernel,
  type KernelOptions,
  type Message,
  type Plugin,
  type SessionEvent,
  type SteerReceipt,
  type StopOutcome,
  type ToolOutcome,
  type TurnEnd,
  type TurnHost,
  type TurnRequest,
  textOf,
  userMessage,
} from '@harness-kernel/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { echoTool } from './helpers.js'

// A test double of a driver: every turn runs one script, and the scripts use only the TurnHost API.

type TurnScript = (request: TurnRequest, host: TurnHost) => Promise<TurnEnd>

const DOUBLE_CAPABILITIES: DriverCapabilities = {
  points: {
    'agent/pre-step': 'decides',
    'tools/pre-execute': 'decides',
    'tools/permission-request': 'decides',
    'tools/post-execute': 'decides',
    'agent/turn-stopping': 'decides',
  },
  boundaries: ['tool'],
  finalInputContinuesTurn: false,
  toolHosting: 'mcp',
  resume: 'native-id',
  model: 'own',
}

interface Double {
  driver: Driver
  /** The context of every `open()`, in order (failed ones included). */
  opens: DriverSessionContext[]
  closes: number
}

function double(turns: TurnScript[] = [], options: { failOpens?: number } = {}): Double {
  let failures = options.failOpens ?? 0
  let next = 0
  const state: Double = {
    opens: [],
    closes: 0,
    driver: {
      specificationVersion: 'v1',
      id: 'double',
      capabilities: DOUBLE_CAPABILITIES,
      async open(context) {
        state.opens.push(context)
        if (failures > 0) {
          failures--
          throw new Error('cannot spawn the program')
        }
        return {
          runTurn: (request, host) => (turns[next++] ?? plainTurn)(request, host),
          async close() {
            state.closes++
          },
        }
      },
    },
  }
  return state
}

/** Claims at the turn start, enters the prompt and the claimed input, records it. */
async function startTurn(request: TurnRequest, host: TurnHost): Promise<Entry> {
  const claimed = await host.claim({ kind: 'sampling', step: 1 })
  const entry = await host.enter({ step: 1, messages: [...request.input, ...claimed.messages], claimed })
  entry.record()
  return entry
}

/** A turn that answers `ok`. */
const plainTurn: TurnScript = async (request, host) => {
  await startTurn(request, host)
  host.recordMessage(assistantMessage([{ type: 'text', text: 'ok' }]))
  return { status: 'completed' }
}

const kernels: Kernel[] = []
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.dispose()
})

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'hk-driver-'))
}

function kernelOn(driver: Driver, plugins: Plugin[] = [], options: KernelOptions = {}): Kernel {
  const kernel = createKernel([definePlugin({ name: 'driver', setup: (k) => k.provide('driver', driver) }), ...plugins], {
    cwd: tempDir(),
    ...options,
  })
  kernels.push(kernel)
  return kernel
}

function readEvents(path: string): SessionEvent[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as SessionEvent)
}

function flatten(messages: readonly Message[]): string[] {
  return messages.map((message) => {
    const parts = message.content.map((block) => {
      if (block.type === 'text') return block.text
      if (block.type === 'tool_call') return `call:${block.name}`
      return `result:${block.output}`
    })
    return `${message.role}:${parts.join('|')}`
  })
}

function deferred<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((res) => {
    resolve = res
  })
  return { promise, resolve }
}

const dropPolicy = definePlugin({
  name: 'drop-policy',
  setup(kernel) {
    kernel.hooks.preStep.tap('drop', (decision) =>
      decision.kind === 'enter'
        ? { ...decision, messages: decision.messages.filter((message) => textOf(message) !== 'drop me') }
        : decision,
    )
  },
})

describe('a driver through the TurnHost', () => {
  it('records model messages, and runs kernel tools through pre-execute: a denied call never runs and its result is the reason', async () => {
    const ran: string[] = []
    const tools = definePlugin({
      name: 'echo-tool',
      setup(kernel) {
        kernel.registerTool(echoTool((text) => ran.push(text)))
        kernel.hooks.toolPreExecute.tap('deny-forbidden', (decision, { call }) =>
          (call.input as { text?: string }).text === 'forbidden' ? { kind: 'deny', reason: 'forbidden text is not allowed' } : decision,
        )
      },
    })
    const outcomes: ToolOutcome[] = []
    let exposed: string[] = []
    const { driver } = double([
      async (request, host) => {
        await startTurn(request, host)
        exposed = host.tools.map((tool) => `${tool.name}:${tool.parallel}`)
        const calls = [
          { id: 'c1', name: 'echo', input: { text: 'hi' } },
          { id: 'c2', name: 'echo', input: { text: 'forbidden' } },
        ]
        host.recordMessage(assistantMessage(calls.map((call) => ({ type: 'tool_call' as const, ...call }))))
        for (const call of calls) {
          const outcome = await host.runTool(call, 1)
          outcomes.push(outcome)
          host.recordToolResult(1, call.id, outcome.result)
          for (const message of outcome.context) host.recordMessage(message)
        }
        host.recordMessage(assistantMessage([{ type: 'text', text: 'done' }]))
        return { status: 'completed' }
      },
    ])
    const kernel = kernelOn(driver, [tools])
    const session = await kernel.startSession()
    const result = await session.run('go')

    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'done' })
    expect(exposed).toEqual(['echo:false'])
    expect(ran).toEqual(['hi'])
    expect(outcomes.map((outcome) => outcome.result)).toEqual([
      { output: 'hi', isError: false },
      { output: 'forbidden text is not allowed', isError: true },
    ])
    expect(flatten(result.messages)).toEqual([
      'user:go',
      'assistant:call:echo|call:echo',
      'tool:result:hi',
      'tool:result:forbidden text is not allowed',
      'assistant:done',
    ])
    const calls = readEvents(session.transcriptPath).filter((event) => event.type === 'tool/call')
    expect(calls.map((event) => [event.callId, event.decision])).toEqual([
      ['c1', 'allow'],
      ['c2', 'deny'],
    ])
  })

  it('claims at a tool boundary and settles per admission: recorded, dropped by pre-step, dropped by the program', async () => {
    const receipts: SteerReceipt[] = []
    const preStepInputs: string[][] = []
    const observer = definePlugin({
      name: 'observer',
      setup(kernel) {
        kernel.hooks.preStep.tap({ name: 'see', stage: -100 }, (decision, { input }) => {
          preStepInputs.push(input.map(textOf))
          return decision
        })
      },
    })
    let entered: string[] = []
    const { driver } = double([
      async (request, host) => {
        await startTurn(request, host)
        receipts.push(host.session.steer('keep me'), host.session.steer('drop me'), host.session.steer('no room'))
        const claimed = await host.claim({ kind: 'tool', step: 1 })
        const entry = await host.enter({ step: 2, messages: claimed.messages, claimed })
        entered = entry.messages.map(textOf)
        const [keep, noRoom] = entry.messages.map((message) => message.meta?.steeringItemId as string)
        entry.record([
          { id: keep!, state: 'recorded' },
          { id: noRoom!, state: 'dropped', reason: 'x' },
        ])
        host.recordMessage(assistantMessage([{ type: 'text', text: 'ok' }]))
        return { status: 'completed' }
      },
    ])
    const kernel = kernelOn(driver, [observer, dropPolicy])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')

    expect(preStepInputs).toEqual([['go'], ['keep me', 'drop me', 'no room']])
    expect(entered).toEqual(['keep me', 'no room'])
    const [keep, drop, noRoom] = receipts.map((receipt) => receipt.itemIds[0]!)
    await expect(receipts[0]).resolves.toEqual({ state: 'recorded', itemIds: [keep] })
    await expect(receipts[1]).resolves.toEqual({ state: 'dropped', itemIds: [drop], reason: 'dropped by agent/pre-step' })
    await expect(receipts[2]).resolves.toEqual({ state: 'dropped', itemIds: [noRoom], reason: 'x' })
    expect(flatten(session.messages)).toEqual(['user:go', 'user:keep me', 'assistant:ok'])

    const events = readEvents(session.transcriptPath)
    const accepted = events.filter((event) => event.type === 'steering/accepted')
    expect(accepted).toEqual([
      expect.objectContaining({ boundary: 'tool', step: 1, transport: 'in-process', itemIds: [keep], droppedIds: [drop, noRoom] }),
    ])
    const recordedAt = events.findIndex((event) => event.type === 'message' && textOf(event.message) === 'keep me')
    expect(recordedAt).toBeGreaterThan(0)
    expect(events.indexOf(accepted[0]!)).toBeGreaterThan(recordedAt)
    const notices = events.filter((event) => event.type === 'notice').map((event) => event.text)
    expect(notices).toEqual(['steering input from in-process was consumed by policy: dropped by agent/pre-step; x'])
  })

  it('abandon() hands the claim back: the input is claimed again at the next turn, once, with the context it carried', async () => {
    const claimedTexts: string[][] = []
    const contexts: string[][] = []
    let receipt: SteerReceipt | undefined
    let stateAfterAbandon: string | undefined
    const { driver } = double([
      async (request, host) => {
        await startTurn(request, host)
        host.session.inject(contextMessage('ide', 'open file: a.ts'))
        receipt = host.session.steer('later')
        const claimed = await host.claim({ kind: 'tool', step: 1 })
        claimedTexts.push(claimed.messages.map(textOf))
        const entry = await host.enter({ step: 2, messages: claimed.messages, claimed })
        contexts.push(entry.context.map(textOf))
        entry.abandon()
        stateAfterAbandon = receipt.state()
        host.recordMessage(assistantMessage([{ type: 'text', text: 'first' }]))
        return { status: 'completed' }
      },
      async (_request, host) => {
        const start = await host.claim({ kind: 'sampling', step: 1 })
        claimedTexts.push(start.messages.map(textOf))
        const entry = await host.enter({ step: 1, messages: start.messages, claimed: start })
        contexts.push(entry.context.map(textOf))
        entry.record()
        const again = await host.claim({ kind: 'tool', step: 1 })
        claimedTexts.push(again.messages.map(textOf))
        again.settle()
        host.recordMessage(assistantMessage([{ type: 'text', text: 'second' }]))
        return { status: 'completed' }
      },
    ])
    const kernel = kernelOn(driver)
    const session = await kernel.startSession()
    await session.run('go')
    await session.idle()

    expect(stateAfterAbandon).toBe('returned')
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    expect(claimedTexts).toEqual([['later'], ['later'], []])
    expect(contexts).toEqual([['open file: a.ts'], ['open file: a.ts']])
    expect(flatten(session.messages)).toEqual(['user:go', 'assistant:first', 'developer:open file: a.ts', 'user:later', 'assistant:second'])
    const events = readEvents(session.transcriptPath)
    expect(events.filter((event) => event.type === 'turn/start')).toHaveLength(2)
    const accepted = events.filter((event) => event.type === 'steering/accepted')
    expect(accepted.map((event) => [event.boundary, event.itemIds])).toEqual([['sampling', [receipt!.itemIds[0]]]])
  })

  it('an entry settles once: a second record() or an abandon() after record() throws', async () => {
    const errors: string[] = []
    const { driver } = double([
      async (request, host) => {
        const claimed = await host.claim({ kind: 'sampling', step: 1 })
        const entry = await host.enter({ step: 1, messages: request.input, claimed })
        entry.record()
        for (const again of [() => entry.record(), () => entry.abandon()]) {
          try {
            again()
          } catch (error) {
            errors.push((error as Error).message)
          }
        }
        return { status: 'completed' }
      },
    ])
    const kernel = kernelOn(driver)
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    expect(errors).toEqual(['entry recorded after it was settled', 'entry abandoned after it was settled'])
    expect(flatten(session.messages)).toEqual(['user:go'])
  })

  const stopTurn =
    (outcomes: StopOutcome[]): TurnScript =>
    async (request, host) => {
      await startTurn(request, host)
      host.recordMessage(assistantMessage([{ type: 'text', text: 'first' }]))
      for (let continues = 0; ; continues++) {
        const outcome = await host.stopping({ step: 1 + continues, stopHookActive: continues > 0, continues })
        outcomes.push(outcome)
        if (outcome.decision.kind === 'stop') return { status: 'completed' }
        host.recordMessage(assistantMessage([{ type: 'text', text: 'second' }]))
      }
    }

  const continueOnce = (seen: boolean[]) =>
    definePlugin({
      name: 'continue-once',
      setup(kernel) {
        kernel.hooks.turnStopping.tap('once', (decision, { stopHookActive }) => {
          seen.push(stopHookActive)
          return stopHookActive ? decision : { kind: 'continue', messages: [userMessage('keep going')] }
        })
      },
    })

  it('stopping(): a continue records its messages; the turn stops when the tap lets it', async () => {
    const outcomes: StopOutcome[] = []
    const seen: boolean[] = []
    const kernel = kernelOn(double([stopTurn(outcomes)]).driver, [continueOnce(seen)])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'second' })
    expect(seen).toEqual([false, true])
    expect(outcomes.map((outcome) => [outcome.decision.kind, outcome.capped])).toEqual([
      ['continue', false],
      ['stop', false],
    ])
    expect(flatten(result.messages)).toEqual(['user:go', 'assistant:first', 'user:keep going', 'assistant:second'])
  })

  it('stopping(): with maxStopContinuations 0 a continue is capped with a notice and records nothing', async () => {
    const outcomes: StopOutcome[] = []
    const kernel = kernelOn(double([stopTurn(outcomes)]).driver, [continueOnce([])], { maxStopContinuations: 0 })
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    expect(outcomes).toEqual([{ decision: { kind: 'stop' }, capped: true }])
    expect(flatten(result.messages)).toEqual(['user:go', 'assistant:first'])
    const notices = readEvents(session.transcriptPath).filter((event) => event.type === 'notice')
    expect(notices.map((event) => event.text)).toEqual([
      'turn stopped after 0 consecutive continuations by agent/turn-stopping (maxStopContinuations 0)',
    ])
  })
})

describe('a live driver through the TurnHost', () => {
  it('waitForInput() wakes for input a mid-turn boundary may claim, not for input only the next turn may take', async () => {
    const wakes: string[] = []
    let receipts: SteerReceipt[] = []
    const { driver } = double([
      async (request, host) => {
        await startTurn(request, host)
        const waiting = new AbortController()
        const woke = host.waitForInput(waiting.signal).then(() => wakes.push('woke'))
        receipts = [host.session.steer('later', { when: 'next-turn' })]
        await new Promise((resolve) => setImmediate(resolve))
        wakes.push('after next-turn input')
        receipts.push(host.session.steer('now please'))
        await woke
        const claimed = await host.claim({ kind: 'sampling', step: 2 })
        const entry = await host.enter({ step: 2, messages: claimed.messages, claimed })
        entry.record()
        // Nothing claimable is left: a wait ends only when its own signal aborts.
        const quiet = new AbortController()
        const idle = host.waitForInput(quiet.signal).then(() => wakes.push('aborted'))
        quiet.abort()
        await idle
        return { status: 'completed' }
      },
    ])
    const kernel = kernelOn(driver)
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    expect(wakes).toEqual(['after next-turn input', 'woke', 'aborted'])
    await expect(receipts[1]).resolves.toMatchObject({ state: 'recorded' })
    expect(flatten(result.messages)).toEqual(['user:go', 'user:now please'])
  })

  it('runTool() with a signal of its own: aborting it stops that call alone, the turn goes on', async () => {
    const started = deferred()
    const tools = definePlugin({
      name: 'slow-tool',
      setup(kernel) {
        kernel.registerTool(
          defineTool({
            name: 'wait',
            description: 'Waits until aborted.',
            inputSchema: z.object({}),
            execute: (_input, { signal }) =>
              new Promise((resolve) => {
                signal.addEventListener('abort', () => resolve({ output: 'stopped', isError: true }), { once: true })
                started.resolve()
              }),
          }),
        )
      },
    })
    const outcomes: ToolOutcome[] = []
    const { driver } = double([
      async (request, host) => {
        await startTurn(request, host)
        const call = { id: 'w1', name: 'wait', input: {} }
        host.recordMessage(assistantMessage([{ type: 'tool_call', ...call }]))
        const cancel = new AbortController()
        const running = host.runTool(call, 1, { signal: cancel.signal })
        await started.promise
        cancel.abort()
        outcomes.push(await running)
        host.recordToolResult(1, call.id, outcomes[0]!.result)
        host.recordMessage(assistantMessage([{ type: 'text', text: 'went on' }]))
        return { status: 'completed' }
      },
    ])
    const kernel = kernelOn(driver, [tools])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'went on' })
    expect(outcomes.map((outcome) => outcome.result.output)).toEqual(['stopped'])
  })
})

describe('the driver session', () => {
  it('opens lazily at the first turn, once per session, and closes once at session end', async () => {
    const d = double()
    const kernel = kernelOn(d.driver)
    const session = await kernel.startSession()
    expect(d.opens).toHaveLength(0)
    await session.run('one')
    await session.run('two')
    expect(d.opens).toHaveLength(1)
    expect(d.closes).toBe(0)
    await session.end()
    expect(d.closes).toBe(1)
    await session.end()
    expect(d.closes).toBe(1)

    const untouched = await kernel.startSession()
    await untouched.end()
    expect(d.opens).toHaveLength(1)
    expect(d.closes).toBe(1)
  })

  it('recordNativeId writes one driver/session event; a resume in a new kernel opens with that id and the same stateDir', async () => {
    const first = double([
      async (request, host) => {
        await startTurn(request, host)
        host.recordNativeId('abc')
        host.recordNativeId('abc')
        return { status: 'completed' }
      },
    ])
    const sessionsDir = join(tempDir(), 'sessions')
    const kernel = kernelOn(first.driver, [], { sessionsDir })
    const session = await kernel.startSession()
    await session.run('go')
    await session.end()
    const events = readEvents(session.transcriptPath).filter((event) => event.type === 'driver/session')
    expect(events).toEqual([expect.objectContaining({ type: 'driver/session', driver: 'double', nativeId: 'abc' })])
    const stateDir = join(sessionsDir, 'drivers', 'double', session.id)
    expect(first.opens).toEqual([expect.objectContaining({ sessionId: session.id, stateDir })])
    expect(first.opens[0]).not.toHaveProperty('nativeId')

    const second = double()
    const other = kernelOn(second.driver, [], { sessionsDir })
    const resumed = await other.resumeSession(session.id)
    expect(second.opens).toHaveLength(0)
    await resumed.run('again')
    expect(second.opens).toEqual([expect.objectContaining({ sessionId: session.id, nativeId: 'abc', stateDir })])
  })

  it('an open() that rejects fails that turn with a notice; the next turn opens again', async () => {
    const d = double([], { failOpens: 1 })
    const kernel = kernelOn(d.driver)
    const session = await kernel.startSession()
    const failed = await session.run('one')
    expect(failed.status).toBe('failed')
    expect(failed.error).toContain('cannot spawn the program')
    const second = await session.run('two')
    expect(second).toMatchObject({ status: 'completed', lastAssistantMessage: 'ok' })
    expect(d.opens).toHaveLength(2)
    const events = readEvents(session.transcriptPath)
    expect(events.filter((event) => event.type === 'notice').map((event) => [event.level, event.text])).toEqual([
      ['error', 'turn failed: cannot spawn the program'],
    ])
    expect(events.filter((event) => event.type === 'turn/end').map((event) => event.status)).toEqual(['failed', 'completed'])
  })

  it('a failed TurnEnd fails the turn with its error', async () => {
    const { driver } = double([
      async (request, host) => {
        await startTurn(request, host)
        return { status: 'failed', error: { code: 'runtime', message: 'boom', retryable: false } }
      },
    ])
    const kernel = kernelOn(driver)
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result).toMatchObject({ status: 'failed', error: 'boom' })
    const events = readEvents(session.transcriptPath)
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', status: 'failed', error: 'boom' })
    expect(events.filter((event) => event.type === 'notice')).toEqual([
      expect.objectContaining({ level: 'error', text: 'turn failed: boom', source: 'double' }),
    ])
  })

  it('a driver that throws after an interrupt ends the turn interrupted; the claims it held go back to the queue', async () => {
    const claimedAt = deferred()
    let receipt: SteerReceipt | undefined
    const held: string[][] = []
    const restarted: string[][] = []
    const interrupts: string[] = []
    const observer = definePlugin({
      name: 'observer',
      setup(kernel) {
        kernel.hooks.interrupt.tap('see', ({ reason }) => {
          interrupts.push(reason)
        })
      },
    })
    const { driver } = double([
      async (request, host) => {
        await startTurn(request, host)
        receipt = host.session.steer('mid-turn')
        const claimed = await host.claim({ kind: 'tool', step: 1 })
        held.push(claimed.messages.map(textOf))
        claimedAt.resolve()
        await new Promise((_resolve, reject) =>
          host.signal.addEventListener('abort', () => reject(new Error('the program exited')), { once: true }),
        )
        return { status: 'completed' }
      },
      async (request, host) => {
        const claimed = await host.claim({ kind: 'sampling', step: 1 })
        restarted.push(claimed.messages.map(textOf))
        ;(await host.enter({ step: 1, messages: [...request.input, ...claimed.messages], claimed })).record()
        return { status: 'completed' }
      },
    ])
    const kernel = kernelOn(driver, [observer])
    const session = await kernel.startSession()
    const running = session.run('go')
    await claimedAt.promise
    session.interrupt('stop now')
    const result = await running
    expect(result).toMatchObject({ status: 'interrupted', reason: 'stop now' })
    expect(result.error).toBeUndefined()
    expect(held).toEqual([['mid-turn']])
    expect(interrupts).toEqual(['stop now'])
    expect(receipt!.state()).toBe('returned')
    expect(readEvents(session.transcriptPath).filter((event) => event.type === 'steering/accepted')).toEqual([])

    const next = await session.run('again')
    expect(next.status).toBe('completed')
    expect(restarted).toEqual([['mid-turn']])
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    expect(flatten(session.messages)).toEqual(['user:go', 'user:again', 'user:mid-turn'])
  })
})
