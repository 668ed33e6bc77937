import { existsSync, mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { createKernel, type Kernel, type ModelProvider, type ModelResponse } from '@harness-kernel/kernel'
import { gate } from '@harness-kernel/testing'
import { tools } from '@harness-kernel/tools'
import { afterEach, describe, expect, it } from 'vitest'
import { type AppServerHost, createAppServerHost } from '../src/app-server-host.js'
import { createAppServerBridge } from '../src/bridge.js'
import { AppServerClient, type AppServerClientOptions } from '../src/client.js'
import type { WireTurn } from '../src/wire-items.js'
import { codexSchema } from './support/codex-schema.js'

// Semantics observed on Codex 0.171.0's App Server with two WebSocket clients (one run each): `thread/started` and
// `thread/status/changed` reach every initialized connection; a connection that resumes a running thread is answered
// with the turn in progress and gets its notifications from then on; one that disconnects mid-turn does not stop the
// turn; approval requests go only to the connection that started the turn.

afterEach(() => {
  expect(codexSchema.take()).toEqual([])
})

type Reply = ModelResponse
const hosts: { host: AppServerHost; kernel: Kernel }[] = []
afterEach(async () => {
  for (const { host, kernel } of hosts.splice(0)) {
    await host.close()
    await kernel.dispose()
  }
})

const say = (text: string): Reply => ({ content: [{ type: 'text', text }] })
const shell = (id: string, command: string): Reply => ({ content: [{ type: 'tool_call', id, name: 'shell', input: { command } }] })

/** A model that answers each call with the next reply, once its gate (if any) opens. */
function heldModel(replies: { reply: Reply; until?: Promise<void> }[]): ModelProvider {
  let n = 0
  return {
    id: 'held',
    async generate() {
      const next = replies[n++] ?? { reply: say('more') }
      await next.until
      return next.reply
    },
  } as ModelProvider
}

function serve(model: ModelProvider) {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'app-server-many-')))
  const bridge = createAppServerBridge()
  const kernel = createKernel(
    [bridge.plugin, tools({ include: ['shell'] }), { name: 'held-model', setup: (k) => k.provide('model', model) }],
    { cwd },
  )
  const logs: string[] = []
  const host = createAppServerHost({ kernel, bridge, log: (line) => logs.push(line) })
  hosts.push({ host, kernel })
  const connect = async (name: string, options: AppServerClientOptions = {}) => {
    const toServer = new PassThrough()
    const fromServer = new PassThrough()
    const connection = host.connect({ input: toServer, output: fromServer, label: name })
    const client = new AppServerClient(fromServer, toServer, { onReceive: codexSchema.onReceive, ...options })
    await client.initialize({ name })
    return { client, connection, disconnect: () => toServer.end() }
  }
  return { cwd, kernel, host, logs, connect }
}

const methods = (client: AppServerClient, since = 0) => client.notifications.slice(since).map((entry) => entry.method)

