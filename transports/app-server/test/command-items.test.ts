import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppServerClient } from '../src/client.js'
import { methods, startServer } from './harness.js'
import { codexSchema } from './support/codex-schema.js'

// Every message the servers sent could have come from Codex 0.169.0 and 0.171.0 (their schemas; documented extensions aside).
afterEach(() => {
  expect(codexSchema.take()).toEqual([])
})

const clients: AppServerClient[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

const shell = (command: string, id = 'call_sh') => ({ tool_calls: [{ name: 'shell', input: { command }, id }] })
type Item = { type: string; id: string; [key: string]: unknown }
const item = (params: Record<string, unknown>) => params.item as Item

/** Each message's method, with its item type for item notifications (`item/completed:commandExecution`). */
const wire = (client: AppServerClient, since = 0) =>
  methods(client)
    .slice(since)
    .map((method, index) => {
      const params = client.received[since + index]?.params as Record<string, unknown> | undefined
      return params?.item ? `${method}:${item(params).type}` : method
    })

async function turn(client: AppServerClient, prompt = 'go') {
  await client.initialize()
  const { thread } = await client.startThread()
  const started = await client.startTurn(thread.id, prompt)
  return { threadId: thread.id, turnId: started.turn.id }
}

describe('commandExecution items (codex-app-server.md §4.2, §5)', () => {
  it('streams the shell’s output as outputDelta, then completes with its exit code, before PostToolUse runs', async () => {
    // Each line is printed once the one before has reached the client (acknowledged by a file).
    const after = (ack: string) => `until [ -e ${ack} ]; do sleep 0.01; done`
    const command = `echo hi; ${after('got-hi')}; echo err >&2; ${after('got-err')}; echo more; exit 3`
    const server = startServer([shell(command), { text: 'it failed' }])
    const { client } = server
    clients.push(client)
    const { threadId, turnId } = await turn(client)
    const seen: number[] = []
    for (const line of ['hi', 'err']) {
      await client.waitFor('item/commandExecution/outputDelta', (params) => params.delta === `${line}\n`)
      seen.push(Date.now())
      writeFileSync(join(server.dir, `got-${line}`), '')
    }
    await client.turnCompleted(threadId, turnId)

    const deltas = client.notifications.filter((entry) => entry.method === 'item/commandExecution/outputDelta')
    expect(deltas.map((entry) => entry.params)).toEqual([
      { threadId, turnId, itemId: 'call_sh', delta: 'hi\n' },
      { threadId, turnId, itemId: 'call_sh', delta: 'err\n' },
      { threadId, turnId, itemId: 'call_sh', delta: 'more\n' },
    ])
    const started = client.notifications.find((entry) => entry.method === 'item/started' && item(entry.params).id === 'call_sh')!
    const completed = client.notifications.find((entry) => entry.method === 'item/completed' && item(entry.params).id === 'call_sh')!
    expect(item(started.params)).toMatchObject({ status: 'inProgress', exitCode: null, aggregatedOutput: null, completedAtMs: null })
    expect(item(completed.params)).toMatchObject({
      type: 'commandExecution',
      command: `/bin/bash -c '${command}'`,
      commandActions: [{ type: 'unknown', command }],
      status: 'failed',
      exitCode: 3,
      aggregatedOutput: 'hi\nerr\nmore\n',
      startedAtMs: item(started.params).startedAtMs,
      completedAtMs: completed.params.completedAtMs,
    })
    const { durationMs, startedAtMs, completedAtMs } = item(completed.params) as unknown as Record<string, number>
    // The command started before its first line arrived and finished after its last acknowledgement.
    expect(startedAtMs).toBeLessThanOrEqual(seen[0]!)
    expect(completedAtMs).toBeGreaterThanOrEqual(seen[1]!)
    expect(completedAtMs! - startedAtMs!).toBe(durationMs)

    // Codex's order: the deltas, the item's completion, then the PostToolUse hook run.
    const order = wire(client).filter((entry) => entry.includes('commandExecution') || entry.startsWith('hook/'))
    expect(order).toEqual([
      'hook/started',
      'hook/completed',
      'item/started:commandExecution',
      'item/commandExecution/outputDelta',
      'item/commandExecution/outputDelta',
      'item/commandExecution/outputDelta',
      'item/completed:commandExecution',
      'hook/started',
      'hook/completed',
      'hook/started',
      'hook/completed',
    ])
    const hooks = client.notifications.filter((entry) => entry.method === 'hook/completed')
    expect(hooks.map((entry) => (entry.params.run as { eventName: string }).eventName)).toEqual(['sessionStart', 'postToolUse', 'stop'])
    // The model saw the tool's own rendering, exit code included.
    const second = server.requests()[1]!.request.messages.at(-1)!
    expect(JSON.stringify(second)).toContain('[exit code: 3]')
  })

  it('a command that succeeds completes with exit code 0; thread/resume shows it from the log', async () => {
    const server = startServer([shell('printf ok'), { text: 'done' }])
    const { client } = server
    clients.push(client)
    const { threadId, turnId } = await turn(client)
    await client.turnCompleted(threadId, turnId)
    const completed = client.notifications.find((entry) => entry.method === 'item/completed' && item(entry.params).id === 'call_sh')!
    expect(item(completed.params)).toMatchObject({ status: 'completed', exitCode: 0, aggregatedOutput: 'ok' })
    await client.close()

    const restarted = server.restart().client
    clients.push(restarted)
    await restarted.initialize()
    const { thread } = await restarted.resumeThread(threadId)
    const resumed = thread.turns[0]!.items.find((entry) => entry.type === 'commandExecution')!
    // The log keeps the tool's result text, not its exit code.
    expect(resumed).toMatchObject({ id: 'call_sh', status: 'completed', aggregatedOutput: 'ok', exitCode: null })
    expect(resumed.startedAtMs).toEqual(expect.any(Number))
    expect(resumed.completedAtMs).toEqual(expect.any(Number))
  })

  it('turn/interrupt during a command: no PostToolUse, no item/completed before the answer; the item completes after turn/completed', async () => {
    const server = startServer([shell('echo started; sleep 30'), { text: 'never' }])
    const { client } = server
    clients.push(client)
    const { threadId, turnId } = await turn(client)
    await client.waitFor('item/commandExecution/outputDelta')
    const since = client.received.length
    await client.interrupt(threadId, turnId)
    const completed = await client.waitFor('item/completed', (params) => item(params).id === 'call_sh')
    expect(wire(client, since)).toEqual([
      expect.stringMatching(/^response:/),
      'thread/status/changed',
      'turn/completed',
      'item/completed:commandExecution',
    ])
    const ended = client.notifications.find((entry) => entry.method === 'turn/completed')!
    expect(ended.params.turn).toMatchObject({ status: 'interrupted', items: [], itemsView: 'notLoaded' })
    expect(item(completed)).toMatchObject({ status: 'failed', aggregatedOutput: 'started\n', exitCode: null })
    const hooks = client.notifications.filter((entry) => entry.method === 'hook/completed')
    expect(hooks.map((entry) => (entry.params.run as { eventName: string }).eventName)).toEqual(['sessionStart'])
  })
})

describe('collabAgentToolCall items (the subagents plugin’s tools)', () => {
  it('the Agent tool: a spawnAgent item from this thread to the subagent’s, completed with its final message', async () => {
    const agent = { description: 'sub job', prompt: 'sub task', run_in_background: false }
    const server = startServer(
      [{ tool_calls: [{ name: 'Agent', input: agent, id: 'call_agent' }] }, { text: 'CHILD FINAL' }, { text: 'PARENT FINAL' }],
      {
        args: ['--subagents', 'claude-code'],
      },
    )
    const { client } = server
    clients.push(client)
    const { threadId, turnId } = await turn(client)
    await client.turnCompleted(threadId, turnId)
    const started = client.notifications.find((entry) => entry.method === 'item/started' && item(entry.params).id === 'call_agent')!
    const completed = client.notifications.find((entry) => entry.method === 'item/completed' && item(entry.params).id === 'call_agent')!
    expect(item(started.params)).toMatchObject({
      type: 'collabAgentToolCall',
      tool: 'spawnAgent',
      status: 'inProgress',
      senderThreadId: threadId,
      receiverThreadIds: [],
      prompt: 'sub task',
      agentsStates: {},
    })
    const done = item(completed.params)
    const [child] = done.receiverThreadIds as string[]
    expect(child).toMatch(/^[0-9a-f-]{36}$/)
    expect(child).not.toBe(threadId)
    expect(done).toMatchObject({
      status: 'completed',
      agentsStates: { [child as string]: { status: 'completed', message: 'CHILD FINAL' } },
    })
    // The subagent's own turn shows nothing on this thread: one commandExecution-free turn, its agent message last.
    expect(
      wire(client)
        .filter((entry) => entry.startsWith('item/'))
        .map((entry) => entry.split(':')[1]),
    ).toEqual(['userMessage', 'userMessage', 'collabAgentToolCall', 'collabAgentToolCall', 'agentMessage', 'agentMessage'])

    // The subagent's session is a thread of its own, a thread_spawn subagent of this one.
    const { thread: childThread } = (await client.request('thread/read', { threadId: child })) as { thread: Record<string, unknown> }
    expect(childThread).toMatchObject({
      id: child,
      parentThreadId: threadId,
      agentRole: 'general-purpose',
      source: { subAgent: { thread_spawn: { parent_thread_id: threadId, depth: 1, agent_role: 'general-purpose' } } },
      preview: 'sub task',
    })

    // thread/resume rebuilds the same item from the log.
    await client.close()
    const resumed = server.restart()
    clients.push(resumed.client)
    await resumed.client.initialize()
    const { thread } = (await resumed.client.request('thread/resume', { threadId })) as { thread: { turns: { items: Item[] }[] } }
    const rebuilt = thread.turns[0]?.items.find((entry) => entry.id === 'call_agent')
    expect(rebuilt).toMatchObject({
      type: 'collabAgentToolCall',
      receiverThreadIds: [child],
      agentsStates: { [child as string]: { status: 'completed', message: 'CHILD FINAL' } },
    })
  })

  it('wait_agent on an unknown agent: a wait item whose agent state is notFound', async () => {
    const server = startServer(
      [{ tool_calls: [{ name: 'wait_agent', input: { targets: ['nobody'] }, id: 'call_wait' }] }, { text: 'done' }],
      {
        args: ['--subagents', 'codex'],
      },
    )
    const { client } = server
    clients.push(client)
    const { threadId, turnId } = await turn(client)
    await client.turnCompleted(threadId, turnId)
    const completed = client.notifications.find((entry) => entry.method === 'item/completed' && item(entry.params).id === 'call_wait')!
    expect(item(completed.params)).toMatchObject({
      type: 'collabAgentToolCall',
      tool: 'wait',
      status: 'completed',
      receiverThreadIds: ['nobody'],
      agentsStates: { nobody: { status: 'notFound', message: null } },
    })
  })
})
