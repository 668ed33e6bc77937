import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppServerClient, HostInputRequest } from '../src/client.js'
import type { WireTurn } from '../src/wire-items.js'
import { hostItem, methods, type ScriptStep, startServer, text, userItem } from './harness.js'
import { codexSchema } from './support/codex-schema.js'

// Every message the servers sent could have come from Codex 0.169.0 and 0.171.0 (their schemas; documented extensions aside).
afterEach(() => {
  expect(codexSchema.take()).toEqual([])
})

const clients: AppServerClient[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

const toolThenDone: ScriptStep[] = [{ tool_calls: [{ name: 'echo', input: { text: 'a' }, id: 'call_a' }] }, { text: 'done' }]
const both = { boundaries: ['sampling', 'final'] as ('sampling' | 'final')[], timeoutMs: 20_000 }

async function runTurn(client: AppServerClient, threadId: string, prompt = 'go'): Promise<WireTurn> {
  const { turn } = await client.startTurn(threadId, prompt)
  return (await client.turnCompleted(threadId, turn.id)).turn
}

/** The wire without ids and timestamps. */
const shape = (client: AppServerClient) =>
  client.received.map((message) => {
    if (message.method === undefined) return 'response'
    const params = message.params as Record<string, unknown>
    const item = params?.item as { type?: string } | undefined
    return item ? `${String(message.method)}:${item.type}` : String(message.method)
  })

describe('host input at sampling boundaries (codex-app-server.md §10.4)', () => {
  it('1. a client without the capability sees no change', async () => {
    const plain = startServer(toolThenDone).client
    clients.push(plain)
    await plain.initialize()
    const { thread } = await plain.startThread()
    expect((await runTurn(plain, thread.id)).status).toBe('completed')
    expect(methods(plain).some((method) => method.startsWith('turn/hostInput'))).toBe(false)
    expect(plain.received.some((message) => message.method === 'turn/hostInput/request')).toBe(false)
    // The same run, against the same server, by a client that negotiated and answered nothing at all, differs only by
    // the host-input messages: with them removed, the streams are equal.
    const capable = startServer(toolThenDone, { onHostInput: () => ({ items: [] }) }).client
    clients.push(capable)
    expect((await capable.initialize({ hostInput: both })).hostInput).toEqual({ version: 1, ...both, onTimeout: 'proceed' })
    const second = await capable.startThread()
    await runTurn(capable, second.thread.id)
    const hostInputOnly = new Set(['turn/hostInput/request', 'turn/hostInput/accepted', 'serverRequest/resolved'])
    expect(shape(capable).filter((method) => !hostInputOnly.has(method))).toEqual(shape(plain))
  })

  it('2. input before the second sample is recorded once, after the step-0 tool outputs', async () => {
    const server = startServer(toolThenDone, {
      onHostInput: ({ boundary }) => ({
        items: boundary.kind === 'sampling' && boundary.step === 1 ? [userItem('also run the linter')] : [],
      }),
    })
    const client = server.client
    clients.push(client)
    await client.initialize({ hostInput: both })
    const { thread } = await client.startThread()
    expect((await runTurn(client, thread.id)).status).toBe('completed')
    const requests = server.requests()
    expect(requests).toHaveLength(2)
    const messages = requests[1]!.request.messages
    expect(messages.filter((message) => text(message) === 'also run the linter')).toHaveLength(1)
    expect(messages.at(-1)).toMatchObject({ role: 'user', source: { kind: 'steering' } })
    expect(messages.at(-2)?.role).toBe('tool')
    const asked = client.received.find((message) => message.method === 'turn/hostInput/request')
    expect(asked?.params).toMatchObject({ threadId: thread.id, boundary: { kind: 'sampling', step: 1 } })
    // UserPromptSubmit runs for the user item first (hook/*), then the items, the acceptance and the resolution.
    const after = shape(client)
      .slice(client.received.indexOf(asked!) + 1)
      .filter((method) => !method.startsWith('hook/'))
    expect(after.slice(0, 4)).toEqual([
      'item/started:hostInputMessage',
      'item/completed:hostInputMessage',
      'turn/hostInput/accepted',
      'serverRequest/resolved',
    ])
    const accepted = client.notifications.find((entry) => entry.method === 'turn/hostInput/accepted')
    expect(accepted?.params).toMatchObject({ requestId: asked?.id, items: [{ index: 0, status: 'recorded' }] })
  })

  it('3. final-boundary input continues the same turn; Stop runs once, at the later stop', async () => {
    const server = startServer([{ text: 'first answer' }, { text: 'second answer' }], {
      onHostInput: ({ boundary }) => ({ items: boundary.kind === 'final' && boundary.step === 0 ? [userItem('one more thing')] : [] }),
    })
    const client = server.client
    clients.push(client)
    await client.initialize({ hostInput: both })
    const { thread } = await client.startThread()
    const turn = await runTurn(client, thread.id)
    expect(turn.status).toBe('completed')
    expect(client.notifications.filter((entry) => entry.method === 'turn/completed')).toHaveLength(1)
    const requests = server.requests()
    expect(requests).toHaveLength(2)
    expect(new Set(requests.map((request) => request.turnId)).size).toBe(1)
    expect(text(requests[1]!.request.messages.at(-1)!)).toBe('one more thing')
    const stops = client.notifications.filter(
      (entry) => entry.method === 'hook/completed' && (entry.params.run as { eventName: string }).eventName === 'stop',
    )
    expect(stops).toHaveLength(1)
    expect(stops[0]!.params).toMatchObject({ turnId: turn.id, run: { eventName: 'stop' } })
    const boundaries = client.received
      .filter((m) => m.method === 'turn/hostInput/request')
      .map((m) => (m.params as HostInputRequest).boundary)
    expect(boundaries).toEqual([
      { kind: 'final', step: 0 },
      { kind: 'final', step: 1 },
    ])
  })

  it('4. an empty answer adds no model call', async () => {
    const server = startServer(toolThenDone, { onHostInput: () => ({ items: [] }) })
    clients.push(server.client)
    await server.client.initialize({ hostInput: both })
    const { thread } = await server.client.startThread()
    await runTurn(server.client, thread.id)
    expect(server.requests()).toHaveLength(2)
    const accepted = server.client.notifications.filter((entry) => entry.method === 'turn/hostInput/accepted')
    expect(accepted.map((entry) => entry.params.items)).toEqual([[], []])
  })

  it('5. a provider retry neither re-asks nor duplicates', async () => {
    const server = startServer([toolThenDone[0]!, { error: { message: 'overloaded', retryable: true } }, { text: 'done' }], {
      onHostInput: ({ boundary }) => ({ items: boundary.kind === 'sampling' ? [userItem('steer me')] : [] }),
    })
    clients.push(server.client)
    await server.client.initialize({ hostInput: both })
    const { thread } = await server.client.startThread()
    expect((await runTurn(server.client, thread.id)).status).toBe('completed')
    const asked = server.client.received.filter((message) => message.method === 'turn/hostInput/request')
    expect(asked.filter((message) => (message.params as HostInputRequest).boundary.kind === 'sampling')).toHaveLength(1)
    const requests = server.requests()
    expect(requests.map((request) => request.attempt)).toEqual([1, 1, 2])
    expect(requests[2]!.request.messages.filter((message) => text(message) === 'steer me')).toHaveLength(1)
  })

  it('6. interrupt invalidates a pending request; late, duplicate, unknown and invalid answers are rejected', async () => {
    const server = startServer([toolThenDone[0]!, ...toolThenDone], { onHostInput: () => undefined })
    const client = server.client
    clients.push(client)
    await client.initialize({ hostInput: both })
    const { thread } = await client.startThread()
    const { turn } = await client.startTurn(thread.id, 'go')
    const already = client.received.find((message) => message.method === 'turn/hostInput/request')
    const asked =
      (already?.id as number | undefined) ??
      (await new Promise<number>((resolve) => client.once('serverRequest', (_method, _params, id: number) => resolve(id))))
    await client.interrupt(thread.id, turn.id)
    const done = await client.turnCompleted(thread.id, turn.id)
    expect(done.turn.status).toBe('interrupted')
    const order = methods(client)
    const resolved = client.received.findIndex(
      (m) => m.method === 'serverRequest/resolved' && (m.params as { requestId: number }).requestId === asked,
    )
    expect(resolved).toBeGreaterThan(-1)
    expect(resolved).toBeLessThan(order.lastIndexOf('turn/completed'))
    // The interrupt is answered after the Interrupt hooks, before the idle status and `turn/completed`.
    expect(order.slice(resolved + 1, resolved + 4)).toEqual([
      expect.stringMatching(/^response:/),
      'thread/status/changed',
      'turn/completed',
    ])
    client.respond(asked, { items: [userItem('too late')] })
    expect(await client.waitFor('turn/hostInput/rejected', (p) => p.requestId === asked)).toMatchObject({
      reason: 'late',
      threadId: thread.id,
    })
    client.respond(424242, { items: [] })
    expect(await client.waitFor('turn/hostInput/rejected', (p) => p.requestId === 424242)).toMatchObject({
      reason: 'unknownRequest',
      threadId: null,
      turnId: null,
    })
    // Duplicate, then invalid, on a fresh turn.
    let first = true
    client.onHostInput = (_request, id) => {
      if (first) {
        first = false
        // The same answer again, once the first has gone out.
        setImmediate(() => client.respond(id, { items: [] }))
        return { items: [] }
      }
      return { items: [{ role: 'developer', authority: 'user', content: [{ type: 'text', text: 'x', text_elements: [] }] }] }
    }
    const second = await runTurn(client, thread.id, 'again')
    expect(second.status).toBe('completed')
    expect(await client.waitFor('turn/hostInput/rejected', (p) => p.reason === 'duplicate')).toMatchObject({ turnId: second.id })
    expect(await client.waitFor('turn/hostInput/rejected', (p) => p.reason === 'invalid')).toMatchObject({ turnId: second.id })
    expect(client.notifications.some((entry) => (entry.params.item as { type?: string } | undefined)?.type === 'hostInputMessage')).toBe(
      false,
    )
    expect(server.requests().every((request) => request.request.messages.every((message) => text(message) !== 'too late'))).toBe(true)
  })

  it('6c. a timed-out request proceeds without input and a later answer is late', async () => {
    const server = startServer(toolThenDone, { onHostInput: () => undefined })
    const client = server.client
    clients.push(client)
    const init = await client.initialize({ hostInput: { boundaries: ['sampling'], timeoutMs: 10 } })
    expect(init.hostInput).toMatchObject({ timeoutMs: 1000, boundaries: ['sampling'] })
    const { thread } = await client.startThread()
    const turn = await runTurn(client, thread.id)
    expect(turn.status).toBe('completed')
    expect(server.requests()).toHaveLength(2)
    const asked = client.received.find((message) => message.method === 'turn/hostInput/request')!
    expect(client.notifications.some((entry) => entry.method === 'serverRequest/resolved' && entry.params.requestId === asked.id)).toBe(
      true,
    )
    client.respond(asked.id as number, { items: [userItem('late')] })
    expect(await client.waitFor('turn/hostInput/rejected')).toMatchObject({ reason: 'late', requestId: asked.id })
  })

  it('7. two threads wait at once; answering B first lets B sample while A waits', async () => {
    const pending = new Map<string, (answer: { items: ReturnType<typeof userItem>[] }) => void>()
    let bothAsked!: () => void
    const asked = new Promise<void>((resolve) => {
      bothAsked = resolve
    })
    const server = startServer(
      [
        { tool_calls: [{ name: 'echo', input: { text: '1' } }] },
        { tool_calls: [{ name: 'echo', input: { text: '2' } }] },
        { text: 'finished' },
        { text: 'finished' },
      ],
      {
        onHostInput: ({ threadId, boundary }) => {
          if (boundary.kind === 'final') return { items: [] }
          return new Promise((resolve) => {
            pending.set(threadId, resolve)
            if (pending.size === 2) bothAsked()
          })
        },
      },
    )
    const client = server.client
    clients.push(client)
    await client.initialize({ hostInput: both })
    const a = (await client.startThread()).thread.id
    const b = (await client.startThread()).thread.id
    const turnA = (await client.startTurn(a, 'go A')).turn
    const turnB = (await client.startTurn(b, 'go B')).turn
    await asked
    pending.get(b)!({ items: [userItem('for B')] })
    await client.turnCompleted(b, turnB.id)
    expect(client.notifications.some((entry) => entry.method === 'turn/completed' && entry.params.threadId === a)).toBe(false)
    pending.get(a)!({ items: [userItem('for A')] })
    await client.turnCompleted(a, turnA.id)
    const requests = server.requests()
    const of = (threadId: string) =>
      requests
        .filter((request) => request.sessionId === threadId)
        .at(-1)!
        .request.messages.map(text)
    expect(of(b)).toContain('for B')
    expect(of(b)).not.toContain('for A')
    expect(of(a)).toContain('for A')
    expect(of(a)).not.toContain('for B')
    expect(requests.findIndex((request) => request.sessionId === b && request.n > 2)).toBeLessThan(
      requests.findIndex((request) => request.sessionId === a && request.n > 2),
    )
  })

  it('8. accepted items keep their role and authority and survive a restart and resume', async () => {
    const server = startServer(toolThenDone, {
      onHostInput: ({ boundary }) => ({
        items: boundary.kind === 'sampling' ? [hostItem('house rule: be brief'), userItem('the user adds this')] : [],
      }),
    })
    clients.push(server.client)
    await server.client.initialize({ hostInput: both })
    const { thread } = await server.client.startThread()
    await runTurn(server.client, thread.id)
    const items = server.client.notifications
      .filter((e) => e.method === 'item/completed')
      .map((e) => e.params.item as Record<string, unknown>)
    expect(items.filter((item) => item.type === 'hostInputMessage')).toMatchObject([
      { role: 'developer', authority: 'host' },
      { role: 'user', authority: 'user' },
    ])
    // Role-based hooks (the Codex dialect's UserPromptSubmit) see only the user item: the developer item never reaches them.
    const prompts = server.client.notifications.filter(
      (entry) => entry.method === 'hook/completed' && (entry.params.run as { eventName: string }).eventName === 'userPromptSubmit',
    )
    expect(prompts).toHaveLength(1)
    await server.client.close()
    writeFileSync(server.script, JSON.stringify({ steps: [{ text: 'resumed' }] }))
    const again = server.restart({ onHostInput: () => ({ items: [] }) })
    clients.push(again.client)
    await again.client.initialize({ hostInput: both })
    const resumed = await again.client.resumeThread(thread.id)
    const recorded = resumed.thread.turns[0]!.items.filter((item) => item.type === 'hostInputMessage')
    expect(recorded).toMatchObject([
      { role: 'developer', authority: 'host', content: [{ type: 'text', text: 'house rule: be brief' }] },
      { role: 'user', authority: 'user', content: [{ type: 'text', text: 'the user adds this' }] },
    ])
    await runTurn(again.client, thread.id, 'next')
    const last = again.requests().at(-1)!.request.messages
    const rule = last.findIndex((message) => text(message) === 'house rule: be brief')
    expect(last[rule]).toMatchObject({ role: 'developer' })
    expect(last[rule - 1]?.role).toBe('tool')
    expect(last[rule + 1]).toMatchObject({ role: 'user' })
    expect(text(last[rule + 1]!)).toBe('the user adds this')
  })
})

describe('with the real Codex dialect', () => {
  it('runs UserPromptSubmit for user items only; developer items skip it; hook runs reach the wire', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'app-server-codex-'))
    const codexHome = join(dir, 'codex')
    mkdirSync(codexHome)
    const hook = { type: 'command', command: 'cat > /dev/null' }
    writeFileSync(
      join(codexHome, 'hooks.json'),
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [hook] }], Stop: [{ hooks: [hook] }] } }),
    )
    const server = startServer(toolThenDone, {
      dir,
      args: ['--codex-home', codexHome],
      onHostInput: ({ boundary }) => ({ items: boundary.kind === 'sampling' ? [hostItem('host rule'), userItem('user words')] : [] }),
    })
    clients.push(server.client)
    await server.client.initialize({ hostInput: both })
    const { thread } = await server.client.startThread()
    expect((await runTurn(server.client, thread.id)).status).toBe('completed')
    const runs = server.client.notifications
      .filter((entry) => entry.method === 'hook/completed')
      .map((entry) => (entry.params.run as { eventName: string }).eventName)
    // The prompt and the user item: two UserPromptSubmit runs; the developer item none; one Stop.
    expect(runs).toEqual(['userPromptSubmit', 'userPromptSubmit', 'stop'])
    const last = server.requests().at(-1)!.request.messages
    expect(last.slice(-2).map((message) => [message.role, text(message)])).toEqual([
      ['developer', 'host rule'],
      ['user', 'user words'],
    ])
  })
})
