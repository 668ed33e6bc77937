import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppServerClient } from '../src/client.js'
import type { WireItem, WireTurn } from '../src/wire-items.js'
import { methods, release, startServer, text, toolHeldUntil, toolHeldUntilInterrupted } from './harness.js'
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

type Thread = Record<string, unknown> & { id: string; turns: WireTurn[] }
interface Paged<T> {
  data: T[]
  nextCursor: string | null
  backwardsCursor: string | null
}
interface ItemEntry {
  turnId: string
  item: WireItem
  startedAtMs: number | null
  completedAtMs: number | null
}

const MISSING = '01a00000-0000-7000-8000-000000000001'

/** A turn on a thread, to its end. */
async function runTurn(on: AppServerClient, threadId: string, prompt: string): Promise<WireTurn> {
  const { turn } = await on.startTurn(threadId, prompt)
  return (await on.turnCompleted(threadId, turn.id)).turn
}

const list = (on: AppServerClient, params: Record<string, unknown> = {}) => on.request<Paged<Thread>>('thread/list', params)
const ids = (page: Paged<Thread>) => page.data.map((thread) => thread.id)
const kinds = (items: readonly { type: string }[]) => items.map((item) => item.type)

describe('thread/list, thread/read, thread/turns/list, thread/items/list, thread/loaded/list', () => {
  it('lists, reads and pages the session store, loaded or not', async () => {
    const server = startServer([
      { text: 'one' },
      { tool_calls: [{ name: 'echo', input: { text: 'x' } }] },
      { text: 'two' },
      { text: 'b' },
      { text: 'three' },
    ])
    client = server.client
    mkdirSync(join(server.dir, 'other'))
    await client.initialize()
    const a = (await client.startThread()).thread.id
    const b = (await client.startThread({ cwd: join(server.dir, 'other') })).thread.id
    const c = (await client.startThread()).thread.id
    const t1 = await runTurn(client, a, 'first')
    const t2 = await runTurn(client, a, 'second')
    await runTurn(client, b, 'beta')
    const t3 = await runTurn(client, a, 'third')

    // thread/list: threads with a turn, newest first by creation, as thread objects of the server.
    const all = await list(client)
    expect(ids(all)).toEqual([b, a])
    expect(all.nextCursor).toBeNull()
    expect(typeof all.backwardsCursor).toBe('string')
    const [listedB, listedA] = all.data
    expect(listedA).toMatchObject({
      id: a,
      status: { type: 'idle' },
      preview: 'first',
      name: null,
      forkedFromId: null,
      cwd: server.dir,
      path: join(server.dir, '.harness/sessions', `${a}.jsonl`),
      turns: [],
    })
    expect(listedB).toMatchObject({ preview: 'beta', cwd: join(server.dir, 'other') })
    expect(listedA!.updatedAt as number).toBeGreaterThanOrEqual(listedA!.createdAt as number)

    // Paging: a cursor continues after a page; a backwards cursor goes the other way from the page's first thread.
    const first = await list(client, { limit: 1 })
    expect(ids(first)).toEqual([b])
    const second = await list(client, { limit: 1, cursor: first.nextCursor })
    expect(ids(second)).toEqual([a])
    expect(second.nextCursor).toBeNull()
    expect(ids(await list(client, { cursor: second.backwardsCursor, sortDirection: 'asc' }))).toEqual([a, b])
    expect(ids(await list(client, { limit: 0 }))).toEqual([b])
    expect(ids(await list(client, { sortDirection: 'asc' }))).toEqual([a, b])
    expect(ids(await list(client, { sortKey: 'updated_at' }))).toEqual([a, b])
    expect(ids(await list(client, { sortKey: 'recency_at', sortDirection: 'asc' }))).toEqual([b, a])

    // Filters.
    expect(ids(await list(client, { cwd: 'other' }))).toEqual([b])
    expect(ids(await list(client, { cwd: [server.dir, join(server.dir, 'other')] }))).toEqual([b, a])
    expect(ids(await list(client, { searchTerm: 'bet' }))).toEqual([b])
    expect(ids(await list(client, { searchTerm: 'Beta' }))).toEqual([])
    expect(ids(await list(client, { modelProviders: ['openai'] }))).toEqual([])
    expect(ids(await list(client, { modelProviders: [listedA!.modelProvider] }))).toEqual([b, a])
    expect(ids(await list(client, { modelProviders: [] }))).toEqual([b, a])
    expect(ids(await list(client, { excludedThreadIds: [b] }))).toEqual([a])
    expect(ids(await list(client, { includedThreadIds: [a] }))).toEqual([a])
    expect(ids(await list(client, { includedThreadIds: [a, b], excludedThreadIds: [b] }))).toEqual([a])
    expect(ids(await list(client, { includedThreadIds: [] }))).toEqual([])
    expect(ids(await list(client, { includedThreadIds: null }))).toEqual([b, a])
    expect(ids(await list(client, { sectionId: 'section' }))).toEqual([])
    expect(ids(await list(client, { archived: true }))).toEqual([])
    await expect(list(client, { cursor: 'garbage' })).rejects.toMatchObject({ code: -32600, message: 'invalid cursor: garbage' })
    await expect(list(client, { excludedThreadIds: Array.from({ length: 101 }, () => a) })).rejects.toMatchObject({
      code: -32602,
      message: 'excludedThreadIds accepts at most 100 entries',
    })
    await expect(list(client, { includedThreadIds: Array.from({ length: 101 }, () => a) })).rejects.toMatchObject({
      code: -32602,
      message: 'includedThreadIds accepts at most 100 entries',
    })
    await expect(list(client, { originators: ['x'] })).rejects.toMatchObject({
      code: -32602,
      message: 'originator filtering is not supported by the local app-server',
    })
    await expect(list(client, { sortKey: 'section_position' })).rejects.toMatchObject({
      code: -32600,
      message: 'section-position sorting requires a section filter',
    })
    await expect(list(client, { limit: -1 })).rejects.toMatchObject({ code: -32600 })

    // thread/loaded/list: every loaded thread (with or without turns), in id order.
    const loaded = [a, b, c].sort()
    expect(await client.request('thread/loaded/list', {})).toEqual({ data: loaded, nextCursor: null })
    const firstTwo = await client.request<{ data: string[]; nextCursor: string }>('thread/loaded/list', { limit: 2 })
    expect(firstTwo).toEqual({ data: loaded.slice(0, 2), nextCursor: loaded[1] })
    expect(await client.request('thread/loaded/list', { limit: 2, cursor: firstTwo.nextCursor })).toEqual({
      data: loaded.slice(2),
      nextCursor: null,
    })

    // thread/read: the thread object; turns with all their items on request.
    const read = await client.request<{ thread: Thread }>('thread/read', { threadId: a })
    expect(read.thread).toMatchObject({ id: a, status: { type: 'idle' }, preview: 'first', turns: [] })
    const withTurns = (await client.request<{ thread: Thread }>('thread/read', { threadId: a, includeTurns: true })).thread
    expect(withTurns.turns.map((turn) => [turn.id, turn.status, turn.itemsView, kinds(turn.items)])).toEqual([
      [t1.id, 'completed', 'full', ['userMessage', 'agentMessage']],
      [t2.id, 'completed', 'full', ['userMessage', 'commandExecution', 'agentMessage']],
      [t3.id, 'completed', 'full', ['userMessage', 'agentMessage']],
    ])
    expect((await client.request<{ thread: Thread }>('thread/read', { threadId: c })).thread).toMatchObject({ id: c, preview: '' })
    await expect(client.request('thread/read', { threadId: MISSING })).rejects.toMatchObject({
      code: -32600,
      message: `thread not loaded: ${MISSING}`,
    })
    await expect(client.request('thread/read', { threadId: 'not a thread id' })).rejects.toMatchObject({
      code: -32600,
      message: expect.stringMatching(/^invalid thread id: /),
    })
    await expect(client.request('thread/read', {})).rejects.toMatchObject({ message: 'Invalid request: missing field `threadId`' })

    // thread/turns/list: newest first, summary items (the first user message, the last agent message).
    const turns = await client.request<Paged<WireTurn>>('thread/turns/list', { threadId: a })
    expect(turns.data.map((turn) => [turn.id, turn.itemsView, kinds(turn.items)])).toEqual([
      [t3.id, 'summary', ['userMessage', 'agentMessage']],
      [t2.id, 'summary', ['userMessage', 'agentMessage']],
      [t1.id, 'summary', ['userMessage', 'agentMessage']],
    ])
    expect(turns.nextCursor).toBeNull()
    const turnPage = (params: Record<string, unknown>) => client!.request<Paged<WireTurn>>('thread/turns/list', { threadId: a, ...params })
    const p1 = await turnPage({ limit: 1 })
    const p2 = await turnPage({ limit: 1, cursor: p1.nextCursor })
    const p3 = await turnPage({ limit: 1, cursor: p2.nextCursor })
    expect([p1, p2, p3].map((page) => page.data.map((turn) => turn.id))).toEqual([[t3.id], [t2.id], [t1.id]])
    expect(p3.nextCursor).toBeNull()
    // The backwards cursor includes its turn again.
    expect((await turnPage({ cursor: p2.backwardsCursor, sortDirection: 'asc' })).data.map((turn) => turn.id)).toEqual([t2.id, t3.id])
    const full = await turnPage({ limit: 2, sortDirection: 'asc', itemsView: 'full' })
    expect(full.data.map((turn) => [turn.id, turn.itemsView, kinds(turn.items)])).toEqual([
      [t1.id, 'full', ['userMessage', 'agentMessage']],
      [t2.id, 'full', ['userMessage', 'commandExecution', 'agentMessage']],
    ])
    expect((await turnPage({ itemsView: 'notLoaded' })).data.map((turn) => [turn.itemsView, turn.items])).toEqual([
      ['notLoaded', []],
      ['notLoaded', []],
      ['notLoaded', []],
    ])
    await expect(turnPage({ cursor: 'garbage' })).rejects.toMatchObject({ code: -32600, message: 'invalid cursor: garbage' })
    const otherThread = await client.request<Paged<WireTurn>>('thread/turns/list', { threadId: b })
    await expect(turnPage({ cursor: otherThread.backwardsCursor })).rejects.toMatchObject({
      message: expect.stringMatching(/^invalid cursor/),
    })
    await expect(client.request('thread/turns/list', { threadId: MISSING })).rejects.toMatchObject({
      code: -32600,
      message: `thread not loaded: ${MISSING}`,
    })

    // thread/items/list: oldest first across turns, or one turn's; an item of that turn as an exclusive anchor.
    const itemPage = (params: Record<string, unknown>) => client!.request<Paged<ItemEntry>>('thread/items/list', { threadId: a, ...params })
    const items = await itemPage({})
    expect(items.data.map((entry) => [entry.turnId, entry.item.type])).toEqual([
      [t1.id, 'userMessage'],
      [t1.id, 'agentMessage'],
      [t2.id, 'userMessage'],
      [t2.id, 'commandExecution'],
      [t2.id, 'agentMessage'],
      [t3.id, 'userMessage'],
      [t3.id, 'agentMessage'],
    ])
    expect(items.data.map((entry) => entry.item)).toEqual(withTurns.turns.flatMap((turn) => turn.items))
    expect(items.data[0]).toHaveProperty('startedAtMs')
    const i1 = await itemPage({ limit: 3 })
    const i2 = await itemPage({ limit: 3, cursor: i1.nextCursor })
    const i3 = await itemPage({ limit: 3, cursor: i2.nextCursor })
    expect([...i1.data, ...i2.data, ...i3.data]).toEqual(items.data)
    expect(i3.data).toHaveLength(1)
    expect(i3.nextCursor).toBeNull()
    expect((await itemPage({ cursor: i2.backwardsCursor, sortDirection: 'desc' })).data).toEqual(items.data.slice(0, 4).reverse())
    expect((await itemPage({ limit: 2, sortDirection: 'desc' })).data).toEqual(items.data.slice(5).reverse())
    const ofTurn2 = await itemPage({ turnId: t2.id })
    expect(kinds(ofTurn2.data.map((entry) => entry.item))).toEqual(['userMessage', 'commandExecution', 'agentMessage'])
    const command = ofTurn2.data[1]!.item
    expect((await itemPage({ turnId: t2.id, cursor: { type: 'item', itemId: command.id } })).data).toEqual([ofTurn2.data[2]])
    expect((await itemPage({ turnId: t2.id, cursor: { type: 'item', itemId: command.id }, sortDirection: 'desc' })).data).toEqual([
      ofTurn2.data[0],
    ])
    await expect(itemPage({ cursor: { type: 'item', itemId: command.id } })).rejects.toMatchObject({
      code: -32600,
      message: 'an item cursor needs a turnId',
    })
    await expect(itemPage({ turnId: 'nope' })).rejects.toMatchObject({ code: -32600, message: 'turn not found: nope' })
    await expect(itemPage({ cursor: p1.nextCursor })).rejects.toMatchObject({ message: expect.stringMatching(/^invalid cursor/) })
    await expect(client.request('thread/items/list', { threadId: MISSING })).rejects.toMatchObject({
      message: `thread not loaded: ${MISSING}`,
    })

    // After a restart nothing is loaded: the store still lists, reads and pages every thread.
    await client.close()
    client = server.restart().client
    await client.initialize()
    expect(await client.request('thread/loaded/list', {})).toEqual({ data: [], nextCursor: null })
    const afterRestart = await list(client)
    expect(afterRestart.data.map((thread) => [thread.id, thread.status])).toEqual([
      [b, { type: 'notLoaded' }],
      [a, { type: 'notLoaded' }],
    ])
    expect(afterRestart.data[1]).toMatchObject({ preview: 'first', createdAt: listedA!.createdAt, cwd: server.dir })
    const readAgain = (await client.request<{ thread: Thread }>('thread/read', { threadId: a, includeTurns: true })).thread
    expect(readAgain).toMatchObject({ id: a, status: { type: 'notLoaded' } })
    expect(readAgain.turns).toEqual(withTurns.turns)
    expect((await client.request<Paged<WireTurn>>('thread/turns/list', { threadId: a })).data).toEqual(turns.data)
    expect((await client.request<Paged<ItemEntry>>('thread/items/list', { threadId: a })).data).toEqual(items.data)
  })
})

