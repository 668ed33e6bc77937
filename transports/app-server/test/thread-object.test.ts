import { afterEach, describe, expect, it } from 'vitest'
import { SERVER_VERSION } from '../src/app-server.js'
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

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('threads as Codex shows them (codex-app-server.md §3)', () => {
  it('thread/start answers with every member of Codex’s Thread, and thread/started carries the same thread', async () => {
    const server = startServer([{ text: 'hi' }])
    const { client } = server
    clients.push(client)
    await client.initialize()
    const result = await client.request<{ thread: Record<string, unknown> } & Record<string, unknown>>('thread/start', { cwd: server.dir })
    const { thread } = result
    expect(thread.id).toMatch(UUID_V7)
    expect(thread).toEqual({
      id: thread.id,
      sessionId: thread.id,
      forkedFromId: null,
      parentThreadId: null,
      preview: '',
      ephemeral: false,
      historyMode: 'paginated',
      modelProvider: 'harness',
      model: 'scripted',
      reasoningEffort: null,
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
      recencyAt: thread.updatedAt,
      status: { type: 'idle' },
      path: expect.stringContaining(`${thread.id}.jsonl`),
      cwd: server.dir,
      cliVersion: SERVER_VERSION,
      originator: 'app-server-client',
      source: 'unknown',
      threadSource: null,
      agentNickname: null,
      agentRole: null,
      gitInfo: null,
      name: null,
      projectId: null,
      section: null,
      sectionEnteredAt: null,
      attachedToThreadId: null,
      canAcceptDirectInput: true,
      daybreakEnabled: null,
      environments: [{ environmentId: 'local', cwd: server.dir, runtimeWorkspaceRoots: [server.dir] }],
      extra: null,
      turns: [],
    })
    expect(Math.abs((thread.createdAt as number) - Date.now() / 1000)).toBeLessThan(5)
    expect(thread.updatedAt).toBeGreaterThanOrEqual(thread.createdAt as number)
    expect(result).toMatchObject({
      model: 'scripted',
      modelProvider: 'harness',
      cwd: server.dir,
      approvalPolicy: 'on-request',
      approvalsReviewer: 'user',
      sandbox: {
        type: 'workspaceWrite',
        writableRoots: [],
        networkAccess: false,
        excludeTmpdirEnvVar: false,
        excludeSlashTmp: false,
      },
      reasoningEffort: null,
      serviceTier: null,
      instructionSources: [],
      disabledPluginIds: [],
      runtimeWorkspaceRoots: [server.dir],
      activePermissionProfile: null,
      multiAgentMode: 'explicitRequestOnly',
    })
    expect(await client.waitFor('thread/started')).toEqual({ thread })
  })

  it('a cold thread/resume: deprecationNotice and thread/status/changed idle before the answer, the thread from its log', async () => {
    const server = startServer([{ text: 'hi' }])
    const first = server.client
    clients.push(first)
    await first.initialize()
    const { thread: started } = await first.startThread()
    const { turn } = await first.startTurn(started.id, 'the first prompt')
    await first.turnCompleted(started.id, turn.id)
    await first.close()

    const client = server.restart().client
    clients.push(client)
    await client.initialize()
    const since = client.received.length
    const resumed = await client.request<{ thread: Record<string, unknown> } & Record<string, unknown>>('thread/resume', {
      threadId: started.id,
    })
    expect(methods(client).slice(since)).toEqual(['deprecationNotice', 'thread/status/changed', expect.stringMatching(/^response:/)])
    expect(client.notifications.find((entry) => entry.method === 'thread/status/changed')?.params).toEqual({
      threadId: started.id,
      status: { type: 'idle' },
    })
    expect(resumed.thread).toMatchObject({
      id: started.id,
      sessionId: started.id,
      preview: 'the first prompt',
      cliVersion: SERVER_VERSION,
      source: 'unknown',
      status: { type: 'idle' },
    })
    expect(resumed.approvalsReviewer).toBe('user')
    expect((resumed.thread.turns as { id: string }[]).map((entry) => entry.id)).toEqual([turn.id])

    // Loaded now: resuming again (without its turns) changes no status and deprecates nothing.
    const again = client.received.length
    await client.request('thread/resume', { threadId: started.id, excludeTurns: true })
    expect(methods(client).slice(again)).toEqual([expect.stringMatching(/^response:/)])
  })
})