describe('many connections on one server', () => {
  it('a connection that resumes a running thread follows the turn; the starter disconnecting loses nothing', async () => {
    const held = gate()
    const { connect, kernel } = serve(heldModel([{ reply: say('part one, part two'), until: held.opened }]))
    const a = await connect('a')
    const b = await connect('b')
    const { thread } = await a.client.startThread()
    // To every initialized connection, subscribed or not.
    await b.client.waitFor('thread/started', (params) => (params.thread as { id: string }).id === thread.id)
    const { turn } = await a.client.startTurn(thread.id, 'hello')
    await a.client.waitFor('item/completed', (params) => (params.item as { type: string }).type === 'userMessage')
    const resumed = await b.client.request<{ thread: { status: unknown; turns: WireTurn[] } }>('thread/resume', { threadId: thread.id })
    expect(resumed.thread.status).toEqual({ type: 'active', activeFlags: [] })
    expect(resumed.thread.turns.at(-1)).toMatchObject({ id: turn.id, status: 'inProgress' })
    a.disconnect()
    await a.connection.closed
    held.open()
    const done = await b.client.turnCompleted(thread.id, turn.id)
    expect(done.turn.status).toBe('completed')
    const agent = b.client.notifications.find(
      (entry) => entry.method === 'item/completed' && (entry.params.item as { type: string }).type === 'agentMessage',
    )
    expect(agent?.params.item).toMatchObject({ text: 'part one, part two' })
    // The session recorded the whole turn.
    const { events } = await kernel.resolve('sessionStore').load(thread.id)
    expect(events.filter((event) => event.type === 'turn/end')).toMatchObject([{ turnId: turn.id, status: 'completed' }])
  })

  it('an unsubscribed connection gets only thread/status/changed; turn/start subscribes it again', async () => {
    const { connect } = serve(heldModel([{ reply: say('one') }, { reply: say('two') }, { reply: say('three') }]))
    const a = await connect('a')
    const b = await connect('b')
    const { thread } = await a.client.startThread()
    await b.client.request('thread/resume', { threadId: thread.id, excludeTurns: true })
    expect(await b.client.request('thread/unsubscribe', { threadId: thread.id })).toEqual({ status: 'unsubscribed' })
    expect(await b.client.request('thread/unsubscribe', { threadId: thread.id })).toEqual({ status: 'notSubscribed' })
    const since = b.client.notifications.length
    const first = await a.client.startTurn(thread.id, 'one')
    await a.client.turnCompleted(thread.id, first.turn.id)
    await b.client.waitFor('thread/status/changed', (params) => (params.status as { type: string }).type === 'idle', { since })
    expect(methods(b.client, since)).toEqual(['thread/status/changed', 'thread/status/changed'])
    const second = await b.client.startTurn(thread.id, 'two')
    await b.client.turnCompleted(thread.id, second.turn.id)
    await a.client.turnCompleted(thread.id, second.turn.id)
  })

  it('approvals go to the connection that started the turn; another connection’s answer is refused', async () => {
    const { connect, cwd, logs } = serve(heldModel([{ reply: shell('call_1', 'touch approved') }, { reply: say('done') }]))
    const asked: string[] = []
    let answer!: (decision: unknown) => void
    const decided = new Promise<unknown>((resolve) => {
      answer = resolve
    })
    const a = await connect('a', {
      onApproval: async (params) => {
        asked.push(`a ${String(params.itemId)}`)
        return decided
      },
    })
    const b = await connect('b', {
      onApproval: (params) => {
        asked.push(`b ${String(params.itemId)}`)
        return { decision: 'accept' }
      },
    })
    const { thread } = await a.client.startThread({ approvalPolicy: 'untrusted' })
    await b.client.request('thread/resume', { threadId: thread.id, excludeTurns: true })
    const { turn } = await a.client.startTurn(thread.id, 'touch it')
    const request = await new Promise<{ id: number }>((resolve) =>
      a.client.once('serverRequest', (_method: string, _params: unknown, id: number) => resolve({ id })),
    )
    // B answers A's request: refused, the command does not run.
    b.client.respond(request.id, { decision: 'accept' })
    await expect.poll(() => logs.some((line) => line.includes(`refused an answer to server request ${request.id}`))).toBe(true)
    expect(existsSync(join(cwd, 'approved'))).toBe(false)
    answer({ decision: 'decline' })
    await a.client.turnCompleted(thread.id, turn.id)
    expect(asked).toEqual(['a call_1'])
    expect(existsSync(join(cwd, 'approved'))).toBe(false)
    // B saw the command's item declined, as a subscriber.
    const declined = b.client.notifications.find(
      (entry) => entry.method === 'item/completed' && (entry.params.item as { id: string }).id === 'call_1',
    )
    expect(declined?.params.item).toMatchObject({ status: 'declined' })
  })

  it('a turn whose starter went away refuses approval (fail closed), and the thread goes on', async () => {
    const held = gate()
    const { connect, cwd } = serve(heldModel([{ reply: shell('call_1', 'touch approved'), until: held.opened }, { reply: say('done') }]))
    const a = await connect('a')
    const b = await connect('b', { onApproval: () => ({ decision: 'accept' }) })
    const { thread } = await a.client.startThread({ approvalPolicy: 'untrusted' })
    await b.client.request('thread/resume', { threadId: thread.id, excludeTurns: true })
    const { turn } = await a.client.startTurn(thread.id, 'touch it')
    a.disconnect()
    await a.connection.closed
    held.open()
    const done = await b.client.turnCompleted(thread.id, turn.id)
    expect(done.turn.status).toBe('completed')
    expect(existsSync(join(cwd, 'approved'))).toBe(false)
    expect(b.client.received.some((message) => (message as { method?: string }).method?.endsWith('requestApproval'))).toBe(false)
  })
})