describe('thread/name/set, thread/archive, thread/unarchive', () => {
  it('names and archives threads, loaded or not', async () => {
    const server = startServer([{ text: 'one' }, { text: 'two' }, toolHeldUntilInterrupted])
    client = server.client
    await client.initialize()
    const a = (await client.startThread()).thread.id
    const b = (await client.startThread()).thread.id
    await runTurn(client, a, 'first')
    await runTurn(client, b, 'second')

    // A name: trimmed, announced after the answer, and in the thread's objects from then on.
    const since = client.received.length
    expect(await client.request('thread/name/set', { threadId: a, name: '  My  thread  ' })).toEqual({})
    expect(await client.waitFor('thread/name/updated')).toEqual({ threadId: a, threadName: 'My  thread' })
    expect(methods(client).slice(since)).toEqual([expect.stringMatching(/^response:/), 'thread/name/updated'])
    expect((await client.request<{ thread: Thread }>('thread/read', { threadId: a })).thread.name).toBe('My  thread')
    expect((await list(client)).data.map((thread) => [thread.id, thread.name])).toEqual([
      [b, null],
      [a, 'My  thread'],
    ])
    expect(ids(await list(client, { searchTerm: 'My ' }))).toEqual([a])
    await expect(client.request('thread/name/set', { threadId: a, name: '   ' })).rejects.toMatchObject({
      code: -32600,
      message: 'thread name must not be empty',
    })
    await expect(client.request('thread/name/set', { threadId: MISSING, name: 'x' })).rejects.toMatchObject({
      code: -32600,
      message: `no rollout found for thread id ${MISSING}`,
    })
    await expect(client.request('thread/name/set', { threadId: a })).rejects.toMatchObject({
      message: 'Invalid request: missing field `name`',
    })

    // Archiving a loaded thread unloads it first.
    const beforeArchive = client.received.length
    expect(await client.request('thread/archive', { threadId: a })).toEqual({})
    await client.waitFor('thread/archived', (params) => params.threadId === a)
    expect(methods(client).slice(beforeArchive)).toEqual(['thread/status/changed', expect.stringMatching(/^response:/), 'thread/archived'])
    expect(client.notifications.at(-2)).toEqual({ method: 'thread/status/changed', params: { threadId: a, status: { type: 'notLoaded' } } })
    expect((await client.request<{ data: string[] }>('thread/loaded/list', {})).data).toEqual([b])
    expect(ids(await list(client))).toEqual([b])
    const archived = await list(client, { archived: true })
    expect(archived.data.map((thread) => [thread.id, thread.status, thread.name])).toEqual([[a, { type: 'notLoaded' }, 'My  thread']])
    expect((await client.request<{ thread: Thread }>('thread/read', { threadId: a })).thread).toMatchObject({
      id: a,
      status: { type: 'notLoaded' },
    })
    await expect(client.request('thread/archive', { threadId: a })).rejects.toMatchObject({
      code: -32600,
      message: `no rollout found for thread id ${a}`,
    })
    await expect(client.request('thread/name/set', { threadId: a, name: 'x' })).rejects.toMatchObject({
      message: `no rollout found for thread id ${a}`,
    })
    await expect(client.request('thread/fork', { threadId: a })).rejects.toMatchObject({
      code: -32600,
      message: `session ${a} is archived. Unarchive it (thread/unarchive) first.`,
    })
    await expect(client.request('thread/archive', { threadId: MISSING })).rejects.toMatchObject({
      message: `no rollout found for thread id ${MISSING}`,
    })

    // Unarchiving: the thread (not loaded) is listed again.
    const beforeUnarchive = client.received.length
    const unarchived = await client.request<{ thread: Thread }>('thread/unarchive', { threadId: a })
    expect(unarchived.thread).toMatchObject({ id: a, status: { type: 'notLoaded' }, name: 'My  thread', preview: 'first', turns: [] })
    await client.waitFor('thread/unarchived', (params) => params.threadId === a)
    expect(methods(client).slice(beforeUnarchive)).toEqual([expect.stringMatching(/^response:/), 'thread/unarchived'])
    expect(ids(await list(client))).toEqual([b, a])
    await expect(client.request('thread/unarchive', { threadId: a })).rejects.toMatchObject({
      code: -32600,
      message: `no archived rollout found for thread id ${a}`,
    })
    await expect(client.request('thread/unarchive', { threadId: MISSING })).rejects.toMatchObject({
      message: `no archived rollout found for thread id ${MISSING}`,
    })

    // Archiving a thread with a running turn interrupts the turn before the thread unloads.
    const { turn } = await client.startTurn(b, 'long')
    await client.waitFor('item/started', (params) => params.threadId === b && (params.item as WireItem).type === 'commandExecution')
    expect(await client.request('thread/archive', { threadId: b })).toEqual({})
    const completed = client.notifications.find(
      (entry) => entry.method === 'turn/completed' && (entry.params.turn as WireTurn).id === turn.id,
    )
    expect(completed?.params.turn).toMatchObject({ status: 'interrupted' })
    expect(methods(client).indexOf('turn/completed', beforeUnarchive)).toBeLessThan(methods(client).lastIndexOf('thread/status/changed'))
    expect((await client.request<{ data: string[] }>('thread/loaded/list', {})).data).toEqual([])
    expect(ids(await list(client, { archived: true }))).toEqual([b])
  })
})

