import { afterEach, describe, expect, it } from 'vitest'
import type { AppServerClient } from '../src/client.js'
import { methods, startServer } from './harness.js'
import { codexSchema } from './support/codex-schema.js'

// Every message the servers sent could have come from Codex 0.169.0 and 0.171.0 (their schemas; documented extensions aside).
afterEach(() => {
  expect(codexSchema.take()).toEqual([])
})

let client: AppServerClient | undefined
afterEach(async () => {
  await client?.close()
  client = undefined
})

describe('framing, handshake and errors', () => {
  it('answers JSON-RPC errors and stays up; logs malformed lines to stderr only', async () => {
    const server = startServer([{ text: 'hi' }])
    client = server.client
    await expect(client.request('thread/start', {})).rejects.toMatchObject({ code: -32600, message: 'Not initialized' })
    client.sendRaw('{not json')
    client.sendRaw('{"jsonrpc":"2.0","id":"s1","method":"bogus/method","params":{}}')
    const result = await client.initialize()
    expect(result).toMatchObject({ platformFamily: 'unix' })
    expect(result.hostInput).toBeUndefined()
    // The kernel's driver: the native loop takes input before each request and before a turn ends (which continues it).
    expect(result.driver).toEqual({ id: 'native', boundaries: ['sampling', 'final'], finalInputContinuesTurn: true })
    await expect(client.initialize()).rejects.toMatchObject({ code: -32600, message: 'Already initialized' })
    await expect(client.request('nope')).rejects.toMatchObject({ code: -32600, message: expect.stringContaining('unknown variant `nope`') })
    await expect(client.request('turn/start', { input: [] })).rejects.toMatchObject({
      message: 'Invalid request: missing field `threadId`',
    })
    const { thread } = await client.startThread()
    await expect(
      client.request('turn/steer', { threadId: thread.id, input: [{ type: 'text', text: 'x', text_elements: [] }] }),
    ).rejects.toMatchObject({
      message: 'Invalid request: missing field `expectedTurnId`',
    })
    await expect(client.steer(thread.id, 'nope', 'x')).rejects.toMatchObject({ message: 'no active turn to steer' })
    await expect(client.interrupt(thread.id, 'nope')).rejects.toMatchObject({ message: 'no active turn to interrupt' })
    const unknown = client.received.find((message) => message.id === 's1')
    expect(unknown).toMatchObject({ error: { code: -32600 } })
    expect(client.received.every((message) => !('jsonrpc' in message))).toBe(true)
    const notifications = client.received.filter((message) => message.method !== undefined && message.id === undefined)
    expect(notifications.length).toBeGreaterThan(0)
    expect(notifications.every((message) => typeof message.emittedAtMs === 'number')).toBe(true)
    expect(client.received.filter((message) => message.method === undefined).every((message) => !('emittedAtMs' in message))).toBe(true)
    await client.close()
    expect(client.stderr).toContain('Failed to deserialize JSONRPCMessage')
  })

  it('refuses params in Codex’s (serde’s) words; a request whose id is not a string or an integer gets an Invalid Request with id null', async () => {
    const server = startServer([{ text: 'hi' }])
    client = server.client
    await client.initialize()
    const { thread } = await client.startThread()
    const threadId = thread.id
    const refusal = (params: unknown, method = 'turn/start') =>
      client!.request(method, params).then(
        () => 'answered',
        (error: Error) => error.message,
      )
    expect(await refusal({ threadId, input: 'not an array' })).toBe(
      'Invalid request: invalid type: string "not an array", expected a sequence',
    )
    expect(await refusal({ threadId, input: { a: 1 } })).toBe('Invalid request: invalid type: map, expected a sequence')
    expect(await refusal({ threadId, input: null })).toBe('Invalid request: invalid type: null, expected a sequence')
    expect(await refusal({ threadId, input: 1.5 })).toBe('Invalid request: invalid type: floating point `1.5`, expected a sequence')
    expect(await refusal({ threadId })).toBe('Invalid request: missing field `input`')
    expect(await refusal({ threadId, input: ['hi'] })).toBe(
      'Invalid request: invalid type: string "hi", expected internally tagged enum UserInput',
    )
    expect(await refusal({ threadId, input: [{ text: 'hi' }] })).toBe('Invalid request: missing field `type`')
    expect(await refusal({ threadId, input: [{ type: 'text' }] })).toBe('Invalid request: missing field `text`')
    expect(await refusal({ threadId, input: [{ type: 'bogus' }] })).toBe(
      'Invalid request: unknown variant `bogus`, expected one of `text`, `image`, `localImage`, `audio`, `localAudio`, `skill`, `mention`',
    )
    expect(await refusal({ threadId, input: [], clientUserMessageId: 5 })).toBe(
      'Invalid request: invalid type: integer `5`, expected a string',
    )
    expect(await refusal(undefined)).toBe('Invalid request: missing field `params`')
    expect(await refusal('x')).toBe('Invalid request: invalid type: string "x", expected struct TurnStartParams')
    expect(await refusal({ cwd: 5 }, 'thread/start')).toBe('Invalid request: invalid type: integer `5`, expected a string')
    // serde's text does not say where; the error's `data` does: the field, what it expected and what came.
    const refusalData = (params: unknown, method = 'turn/start') =>
      client!.request(method, params).then(
        () => 'answered',
        (error: { data?: unknown }) => error.data,
      )
    expect(await refusalData({ cwd: 5 }, 'thread/start')).toEqual({ field: 'cwd', expected: 'a string', got: 'integer `5`' })
    expect(await refusalData({ threadId, input: [{ type: 'text', text: 7 }] })).toEqual({
      field: 'input.0.text',
      expected: 'a string',
      got: 'integer `7`',
    })
    expect(await refusalData({ threadId, input: [{ type: 'text' }] })).toEqual({ field: 'input.0.text' })
    expect(await refusalData('x')).toBeUndefined()

    // A request whose id is not a string or an integer is answered all the same: Invalid Request with `id: null`
    // (JSON-RPC 2.0). Codex 0.169.0 reads it as a notification it does not know and answers nothing.
    const since = client.received.length
    client.sendRaw('{"id":{"x":1},"method":"thread/start","params":{}}')
    client.sendRaw('{"id":null,"method":"thread/start","params":{}}')
    client.sendRaw('{"id":1.5,"method":"thread/start","params":{}}')
    await client.request('hooks/list', { cwds: ['/x'] })
    expect(client.received.slice(since)).toEqual([
      {
        id: null,
        error: { code: -32600, message: 'Invalid request: the id of thread/start must be a string or an integer, not an object' },
      },
      { id: null, error: { code: -32600, message: 'Invalid request: the id of thread/start must be a string or an integer, not null' } },
      {
        id: null,
        error: { code: -32600, message: 'Invalid request: the id of thread/start must be a string or an integer, not number 1.5' },
      },
      expect.objectContaining({ result: expect.anything() }),
    ])
  })

  it('runs a tool-using turn with Codex-ordered notifications and lists hooks', async () => {
    const server = startServer([{ tool_calls: [{ name: 'echo', input: { text: 'a' }, id: 'call_a' }] }, { text: 'done' }])
    client = server.client
    await client.initialize()
    const { thread } = await client.startThread()
    expect(thread.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/)
    await client.waitFor('thread/started')
    const startedAt = methods(client).indexOf('thread/started')
    expect(methods(client)[startedAt - 1]).toMatch(/^response:/)
    const since = client.received.length
    const { turn } = await client.startTurn(thread.id, 'hello', 'c-1')
    expect(turn).toMatchObject({ status: 'inProgress', items: [], itemsView: 'notLoaded' })
    const done = await client.turnCompleted(thread.id, turn.id)
    expect(done.turn).toMatchObject({
      id: turn.id,
      status: 'completed',
      itemsView: 'summary',
      items: [{ type: 'agentMessage', text: 'done' }],
    })
    const order = methods(client).slice(since)
    expect(order).toEqual([
      expect.stringMatching(/^response:/),
      'thread/status/changed',
      'turn/started',
      'hook/started',
      'hook/completed',
      'item/started',
      'item/completed',
      'item/started',
      'item/completed',
      // PostToolUse runs after the command's item completes, as in Codex.
      'hook/started',
      'hook/completed',
      'item/started',
      'item/completed',
      'hook/started',
      'hook/completed',
      'thread/status/changed',
      'turn/completed',
    ])
    const items = client.notifications.filter((entry) => entry.method === 'item/completed').map((entry) => entry.params.item)
    expect(items).toEqual([
      expect.objectContaining({ type: 'userMessage', clientId: 'c-1', content: [{ type: 'text', text: 'hello', text_elements: [] }] }),
      expect.objectContaining({ type: 'commandExecution', id: 'call_a', status: 'completed', aggregatedOutput: 'echo: a' }),
      expect.objectContaining({ type: 'agentMessage', text: 'done' }),
    ])
    const sessionStart = client.notifications.find((entry) => entry.method === 'hook/completed')
    expect(sessionStart?.params).toMatchObject({ threadId: thread.id, turnId: turn.id, run: { eventName: 'sessionStart' } })
    const failed = (await client.startTurn(thread.id, 'again')).turn
    const ended = await client.turnCompleted(thread.id, failed.id)
    expect(ended.turn).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('script exhausted') } })
    const hooks = await client.request<{ data: unknown[] }>('hooks/list', { cwds: ['/x'] })
    expect(hooks).toEqual({ data: [{ cwd: '/x', hooks: [], warnings: [], errors: [] }] })
  })

  it('streams the model text as item/agentMessage/delta between the item’s start and its completion', async () => {
    const server = startServer([{ text: 'Hello there, friend.' }], { args: ['--text-deltas'] })
    client = server.client
    await client.initialize()
    const { thread } = await client.startThread()
    const { turn } = await client.startTurn(thread.id, 'hi')
    await client.turnCompleted(thread.id, turn.id)
    type ItemParams = { item?: { type: string; id: string; text: string }; itemId?: string; delta?: string }
    const params = (entry: { params: unknown }) => entry.params as ItemParams
    const agent = client.notifications.filter(
      (entry) => params(entry).item?.type === 'agentMessage' || entry.method === 'item/agentMessage/delta',
    )
    const id = params(agent[0]!).item?.id
    expect(
      agent.map((entry) => [entry.method, params(entry).item?.id ?? params(entry).itemId, params(entry).item?.text ?? params(entry).delta]),
    ).toEqual([
      ['item/started', id, ''],
      ['item/agentMessage/delta', id, 'Hello '],
      ['item/agentMessage/delta', id, 'there, '],
      ['item/agentMessage/delta', id, 'friend.'],
      ['item/completed', id, 'Hello there, friend.'],
    ])
    expect(agent.every((entry) => (entry.params as { turnId?: string }).turnId === turn.id)).toBe(true)
  })
})
