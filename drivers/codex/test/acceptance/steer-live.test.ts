import { newInput, type RecordedRequest, userTexts } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { type CodexHarness, codexHarness, readLog } from '../support/driver-harness.js'
import { parkDirective, parkTool } from '../support/park-tool.js'
import { isNotification, wireLog } from '../support/wire.js'

// Observed against Codex 0.169.0 (`codex app-server`), the native binary of @openai/codex 0.169.0.
let current: CodexHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

async function setup() {
  const park = parkTool()
  const wire = wireLog()
  current = await codexHarness({ plugins: [park.plugin], driver: { onProtocolMessage: wire.onProtocolMessage } })
  const session = await current.kernel.startSession()
  return { park, wire, session, server: current.server }
}

const shape = (messages: readonly { role: string; content: { type: string; text?: string }[] }[]) =>
  messages.map(
    (message) => `${message.role}:${message.content.map((block) => (block.type === 'text' ? block.text : block.type)).join('|')}`,
  )

/** How often `text` is a user message in the history of the last model request. */
const timesInHistory = (requests: RecordedRequest[], text: string) =>
  userTexts(requests.at(-1) as RecordedRequest).filter((t) => t === text).length

describe('drivers.md §4 item 17: a steer while a dynamic tool is parked folds into the same turn', () => {
  it('3 turns in a row: the steer carries its item id, lands after the function_call_output, and is logged there once', async () => {
    const { park, wire, session, server } = await setup()
    for (let turn = 0; turn < 3; turn++) {
      const text = `STEER ${turn}: please also check the logs`
      const running = session.run(`Turn ${turn} ${parkDirective(`t${turn}`)}`)
      const call = await park.parked(turn)
      const receipt = session.steer(text)
      call.release()
      const result = await running
      await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
      expect(result.status).toBe('completed')

      const steer = wire.sent('turn/steer').find((message) => JSON.stringify(message.params).includes(text))
      const turnId = (wire.received('turn/started').at(-1)?.params?.turn as { id: string } | undefined)?.id
      expect(steer?.params).toMatchObject({ clientUserMessageId: receipt.itemIds[0], expectedTurnId: turnId })
      const recorded = wire.completed('userMessage').filter((item) => item.clientId === receipt.itemIds[0])
      expect(recorded).toHaveLength(1)
      // The next model request's new input: the tool's output, then the steer as a plain user message.
      const after = server.requests.find((request) => newInput(request).includes(`user:${text}`))
      expect(after && newInput(after)).toEqual([`output:parked t${turn} done`, `user:${text}`])
      expect(wire.received('turn/completed')).toHaveLength(turn + 1)
      expect(shape(result.messages)).toEqual([
        `user:Turn ${turn} ${parkDirective(`t${turn}`)}`,
        'assistant:tool_call',
        'tool:tool_result',
        `user:${text}`,
        expect.stringMatching(/^assistant:FINAL reply/),
      ])
    }
    const steered = readLog(session.transcriptPath).filter((event) => event.type === 'message' && event.message.source.kind === 'steering')
    expect(steered).toHaveLength(3)
  })
})