describe('thread/fork', () => {
  it('copies a thread through a turn into a new loaded thread, answered like thread/start', async () => {
    const server = startServer([{ text: 'one' }, { text: 'two' }, { text: 'three' }, toolHeldUntilInterrupted])
    client = server.client
    await client.initialize()
    const source = (await client.startThread()).thread.id
    const t1 = await runTurn(client, source, 'first')
    await runTurn(client, source, 'second')
    await client.request('thread/name/set', { threadId: source, name: 'Source' })
    // Its announcement may come in a later chunk than the answer: the fork's messages start after it.
    await client.waitFor('thread/name/updated')

    const since = client.received.length
    const forked = await client.request<Record<string, unknown> & { thread: Thread }>('thread/fork', {
      threadId: source,
      lastTurnId: t1.id,
    })
    const started = await client.waitFor('thread/started', (params) => (params.thread as Thread).id === forked.thread.id)
    expect(methods(client).slice(since)).toEqual([expect.stringMatching(/^response:/), 'thread/started'])
    const fork = forked.thread
    expect(fork.id).not.toBe(source)
    expect(fork.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/)
    expect(forked).toMatchObject({
      model: expect.any(String),
      modelProvider: expect.any(String),
      cwd: server.dir,
      approvalPolicy: 'on-request',
      sandbox: {
        type: 'workspaceWrite',
        writableRoots: [],
        networkAccess: false,
        excludeTmpdirEnvVar: false,
        excludeSlashTmp: false,
      },
      reasoningEffort: null,
    })
    expect(fork).toMatchObject({
      status: { type: 'idle' },
      forkedFromId: source,
      name: 'Source',
      preview: 'first',
      path: join(server.dir, '.harness/sessions', `${fork.id}.jsonl`),
    })
    expect(fork.turns.map((turn) => [turn.id, turn.status, kinds(turn.items)])).toEqual([
      [t1.id, 'completed', ['userMessage', 'agentMessage']],
    ])
    expect(started).toMatchObject({ thread: { id: fork.id, forkedFromId: source, turns: [] } })
    expect((await client.request<{ data: string[] }>('thread/loaded/list', {})).data).toEqual([source, fork.id].sort())

    // The fork goes on by itself: its model sees the copied turn only; the source keeps its two turns.
    const t3 = await runTurn(client, fork.id, 'third')
    expect(t3.status).toBe('completed')
    const request = server.requests().at(-1)!
    expect(request.sessionId).toBe(fork.id)
    expect(request.request.messages.map(text)).toEqual(['first', 'one', 'third'])
    expect((await client.request<Paged<WireTurn>>('thread/turns/list', { threadId: source })).data).toHaveLength(2)
    expect((await client.request<Paged<WireTurn>>('thread/turns/list', { threadId: fork.id })).data.map((turn) => turn.id)).toEqual([
      t3.id,
      t1.id,
    ])

    const whole = await client.request<{ thread: Thread }>('thread/fork', { threadId: source, excludeTurns: true })
    expect(whole.thread).toMatchObject({ forkedFromId: source, turns: [] })
    expect((await client.request<Paged<WireTurn>>('thread/turns/list', { threadId: whole.thread.id })).data).toHaveLength(2)

    await expect(client.request('thread/fork', { threadId: source, lastTurnId: 'nope' })).rejects.toMatchObject({
      code: -32600,
      message: 'turn not found: nope',
    })
    await expect(client.request('thread/fork', { threadId: MISSING })).rejects.toMatchObject({
      code: -32600,
      message: `no rollout found for thread id ${MISSING}`,
    })

    // A running turn: not a place to fork through; forking the whole thread snapshots it as interrupted.
    const { turn: running } = await client.startTurn(source, 'long')
    await client.waitFor('item/started', (params) => params.threadId === source && (params.item as WireItem).type === 'commandExecution')
    await expect(client.request('thread/fork', { threadId: source, lastTurnId: running.id })).rejects.toMatchObject({
      code: -32600,
      message: `lastTurnId '${running.id}' identifies an in-progress turn`,
    })
    const snapshot = await client.request<{ thread: Thread }>('thread/fork', { threadId: source })
    expect(snapshot.thread.turns.map((turn) => [turn.id, turn.status])).toEqual([
      [t1.id, 'completed'],
      [expect.any(String), 'completed'],
      [running.id, 'interrupted'],
    ])
    expect(snapshot.thread.status).toEqual({ type: 'idle' })
    await client.interrupt(source, running.id)
    await client.turnCompleted(source, running.id)
  })
})

