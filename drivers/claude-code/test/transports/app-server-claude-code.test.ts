import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AppServerClient, type AppServerClientOptions, type HostInputRequest } from '@harness-kernel/app-server'
import { type FakeAnthropic, mainRequests, newInput, startFakeAnthropic, waitUntil } from '@harness-kernel/testing'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { codexSchema } from '../../../../transports/app-server/test/support/codex-schema.js'
import { isolatedClaudeEnv } from '../support/claude-env.js'
import { readLog, toolDirective } from '../support/driver-harness.js'

/** The built CLI: `harness app-server --driver claude-code` runs as a real child process. */
const BIN = fileURLToPath(new URL('../../../../cli/dist/bin.js', import.meta.url))

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first with npx tsc -b`)
})

interface Running {
  client: AppServerClient
  server: FakeAnthropic
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

/** A fake Messages API, and the app server on the Claude Code driver pointed at it (private homes, no user settings). */
async function serve(options: AppServerClientOptions = {}): Promise<Running> {
  const server = await startFakeAnthropic()
  const dir = mkdtempSync(join(tmpdir(), 'hk-cc-app-server-'))
  const workspace = join(dir, 'workspace')
  mkdirSync(workspace)
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...isolatedClaudeEnv({ baseUrl: server.url, dir }),
    CODEX_HOME: join(dir, 'codex'),
    HARNESS_HOME: join(dir, 'harness'),
  }
  for (const name of ['HARNESS_MODEL', 'ANTHROPIC_MODEL', 'ANTHROPIC_AUTH_TOKEN']) delete env[name]
  const client = AppServerClient.spawn(process.execPath, [BIN, 'app-server', '--driver', 'claude-code'], {
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

/** The bound of a wait on a real Claude Code: its start and replies are slow on a loaded machine. */
const REAL = { timeoutMs: 60_000 }

/** Index of the first block that contains `text`. */
const indexOf = (blocks: string[], text: string) => blocks.findIndex((block) => block.includes(text))

const userItem = (text: string) => ({
  role: 'user' as const,
  authority: 'user' as const,
  content: [{ type: 'text' as const, text, text_elements: [] }],
})

function agentMessages(client: AppServerClient): string[] {
  return client.notifications
    .filter((entry) => entry.method === 'item/completed')
    .map((entry) => entry.params.item as { type: string; text?: string })
    .filter((item) => item.type === 'agentMessage')
    .map((item) => item.text ?? '')
}

describe('harness app-server --driver claude-code', () => {
  it('initialize names the driver, its live boundaries, and negotiates host input at them', async () => {
    const { client } = await serve()
    const result = await client.initialize({ hostInput: { boundaries: ['sampling', 'final', 'tool'], timeoutMs: 5_000 } })
    expect(result.driver).toEqual({ id: 'claude-code', boundaries: ['sampling', 'tool', 'final'], finalInputContinuesTurn: true })
    expect(result.hostInput).toEqual({ version: 1, boundaries: ['sampling', 'tool', 'final'], timeoutMs: 5_000, onTimeout: 'proceed' })
    // The kernel has no model of its own on this driver: threads name the driver.
    const started = await client.request<{ model: string; thread: { model: string } }>('thread/start', {})
    expect([started.model, started.thread.model]).toEqual(['claude-code', 'claude-code'])

    const { client: defaults } = await serve()
    const init = await defaults.initialize({ hostInput: {} })
    expect(init.hostInput?.boundaries).toEqual(['sampling', 'tool', 'final'])
    const { client: plain } = await serve()
    const none = await plain.initialize()
    expect(none.hostInput).toBeUndefined()
    expect(none.driver?.boundaries).toEqual(['sampling', 'tool', 'final'])
  })

  it('a turn/steer sent while a kernel tool runs is folded into the same turn, after the tool result', async () => {
    const { client, server, dir } = await serve()
    await client.initialize()
    const { thread } = await client.startThread()
    // The command finishes once the test has steered.
    const command = 'until [ -e steered ]; do sleep 0.02; done; echo done'
    const { turn } = await client.startTurn(thread.id, `Run it ${toolDirective('shell', { command })}`)
    // The shell call is recorded before it runs: the steer arrives while it is parked inside Claude Code.
    await client.waitFor('item/started', (params) => (params.item as { type?: string }).type === 'commandExecution', REAL)
    const steered = await client.steer(thread.id, turn.id, 'also check the docs', 'steer-1')
    expect(steered).toEqual({ turnId: turn.id })
    writeFileSync(join(dir, 'workspace', 'steered'), '')

    const completed = await client.turnCompleted(thread.id, turn.id, REAL.timeoutMs)
    expect(completed.turn.status).toBe('completed')

    const main = mainRequests(server)
    expect(main).toHaveLength(2)
    const blocks = newInput(main[1]!)
    const result = indexOf(blocks, 'output:done')
    const steer = indexOf(blocks, 'also check the docs')
    expect(result).toBeGreaterThanOrEqual(0)
    expect(steer).toBeGreaterThan(result)
    expect(blocks.filter((block) => block.includes('also check the docs'))).toHaveLength(1)

    expect(client.notifications.filter((entry) => entry.method === 'turn/completed')).toHaveLength(1)
    expect(client.notifications.some((entry) => entry.method === 'turn/steer/dropped')).toBe(false)
    const userMessages = client.notifications
      .filter((entry) => entry.method === 'item/completed')
      .map((entry) => entry.params.item as { type: string; clientId?: string | null; content?: { text?: string }[] })
      .filter((item) => item.type === 'userMessage')
    expect(userMessages.map((item) => item.clientId ?? null)).toEqual([null, 'steer-1'])
    expect(agentMessages(client).at(-1)).toMatch(/^FINAL reply to request #\d+$/)

    const events = readLog(thread.path)
    const steerMessages = events.filter(
      (event) => event.type === 'message' && event.message.content.some((b) => b.type === 'text' && b.text === 'also check the docs'),
    )
    expect(steerMessages).toHaveLength(1)
    expect(events.find((event) => event.type === 'steering/accepted' && event.itemIds.length > 0)).toMatchObject({
      transport: 'app-server',
      boundary: 'tool',
    })
    expect(events.filter((event) => event.type === 'turn/end')).toEqual([expect.objectContaining({ status: 'completed' })])
  }, 120_000)

  it('host input answered at the tool boundary is recorded once and reaches the model after the tool result', async () => {
    const asked: HostInputRequest[] = []
    const { client, server } = await serve({
      onHostInput: (request) => {
        asked.push(request)
        return { items: asked.length === 1 ? [userItem('the host adds this')] : [] }
      },
    })
    await client.initialize({ hostInput: {} })
    const { thread } = await client.startThread()
    const { turn } = await client.startTurn(thread.id, `Run it ${toolDirective('shell', { command: 'echo done' })}`)
    const completed = await client.turnCompleted(thread.id, turn.id, REAL.timeoutMs)
    expect(completed.turn.status).toBe('completed')

    // Asked at the tool boundary of the first response (wire steps count from 0), then at the answer's end; never at
    // the turn start.
    expect(asked).toEqual([
      { threadId: thread.id, turnId: turn.id, boundary: { kind: 'tool', step: 0 } },
      { threadId: thread.id, turnId: turn.id, boundary: { kind: 'final', step: 1 } },
    ])
    const requests = client.received.filter((message) => message.method === 'turn/hostInput/request')
    expect(requests.map((message) => (message.params as HostInputRequest).boundary.kind)).toEqual(['tool', 'final'])
    const accepted = await client.waitFor('turn/hostInput/accepted', () => true, REAL)
    expect(accepted).toMatchObject({ threadId: thread.id, turnId: turn.id, items: [{ index: 0, status: 'recorded' }] })

    const main = mainRequests(server)
    expect(main).toHaveLength(2)
    const blocks = newInput(main[1]!)
    expect(indexOf(blocks, 'the host adds this')).toBeGreaterThan(indexOf(blocks, 'output:done'))
    expect(indexOf(blocks, 'output:done')).toBeGreaterThanOrEqual(0)

    const hostItems = client.notifications
      .filter((entry) => entry.method === 'item/completed')
      .map((entry) => entry.params.item as { type: string })
      .filter((item) => item.type === 'hostInputMessage')
    expect(hostItems).toHaveLength(1)
    const recorded = readLog(thread.path).filter(
      (event) => event.type === 'message' && event.message.content.some((b) => b.type === 'text' && b.text === 'the host adds this'),
    )
    expect(recorded).toHaveLength(1)
    expect(client.notifications.filter((entry) => entry.method === 'turn/completed')).toHaveLength(1)
  }, 120_000)

  it('a turn/steer after the last tool boundary, while Claude Code waits for its answer, is admitted and continues the same turn', async () => {
    const { client, server } = await serve()
    await client.initialize()
    const { thread } = await client.startThread()
    // Every main reply is held 1.5 s: the steer is sent while Claude Code waits for the reply after the tool result.
    const prompt = `Run it ${toolDirective('shell', { command: 'echo done' })} [[slow:1500]]`
    const { turn } = await client.startTurn(thread.id, prompt)
    await client.waitFor('item/completed', (params) => (params.item as { type?: string }).type === 'commandExecution', REAL)
    // Claude Code has asked for the reply after the tool result: past the last tool boundary.
    await waitUntil(() => mainRequests(server).length === 2, 'the request after the tool result', { boundMs: REAL.timeoutMs })
    expect(await client.steer(thread.id, turn.id, 'one more thing', 'late-1')).toEqual({ turnId: turn.id })
    const completed = await client.turnCompleted(thread.id, turn.id, REAL.timeoutMs)
    expect(completed.turn.status).toBe('completed')
    expect(client.notifications.filter((entry) => entry.method === 'turn/completed')).toHaveLength(1)
    expect(client.notifications.some((entry) => entry.method === 'turn/steer/dropped')).toBe(false)
    // Claude Code ran it after that answer, by itself: the next request's only new input, once.
    const main = mainRequests(server)
    expect(main).toHaveLength(3)
    expect(newInput(main[2]!)).toEqual(['user:one more thing'])
    expect(JSON.stringify(main[2]!.body.messages).split('one more thing').length - 1).toBe(1)
    const events = readLog(thread.path)
    const recorded = events.filter(
      (event) => event.type === 'message' && event.message.content.some((b) => b.type === 'text' && b.text === 'one more thing'),
    )
    expect(recorded).toHaveLength(1)
    expect(events.filter((event) => event.type === 'turn/end')).toEqual([expect.objectContaining({ status: 'completed' })])
  }, 120_000)

  it('two tool calls of one response share one tool boundary: the host is asked once for that step (and once at the end)', async () => {
    const asked: HostInputRequest[] = []
    const { client, server } = await serve({
      onHostInput: (request) => {
        asked.push(request)
        return { items: [] }
      },
    })
    await client.initialize({ hostInput: {} })
    const { thread } = await client.startThread()
    const both = `[[tools:${JSON.stringify([
      { name: 'mcp__host__shell', input: { command: 'echo one' } },
      { name: 'mcp__host__shell', input: { command: 'echo two' } },
    ])}]]`
    const { turn } = await client.startTurn(thread.id, `Run both ${both}`)
    const completed = await client.turnCompleted(thread.id, turn.id, REAL.timeoutMs)
    expect(completed.turn.status).toBe('completed')
    expect(mainRequests(server)).toHaveLength(2)
    expect(asked.map((request) => `${request.boundary.kind}:${request.boundary.step}`)).toEqual(['tool:0', 'final:1'])
  }, 120_000)
})