describe('drivers.md §4 item 18: a steer while the model streams', () => {
  it('the abandoned partial message never reaches the log; the steer is recorded once; one turn/completed', async () => {
    const { wire, session, server } = await setup()
    const text = 'STEER during streaming'
    let receipt: ReturnType<typeof session.steer> | undefined
    wire.at(isNotification('item/agentMessage/delta'), () => {
      receipt = session.steer(text)
    })
    const result = await session.run('Stream a long answer [[stream:10:150]]')
    expect(result.status).toBe('completed')
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    // Codex abandoned the first message: started and streamed, never completed; its request was aborted.
    const started = wire.started('agentMessage').map((item) => item.id)
    const completed = wire.completed('agentMessage').map((item) => item.id)
    expect(started).toHaveLength(2)
    expect(completed).toEqual([started[1]])
    expect(server.events.filter((event) => event.ev === 'aborted').map((event) => event.n)).toEqual([0])
    expect(newInput(server.requests[1] as RecordedRequest)).toEqual(['user:Stream a long answer [[stream:10:150]]', `user:${text}`])
    expect(shape(result.messages)).toEqual([
      'user:Stream a long answer [[stream:10:150]]',
      `user:${text}`,
      expect.stringMatching(/^assistant:FINAL reply to request #1 \[1\/10\]/),
    ])
    expect(JSON.stringify(readLog(session.transcriptPath))).not.toContain('FINAL reply to request #0')
    expect(wire.received('turn/completed')).toHaveLength(1)
  })

  it('a steer after the final answer, before turn/completed, continues the same turn (one more sampling)', async () => {
    const { wire, session, server } = await setup()
    const text = 'STEER after the final answer'
    let receipt: ReturnType<typeof session.steer> | undefined
    wire.at(
      isNotification('item/completed', (params) => (params.item as { type?: string }).type === 'agentMessage'),
      () => {
        receipt = session.steer(text)
      },
    )
    const result = await session.run('Answer quickly')
    expect(result.status).toBe('completed')
    const outcome = await receipt
    expect(outcome?.state).toBe('recorded')
    const turns = wire.received('turn/completed')
    if (wire.sent('turn/steer').length === 1 && wire.answerTo(wire.sent('turn/steer')[0]?.id)?.result) {
      // Codex took it in the running turn: one more request, one turn.
      expect(turns).toHaveLength(1)
      expect(shape(result.messages)).toEqual([
        'user:Answer quickly',
        expect.stringMatching(/^assistant:FINAL/),
        `user:${text}`,
        expect.stringMatching(/^assistant:FINAL/),
      ])
    } else {
      // The turn ended first: the next turn carried it.
      await session.idle()
      expect(wire.received('turn/completed')).toHaveLength(2)
    }
    expect(timesInHistory(server.requests, text)).toBe(1)
  })
})

describe('drivers.md §4 item 19: a steer at thread/status idle goes to the next turn, once', () => {
  it('refused by Codex (no active turn) or never sent, the input is carried by the next turn exactly once (4 rounds)', async () => {
    const { wire, session, server } = await setup()
    const paths: string[] = []
    for (let round = 0; round < 4; round++) {
      const text = `STEER at idle ${round}`
      let receipt: ReturnType<typeof session.steer> | undefined
      wire.at(
        isNotification('thread/status/changed', (params) => (params.status as { type?: string }).type === 'idle'),
        () => {
          receipt = session.steer(text)
        },
      )
      const steersBefore = wire.sent('turn/steer').length
      const first = await session.run(`Answer quickly ${round}`)
      expect(first.status).toBe('completed')
      await session.idle()
      await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
      const steers = wire.sent('turn/steer').slice(steersBefore)
      for (const steer of steers) expect(wire.answerTo(steer.id)?.error).toMatchObject({ message: 'no active turn to steer' })
      paths.push(steers.length === 0 ? 'not sent' : 'refused')
      expect(wire.sent('turn/start').at(-1)?.params).toMatchObject({
        clientUserMessageId: receipt?.itemIds[0],
        input: [{ type: 'text', text }],
      })
      expect(timesInHistory(server.requests, text)).toBe(1)
      const log = readLog(session.transcriptPath)
      expect(log.filter((event) => event.type === 'message' && JSON.stringify(event.message).includes(text))).toHaveLength(1)
    }
    expect(wire.sent('turn/start')).toHaveLength(8)
    console.info(`item 19, per round: ${paths.join(', ')}`)
  })
})

describe('drivers.md §4 item 20: a steer, then turn/interrupt before the boundary', () => {
  it('Codex drops it (no userMessage); the driver returns it; the next run carries it once', async () => {
    const { park, wire, session, server } = await setup()
    const text = 'STEER then interrupt'
    const running = session.run(`Interrupt me ${parkDirective('i')}`)
    const call = await park.parked(0)
    wire.at(
      (entry) => entry.direction === 'in' && entry.message.id === wire.sent('turn/steer')[0]?.id && entry.message.method === undefined,
      () => session.interrupt('stop now'),
    )
    const receipt = session.steer(text)
    const result = await running
    expect(result.status).toBe('interrupted')
    expect(call.signal.aborted).toBe(true)
    expect(wire.answerTo(wire.sent('turn/steer')[0]?.id)?.result).toBeDefined()
    expect(wire.sent('turn/interrupt')).toHaveLength(1)
    expect(wire.completed('userMessage').filter((item) => item.clientId === receipt.itemIds[0])).toHaveLength(0)
    expect(receipt.state()).toBe('returned')
    // The same process goes on: the next run carries the steer in its prompt.
    const pid = wire.received('thread/started').length
    const next = await session.run('Go on')
    expect(next.status).toBe('completed')
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    expect(wire.received('thread/started')).toHaveLength(pid)
    expect(wire.sent('turn/start').at(-1)?.params).toMatchObject({ input: [{ text: 'Go on' }, { text }] })
    expect(timesInHistory(server.requests, text)).toBe(1)
    // Codex 0.169.0 answers the cancelled call itself and tells the model the turn was aborted.
    expect(newInput(server.requests.at(-1) as RecordedRequest)).toEqual([
      'output:dynamic tool call was cancelled before receiving a response',
      expect.stringMatching(/^user:<turn_aborted>/),
      'user:Go on',
      `user:${text}`,
    ])
  })
})