describe('thread/unsubscribe and thread/compact/start', () => {
  it('stops notifications for the thread, which unloads when idle with nobody subscribed', async () => {
    const server = startServer([toolHeldUntil('unsubscribed'), { text: 'done' }], {
      args: ['--unload-after-ms', '150'],
    })
    client = server.client
    await client.initialize()
    expect(await client.request('thread/unsubscribe', { threadId: MISSING })).toEqual({ status: 'notLoaded' })
    const { thread } = await client.startThread()

    // Unsubscribed while a turn runs: only `thread/status/changed` still reaches this connection, as every connection
    // gets it from Codex 0.171.0 (observed with two clients).
    const { turn } = await client.startTurn(thread.id, 'work')
    expect(await client.request('thread/unsubscribe', { threadId: thread.id })).toEqual({ status: 'unsubscribed' })
    expect(await client.request('thread/unsubscribe', { threadId: thread.id })).toEqual({ status: 'notSubscribed' })
    const since = client.notifications.length
    release(server, 'unsubscribed')
    await client.waitFor('thread/closed', (params) => params.threadId === thread.id)
    expect(client.notifications.slice(since)).toEqual([
      { method: 'thread/status/changed', params: { threadId: thread.id, status: { type: 'idle' } } },
      { method: 'thread/status/changed', params: { threadId: thread.id, status: { type: 'notLoaded' } } },
      { method: 'thread/closed', params: { threadId: thread.id } },
    ])
    // The turn ran to its end (the log says so) while the connection heard nothing of it.
    const turns = await client.request<Paged<WireTurn>>('thread/turns/list', { threadId: thread.id })
    expect(turns.data.map((entry) => [entry.id, entry.status])).toEqual([[turn.id, 'completed']])
    expect(client.notifications.some((entry) => entry.method === 'turn/completed')).toBe(false)
    expect((await client.request<{ data: string[] }>('thread/loaded/list', {})).data).toEqual([])
    expect((await client.request<{ thread: Thread }>('thread/read', { threadId: thread.id })).thread.status).toEqual({ type: 'notLoaded' })
    expect(await client.request('thread/unsubscribe', { threadId: thread.id })).toEqual({ status: 'notLoaded' })

    // thread/resume loads it and subscribes again.
    await client.resumeThread(thread.id)
    expect((await client.request<{ data: string[] }>('thread/loaded/list', {})).data).toEqual([thread.id])
    const other = (await client.startThread()).thread.id
    expect(await client.request('thread/unsubscribe', { threadId: thread.id })).toEqual({ status: 'unsubscribed' })
    await client.resumeThread(thread.id)
    // A thread unsubscribed later, with the same unload delay, unloads only after this one's delay has passed.
    expect(await client.request('thread/unsubscribe', { threadId: other })).toEqual({ status: 'unsubscribed' })
    await client.waitFor('thread/closed', (params) => params.threadId === other)
    expect((await client.request<{ data: string[] }>('thread/loaded/list', {})).data).toEqual([thread.id])
  })

  it('thread/compact/start: {} at once, then a turn of its own with a contextCompaction item; later requests start from the summary', async () => {
    const server = startServer([{ text: 'first reply' }, { text: 'THE SUMMARY' }, { text: 'after' }])
    client = server.client
    await client.initialize()
    const { thread } = await client.startThread()
    const first = await client.startTurn(thread.id, 'go')
    await client.turnCompleted(thread.id, first.turn.id)
    const since = client.notifications.length
    expect(await client.request('thread/compact/start', { threadId: thread.id })).toEqual({})
    const started = (await client.waitFor('turn/started', () => true, { since })) as { turn: { id: string } }
    const { turn } = await client.turnCompleted(thread.id, started.turn.id)
    expect(turn).toMatchObject({ status: 'completed', error: null })
    const shown = client.notifications
      .slice(since)
      .filter((entry) => entry.params.threadId === thread.id && entry.method !== 'thread/status/changed')
      .map((entry) => [
        entry.method,
        (entry.params.item as { type?: string } | undefined)?.type ?? (entry.params.turn as { id?: string })?.id,
      ])
    expect(shown).toEqual([
      ['turn/started', started.turn.id],
      ['item/started', 'contextCompaction'],
      ['item/completed', 'contextCompaction'],
      ['turn/completed', started.turn.id],
    ])
    const next = await client.startTurn(thread.id, 'and now')
    await client.turnCompleted(thread.id, next.turn.id)
    const last = server.requests().at(-1)!
    expect(last.request.messages.map((message) => message.content.map((block) => block.text ?? '').join(''))).toEqual([
      'This session continues a conversation that was summarized to fit the context window. The summary:\n\nTHE SUMMARY',
      'and now',
    ])
    await expect(client.request('thread/compact/start', { threadId: MISSING })).rejects.toMatchObject({
      code: -32600,
      message: `thread not found: ${MISSING}`,
    })
  })
})
