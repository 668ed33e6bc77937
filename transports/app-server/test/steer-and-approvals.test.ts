import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppServerClient } from '../src/client.js'
import { release, startServer, text, toolHeldUntil, toolHeldUntilInterrupted } from './harness.js'
import { codexSchema } from './support/codex-schema.js'

// Every message the servers sent could have come from Codex 0.169.0 and 0.171.0 (their schemas; documented extensions aside).
afterEach(() => {
  expect(codexSchema.take()).toEqual([])
})

const clients: AppServerClient[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

const logEvents = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)

describe('turn/steer (§4.3, §9)', () => {
  it('records a steer at the next boundary, after the tool output; turn/start on a running turn queues like a steer', async () => {
    const server = startServer([toolHeldUntil('steered'), { text: 'done' }])
    const client = server.client
    clients.push(client)
    await client.initialize()
    const { thread } = await client.startThread()
    const { turn } = await client.startTurn(thread.id, 'go')
    await client.waitFor('item/started', (params) => (params.item as { type: string }).type === 'commandExecution')
    await expect(client.steer(thread.id, 'other-turn', 'x')).rejects.toMatchObject({
      message: `expected active turn id \`other-turn\` but found \`${turn.id}\``,
    })
    await expect(client.steer(thread.id, turn.id, [])).rejects.toMatchObject({ message: 'input must not be empty' })
    expect(await client.steer(thread.id, turn.id, 'steer one', 'client-1')).toEqual({ turnId: turn.id })
    const queued = await client.startTurn(thread.id, 'steer two')
    expect(queued.turn.id).toBe(turn.id)
    release(server, 'steered')
    await client.turnCompleted(thread.id, turn.id)
    const users = client.notifications
      .filter((entry) => entry.method === 'item/completed' && (entry.params.item as { type: string }).type === 'userMessage')
      .map((entry) => entry.params.item as { clientId: string | null; content: { text: string }[] })
    expect(users.map((item) => [item.content[0]!.text, item.clientId])).toEqual([
      ['go', null],
      ['steer one', 'client-1'],
      ['steer two', null],
    ])
    const second = server.requests()[1]!.request.messages
    expect(second.slice(-3).map((message) => message.role)).toEqual(['tool', 'user', 'user'])
    expect(second.slice(-2).map(text)).toEqual(['steer one', 'steer two'])
  })

  it('hands a steer still unrecorded at interrupt back in turn/steer/dropped and logs steering/dropped', async () => {
    const server = startServer([toolHeldUntilInterrupted, { text: 'next turn' }])
    const client = server.client
    clients.push(client)
    await client.initialize()
    const { thread } = await client.startThread()
    const { turn } = await client.startTurn(thread.id, 'go')
    await client.waitFor('item/started', (params) => (params.item as { type: string }).type === 'commandExecution')
    await client.steer(thread.id, turn.id, 'will be dropped', 'c-drop')
    await client.interrupt(thread.id, turn.id)
    const dropped = await client.waitFor('turn/steer/dropped')
    expect(dropped).toMatchObject({ threadId: thread.id, turnId: turn.id, clientUserMessageId: 'c-drop', reason: 'interrupted' })
    expect(dropped.input).toEqual([{ type: 'text', text: 'will be dropped', text_elements: [] }])
    expect(logEvents(thread.path).filter((event) => event.type === 'steering/dropped')).toMatchObject([
      { transport: 'app-server', turnId: turn.id },
    ])
    const { turn: next } = await client.startTurn(thread.id, 'again')
    await client.turnCompleted(thread.id, next.id)
    expect(server.requests().at(-1)!.request.messages.map(text)).not.toContain('will be dropped')
  })

  it('a steer that misses the final boundary is reported by default, or starts the next turn when opted in', async () => {
    for (const mode of ['drop', 'nextTurn'] as const) {
      let sent = false
      const server = startServer([{ text: 'first' }, { text: 'carried' }], { args: ['--steer-on-turn-end', mode] })
      const client = server.client
      clients.push(client)
      client.onHostInput = async ({ threadId, turnId, boundary }) => {
        if (boundary.kind === 'final' && !sent) {
          sent = true
          await client.steer(threadId, turnId, 'missed it')
        }
        return { items: [] }
      }
      await client.initialize({ hostInput: { boundaries: ['final'] } })
      const { thread } = await client.startThread()
      const { turn } = await client.startTurn(thread.id, 'go')
      await client.turnCompleted(thread.id, turn.id)
      if (mode === 'drop') {
        expect(await client.waitFor('turn/steer/dropped')).toMatchObject({ turnId: turn.id, reason: 'turnCompleted' })
      } else {
        const started = await client.waitFor('turn/started', (params) => (params.turn as { id: string }).id !== turn.id)
        const carried = (started.turn as { id: string }).id
        await client.turnCompleted(thread.id, carried)
        expect(server.requests().at(-1)!.request.messages.map(text).at(-1)).toBe('missed it')
        expect(client.notifications.some((entry) => entry.method === 'turn/steer/dropped')).toBe(false)
      }
    }
  })
})

describe('approvals (§6)', () => {
  it('asks with item/commandExecution/requestApproval and follows the decision', async () => {
    for (const decision of ['accept', 'decline'] as const) {
      const server = startServer([{ tool_calls: [{ name: 'risky', input: { command: 'rm -rf build' }, id: 'call_r' }] }, { text: 'ok' }], {
        onApproval: () => ({ decision }),
      })
      const client = server.client
      clients.push(client)
      await client.initialize()
      const { thread } = await client.startThread()
      const { turn } = await client.startTurn(thread.id, 'go')
      await client.turnCompleted(thread.id, turn.id)
      const asked = client.received.find((message) => message.method === 'item/commandExecution/requestApproval')
      expect(asked?.params).toMatchObject({
        kind: 'command',
        threadId: thread.id,
        turnId: turn.id,
        itemId: 'call_r',
        command: 'rm -rf build',
      })
      expect(client.notifications.some((entry) => entry.method === 'serverRequest/resolved' && entry.params.requestId === asked?.id)).toBe(
        true,
      )
      expect(
        client.notifications.some(
          (entry) => entry.method === 'thread/status/changed' && JSON.stringify(entry.params.status).includes('waitingOnApproval'),
        ),
      ).toBe(true)
      const item = client.notifications.find(
        (entry) => entry.method === 'item/completed' && (entry.params.item as { type: string }).type === 'commandExecution',
      )
      expect(item?.params.item).toMatchObject({ status: decision === 'accept' ? 'completed' : 'declined' })
    }
  })
})
