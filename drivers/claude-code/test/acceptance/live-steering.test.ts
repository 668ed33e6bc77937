import type { HookCallback } from '@anthropic-ai/claude-agent-sdk'
import { definePlugin, type Plugin, type Session, type SessionEvent, type SteerReceipt, userMessage } from '@harness-kernel/kernel'
import { subagents } from '@harness-kernel/subagents'
import { gate, newInput, waitUntil } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import type { ClaudeCodeDriverOptions } from '../../src/index.js'
import { type DriverHarness, driverHarness, readLog } from '../support/driver-harness.js'
import { wireQuery } from '../support/wire.js'

// Live steering on the real Claude Code 2.1.332 (Agent SDK 0.3.332): input at any moment of a turn is admitted at once
// and continues the same kernel turn. A reply held by a gate keeps the answer streaming until the test has steered.
let current: DriverHarness | undefined
/** The session under test, for hooks that steer from inside Claude Code. */
let live: { steer(text: string): SteerReceipt } | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
  live = undefined
})

/** Counts `agent/turn-stopping` decisions: the turn's real end asks once. */
function stopCounter() {
  const counter = { stops: 0, plugin: undefined as unknown as Plugin }
  counter.plugin = definePlugin({
    name: 'stop-counter',
    setup(kernel) {
      kernel.hooks.turnStopping.tap('stop-counter', (decision) => {
        counter.stops++
        return decision
      })
    },
  })
  return counter
}

/** A kernel on the driver whose first answer streams once the returned gate opens. */
async function setup(options: { driver?: ClaudeCodeDriverOptions; plugins?: Plugin[] } = {}) {
  const answer = gate()
  const counter = stopCounter()
  const wire = wireQuery()
  current = await driverHarness({
    plugins: [counter.plugin, ...(options.plugins ?? [])],
    driver: { query: wire.query, ...options.driver },
    server: {
      script: (request) =>
        request.n === 0 ? { text: ['part one, ', 'part two, ', 'part three'], heldUntil: answer.opened } : { text: `reply #${request.n}` },
    },
  })
  const session = await current.kernel.startSession()
  live = session
  const server = current.server
  /** Runs a turn and steers `texts` while its answer streams; the answer goes on once Claude Code queued them all. */
  const steerDuringAnswer = async (...texts: string[]) => {
    const running = session.run('Answer slowly')
    await (await server.waitForRequest(0)).held
    const receipts = texts.map((text) => session.steer(text))
    await admitted(wire, texts.length)
    answer.open()
    return { result: await running, receipts }
  }
  return { answer, counter, wire, session, server, steerDuringAnswer }
}

/** A UserPromptSubmit of the user's own that blocks every prompt holding `STEER`. */
const blockSteers: HookCallback = async (input) =>
  String((input as { prompt?: string }).prompt).includes('STEER') ? { decision: 'block', reason: 'NO-STEERING' } : {}

const steeringTexts = (events: SessionEvent[]) =>
  events.flatMap((event) =>
    event.type === 'message' && event.message.source.kind === 'steering'
      ? event.message.content.map((block) => (block.type === 'text' ? block.text : ''))
      : [],
  )

/** Resolves once Claude Code has admitted `count` `next` messages the driver sent. */
const admitted = (wire: ReturnType<typeof wireQuery>, count: number) =>
  waitUntil(
    () => {
      const uuids = wire.sent.filter((message) => message.priority === 'next').map((message) => message.uuid)
      return uuids.length === count && uuids.every((uuid) => wire.received.some((f) => f.command_uuid === uuid && f.state === 'queued'))
    },
    `${count} steering message(s) queued by Claude Code`,
    { boundMs: 60_000 },
  )

const states = (receipts: SteerReceipt[]) => receipts.map((receipt) => receipt.state())

