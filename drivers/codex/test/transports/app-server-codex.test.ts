import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AppServerClient, type AppServerClientOptions, type HostInputRequest } from '@harness-kernel/app-server'
import { type FakeOpenAI, newInput, type RecordedRequest, startFakeOpenAI } from '@harness-kernel/testing'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { codexSchema } from '../../../../transports/app-server/test/support/codex-schema.js'
import { callDirective, readLog } from '../support/driver-harness.js'

// `harness app-server --driver codex`: a Codex App Server host drives the kernel, whose turns run inside the real
// Codex 0.169.0. Two App Servers in a row, both real child processes.
const BIN = fileURLToPath(new URL('../../../../cli/dist/bin.js', import.meta.url))

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first with npx tsc -b`)
})

interface Running {
  client: AppServerClient
  server: FakeOpenAI
  dir: string
}

const running: Running[] = []
afterEach(async () => {
  for (const { client, server, dir } of running.splice(0)) {
    await client.close()
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
  // Every message the servers sent could have come from Codex 0.169.0 and 0.171.0 (their schemas; documented extensions aside).
  expect(codexSchema.take()).toEqual([])
})

/** The bound of a wait on a real Codex: its start and replies are slow on a loaded machine. */
const REAL = { timeoutMs: 60_000 }

/** A fake Responses API, and the app server on the Codex driver pointed at it (private homes). */
async function serve(options: AppServerClientOptions = {}): Promise<Running> {
  const server = await startFakeOpenAI()
  const dir = mkdtempSync(join(tmpdir(), 'hk-codex-app-server-'))
  const workspace = join(dir, 'workspace')
  mkdirSync(workspace)
  mkdirSync(join(dir, 'home'))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: join(dir, 'home'),
    OPENAI_BASE_URL: server.baseURL,
    OPENAI_API_KEY: 'fake-key',
    CODEX_HOME: join(dir, 'codex'),
    HARNESS_HOME: join(dir, 'harness'),
  }
  delete env.HARNESS_MODEL
  const client = AppServerClient.spawn(process.execPath, [BIN, 'app-server', '--driver', 'codex', '--model', 'openai:gpt-5.1-codex'], {
    onReceive: codexSchema.onReceive,
    ...options,
    cwd: workspace,
    env,
    stderr: 'pipe',
  })
  const entry = { client, server, dir }
  running.push(entry)
  return entry
}

const userItem = (text: string) => ({
  role: 'user' as const,
  authority: 'user' as const,
  content: [{ type: 'text' as const, text, text_elements: [] }],
})

describe('harness app-server --driver codex', () => {
  it('initialize names the driver: live boundaries, and final-boundary input continues the turn', async () => {
    const { client } = await serve()
    const result = await client.initialize({ hostInput: { boundaries: ['sampling', 'final', 'tool'], timeoutMs: 5_000 } })
    expect(result.driver).toEqual({ id: 'codex', boundaries: ['sampling', 'tool', 'final'], finalInputContinuesTurn: true })
    expect(result.hostInput?.boundaries.slice().sort()).toEqual(['final', 'sampling', 'tool'])
  })

  it('a turn/steer sent while a kernel tool runs is folded into the same turn, after the tool output', async () => {
    const { client, server, dir } = await serve()
    await client.initialize()
    const { thread } = await client.startThread()
    // The command finishes once the test has steered.
    const command = 'until [ -e steered ]; do sleep 0.02; done; echo done'
    const { turn } = await client.startTurn(thread.id, `Run it ${callDirective('shell', { command })}`)
    await client.waitFor('item/started', (params) => (params.item as { type?: string }).type === 'commandExecution', REAL)
    const steered = await client.steer(thread.id, turn.id, 'also check the docs', 'steer-1')
    expect(steered).toEqual({ turnId: turn.id })
    writeFileSync(join(dir, 'workspace', 'steered'), '')

    const completed = await client.turnCompleted(thread.id, turn.id, REAL.timeoutMs)
    expect(completed.turn.status).toBe('completed')
    expect(server.requests).toHaveLength(2)
    expect(newInput(server.requests[1] as RecordedRequest)).toEqual(['output:done', 'user:also check the docs'])
    expect(client.notifications.filter((entry) => entry.method === 'turn/completed')).toHaveLength(1)
    expect(client.notifications.some((entry) => entry.method === 'turn/steer/dropped')).toBe(false)
    const userMessages = client.notifications
      .filter((entry) => entry.method === 'item/completed')
      .map((entry) => entry.params.item as { type: string; clientId?: string | null })
      .filter((item) => item.type === 'userMessage')
    expect(userMessages.map((item) => item.clientId ?? null)).toEqual([null, 'steer-1'])

    const events = readLog(thread.path)
    const steerMessages = events.filter(
      (event) => event.type === 'message' && event.message.content.some((b) => b.type === 'text' && b.text === 'also check the docs'),
    )
    expect(steerMessages).toHaveLength(1)
    expect(events.find((event) => event.type === 'steering/accepted' && event.itemIds.length > 0)).toMatchObject({
      transport: 'app-server',
    })
    expect(events.filter((event) => event.type === 'turn/end')).toEqual([expect.objectContaining({ status: 'completed' })])
  }, 120_000)

  it('host input answered at the tool boundary is recorded once and reaches the model right after the tool output', async () => {
    const asked: HostInputRequest[] = []
    const { client, server } = await serve({
      onHostInput: (request) => {
        asked.push(request)
        return { items: request.boundary.kind === 'tool' ? [userItem('the host adds this')] : [] }
      },
    })
    await client.initialize({ hostInput: {} })
    const { thread } = await client.startThread()
    const { turn } = await client.startTurn(thread.id, `Run it ${callDirective('shell', { command: 'echo done' })}`)
    const completed = await client.turnCompleted(thread.id, turn.id, REAL.timeoutMs)
    expect(completed.turn.status).toBe('completed')

    // Asked at each boundary Codex reached (wire steps count from 0): the parked call, the sampling after its output,
    // the final answer; never at the turn start.
    expect(asked.map((request) => `${request.boundary.kind}:${request.boundary.step}`)).toEqual(['tool:0', 'sampling:1', 'final:1'])
    expect(asked[0]).toEqual({ threadId: thread.id, turnId: turn.id, boundary: { kind: 'tool', step: 0 } })
    const accepted = await client.waitFor('turn/hostInput/accepted', (params) => (params.items as unknown[]).length > 0, REAL)
    expect(accepted).toMatchObject({ threadId: thread.id, turnId: turn.id, items: [{ index: 0, status: 'recorded' }] })
    expect(newInput(server.requests[1] as RecordedRequest)).toEqual(['output:done', 'user:the host adds this'])
    const recorded = readLog(thread.path).filter(
      (event) => event.type === 'message' && event.message.content.some((b) => b.type === 'text' && b.text === 'the host adds this'),
    )
    expect(recorded).toHaveLength(1)
    expect(client.notifications.filter((entry) => entry.method === 'turn/completed')).toHaveLength(1)
  }, 120_000)
})