describe('Claude Code driver: live steering', () => {
  it('two steers while the answer streams: admitted at once, one follow-up carries both, one kernel turn, turn-stopping once', async () => {
    const { counter, wire, session, server, steerDuringAnswer } = await setup()
    const { result, receipts } = await steerDuringAnswer('STEER one', 'STEER two')
    expect(result.status).toBe('completed')
    expect(states(receipts)).toEqual(['recorded', 'recorded'])
    expect(server.requests).toHaveLength(2)
    expect(newInput(server.requests[1]!)).toEqual(['user:STEER one\nSTEER two'])
    const log = readLog(session.transcriptPath)
    expect(steeringTexts(log)).toEqual(['STEER one', 'STEER two'])
    expect(log.filter((event) => event.type === 'turn/end')).toHaveLength(1)
    // The answer before the follow-up is not the turn's end: turn-stopping decides once, after the follow-up.
    expect(counter.stops).toBe(1)
    expect(wire.results()).toHaveLength(2)
  })

  it('a steer as the answer ends (inside Claude Code’s Stop): claimed at the final boundary, run as a follow-up in the same turn', async () => {
    let steered: SteerReceipt | undefined
    const steerAtStop: HookCallback = async () => {
      steered ??= live!.steer('STEER at the end')
      return {}
    }
    const { answer, counter, session, server } = await setup({
      driver: { queryOptions: { hooks: { Stop: [{ hooks: [steerAtStop] }] } } },
    })
    answer.open()
    const result = await session.run('Answer')
    expect(result.status).toBe('completed')
    expect(steered?.state()).toBe('recorded')
    expect(server.requests).toHaveLength(2)
    expect(newInput(server.requests[1]!)).toEqual(['user:STEER at the end'])
    const accepted = readLog(session.transcriptPath).find((event) => event.type === 'steering/accepted')
    expect(accepted).toMatchObject({ boundary: 'final', itemIds: steered!.itemIds })
    expect(counter.stops).toBe(1)
  })

  it('a steer during Claude Code’s own tool: folded with its result into the next request of the same turn', async () => {
    let steered: SteerReceipt | undefined
    const steerInTool: HookCallback = async () => {
      steered ??= live!.steer('STEER during Bash')
      return {}
    }
    current = await driverHarness({
      driver: {
        builtinTools: ['Bash'],
        allowedBuiltinTools: ['Bash'],
        queryOptions: { hooks: { PreToolUse: [{ hooks: [steerInTool] }] } },
      },
    })
    const session = await current.kernel.startSession()
    live = session
    const result = await session.run(`Run it [[tool:Bash:${JSON.stringify({ command: 'echo ran', description: 'run' })}]]`)
    expect(result.status).toBe('completed')
    expect(steered?.state()).toBe('recorded')
    const next = newInput(current.server.requests[1]!)
    expect(next[0]).toBe('output:ran')
    expect(next.slice(1).join('\n')).toContain('STEER during Bash')
    expect(current.server.requests).toHaveLength(2)
    expect(steeringTexts(readLog(session.transcriptPath))).toEqual(['STEER during Bash'])
  })

  it('interrupted while a steer waits in Claude Code: cancelled there, returned, and the next turn carries it once', async () => {
    const { wire, session, server } = await setup()
    const running = session.run('Answer slowly')
    await (await server.waitForRequest(0)).held
    const receipt = session.steer('STEER before the interrupt')
    await admitted(wire, 1)
    session.interrupt()
    const result = await running
    expect(result.status).toBe('interrupted')
    expect(receipt.state()).toBe('returned')
    expect(wire.interrupts).toEqual([{ cancelQueued: true }])
    const next = await session.run('Again')
    expect(next.status).toBe('completed')
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    const history = JSON.stringify(server.requests.at(-1)?.body.messages)
    expect(history.split('STEER before the interrupt').length - 1).toBe(1)
  })

  it('a follow-up blocked by UserPromptSubmit: each item dropped with the reason, and turn-stopping decides at the real end, once', async () => {
    const { counter, session, server, steerDuringAnswer } = await setup({
      driver: { queryOptions: { hooks: { UserPromptSubmit: [{ hooks: [blockSteers] }] } } },
    })
    // Two of them: Claude Code joins them into one prompt, which its UserPromptSubmit blocks as a whole.
    const { result, receipts } = await steerDuringAnswer('STEER blocked one', 'STEER blocked two')
    expect(result.status).toBe('completed')
    for (const receipt of receipts) {
      await expect(receipt).resolves.toMatchObject({ state: 'dropped', reason: expect.stringContaining('NO-STEERING') })
    }
    expect(server.requests).toHaveLength(1)
    expect(counter.stops).toBe(1)
    expect(steeringTexts(readLog(session.transcriptPath))).toEqual([])
  })

  it('a steer starting with "/" is not sent mid-turn (Claude Code would run it as a slash command): returned, with the reason', async () => {
    const { answer, session, server } = await setup()
    const running = session.run('Answer slowly')
    await (await server.waitForRequest(0)).held
    const receipt = session.steer('/cost')
    // The claim is refused at once: the receipt is back in the queue before the answer goes on.
    await waitUntil(() => receipt.state() === 'returned', 'the steer to be returned', { boundMs: 60_000 })
    answer.open()
    const result = await running
    expect(result.status).toBe('completed')
    expect(server.requests).toHaveLength(1)
    const notices = readLog(session.transcriptPath).filter((event) => event.type === 'notice' && event.text.startsWith('steering/returned'))
    expect(notices).toEqual([expect.objectContaining({ text: expect.stringContaining('"/cost" starts with "/"') })])
    // The next turn takes it with its prompt (where Claude Code runs a `/` line as its command, as for any prompt).
    const next = await session.run('Again')
    expect(next.status).toBe('completed')
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    expect(steeringTexts(readLog(session.transcriptPath))).toEqual(['/cost'])
  })

  it('a steer to a subagent while its answer streams: the subagent’s turn keeps the follow-up, and the parent gets its answer', async () => {
    const answer = gate()
    let child: Session | undefined
    const capture = definePlugin({
      name: 'capture-child',
      setup(kernel) {
        kernel.hooks.subagentStart.tapPromise('capture-child', async ({ session }) => {
          child = session
        })
      },
    })
    const wire = wireQuery()
    const agent = { description: 'child', prompt: 'CHILD task', subagent_type: 'general-purpose', run_in_background: false }
    current = await driverHarness({
      plugins: [subagents(), capture],
      driver: { query: wire.query },
      server: {
        script: (request) => {
          const input = newInput(request).join('\n')
          if (input.includes('PARENT task')) return { toolCalls: [{ name: 'mcp__host__Agent', input: agent }] }
          if (input.includes('CHILD task')) return { text: ['child part one, ', 'child part two'], heldUntil: answer.opened }
          if (input.includes('STEER child')) return { text: 'CHILD FINAL with the steer' }
          return { text: `parent done #${request.n}` }
        },
      },
    })
    const session = await current.kernel.startSession()
    const running = session.run('PARENT task')
    await (await current.server.waitForRequest(1)).held
    const receipt = child!.steer('STEER child')
    await admitted(wire, 1)
    answer.open()
    const result = await running
    expect(result.status).toBe('completed')
    expect(receipt.state()).toBe('recorded')
    const childLog = readLog(child!.transcriptPath)
    expect(steeringTexts(childLog)).toEqual(['STEER child'])
    expect(childLog.filter((event) => event.type === 'turn/end')).toHaveLength(1)
    expect(steeringTexts(readLog(session.transcriptPath))).toEqual([])
    // The parent's next request has the subagent's answer: the one it gave after the steer.
    const parentNext = current.server.requests.find((request) =>
      newInput(request).some((text) => text.includes('CHILD FINAL with the steer')),
    )
    expect(parentNext).toBeDefined()
  })

  it('after a blocked follow-up, a turn-stopping continue goes in as one more message, in the same turn', async () => {
    let asks = 0
    const keepGoing = definePlugin({
      name: 'keep-going',
      setup(kernel) {
        kernel.hooks.turnStopping.tap('keep-going', (decision) =>
          ++asks === 1 ? { kind: 'continue', messages: [userMessage('KEEP GOING: one more check')] } : decision,
        )
      },
    })
    const { session, server, steerDuringAnswer } = await setup({
      plugins: [keepGoing],
      driver: { queryOptions: { hooks: { UserPromptSubmit: [{ hooks: [blockSteers] }] } } },
    })
    const {
      result,
      receipts: [receipt],
    } = await steerDuringAnswer('STEER blocked')
    expect(result.status).toBe('completed')
    await expect(receipt).resolves.toMatchObject({ state: 'dropped' })
    expect(asks).toBe(2)
    expect(server.requests).toHaveLength(2)
    expect(newInput(server.requests[1]!)).toEqual(['user:KEEP GOING: one more check'])
    const log = readLog(session.transcriptPath)
    expect(log.filter((event) => event.type === 'turn/end')).toHaveLength(1)
  })
})
