import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type ContentBlock,
  createKernel,
  definePlugin,
  defineTool,
  type Kernel,
  type Message,
  type ModelResponse,
  type Session,
  type SessionEvent,
  textOf,
} from '@harness-kernel/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type SubagentsOptions, subagents } from '../src/index.js'

/** What a conversation (named by its first user text) answers, given its tool outputs so far. */
type Reply = (state: { outputs: string[]; last: Message }) => ModelResponse

const text = (value: string): ModelResponse => ({ content: [{ type: 'text', text: value }] })
const call = (name: string, input: unknown, id = `call_${name}`): ModelResponse => ({ content: [{ type: 'tool_call', id, name, input }] })
const outputOf = (block: ContentBlock) => (block.type === 'tool_result' ? block.output : '')

const made: Kernel[] = []
afterEach(async () => {
  for (const kernel of made.splice(0)) await kernel.dispose()
})

function setup(replies: Record<string, Reply>, options: SubagentsOptions = {}) {
  const model = definePlugin({
    name: 'model',
    setup(kernel) {
      kernel.provide('model', {
        id: 'router',
        async generate(request) {
          const first = textOf(request.messages.find((message) => message.role === 'user') as Message)
          const reply = replies[first] ?? replies['*']
          if (!reply) throw new Error(`no reply for ${first}`)
          const outputs = request.messages.flatMap((message) => (message.role === 'tool' ? message.content.map(outputOf) : []))
          return reply({ outputs, last: request.messages.at(-1) as Message })
        },
      })
      kernel.registerTool(
        defineTool({
          name: 'work',
          description: 'Works.',
          inputSchema: z.object({}),
          execute: async () => ({ output: 'worked', isError: false }),
        }),
      )
      kernel.registerTool(
        defineTool({
          name: 'park',
          description: 'Waits until interrupted.',
          inputSchema: z.object({}),
          execute: (_input, { signal }) =>
            new Promise((resolve) => signal.addEventListener('abort', () => resolve({ output: 'stopped', isError: true }), { once: true })),
        }),
      )
    },
  })
  const dir = mkdtempSync(join(tmpdir(), 'hk-subagents-'))
  const kernel = createKernel([model, subagents(options)], { cwd: dir })
  made.push(kernel)
  return kernel
}

const events = (session: Session) =>
  readFileSync(session.transcriptPath, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
const links = (session: Session) =>
  events(session).filter((event): event is SessionEvent & { type: 'subagent/start' } => event.type === 'subagent/start')

/** Polls `condition` until it holds; fails after 10 s, a bound for a stuck test, never a measure of speed. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${condition}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

const foreground = (prompt: string, extra: Record<string, unknown> = {}) => ({
  description: 'sub job',
  prompt,
  run_in_background: false,
  ...extra,
})

describe("Claude Code's Agent tool", () => {
  it('runs the subagent in the foreground: its final text is the result, its log is its own and linked', async () => {
    const kernel = setup({
      main: ({ outputs }) => (outputs.length === 0 ? call('Agent', foreground('two steps')) : text(`main got: ${outputs[0]}`)),
      'two steps': ({ outputs }) => (outputs.length < 2 ? call('work', {}, `w${outputs.length}`) : text('child finished after 2')),
    })
    const session = await kernel.startSession()
    const result = await session.run('main')
    // Claude Code's note naming the tools the subagent used, then its final text.
    expect(result.lastAssistantMessage).toBe(
      'main got: <tools-used-before-summary>work</tools-used-before-summary>\nchild finished after 2',
    )
    const [link] = links(session)
    expect(link).toMatchObject({ callId: 'call_Agent', agentType: 'general-purpose' })
    expect(link?.agentId).toMatch(/^a[0-9a-f]{16}$/)
    const child = readFileSync(link?.transcriptPath as string, 'utf8')
    expect(child).toContain('child finished after 2')
    expect(child.trim().split('\n').at(-1)).toContain('"type":"session/end"')
  })

  it('halts a subagent at its step limit, and the parent gets an error naming it', async () => {
    const kernel = setup(
      {
        main: ({ outputs }) => (outputs.length === 0 ? call('Agent', foreground('forever')) : text(`main got: ${outputs[0]}`)),
        forever: ({ outputs }) => call('work', {}, `w${outputs.length}`),
      },
      { maxSteps: 3 },
    )
    const session = await kernel.startSession()
    await session.run('main')
    const toolResult = session.messages.find((message) => message.role === 'tool')?.content[0]
    expect(toolResult).toMatchObject({ isError: true })
    expect(outputOf(toolResult as ContentBlock)).toContain('limit of 3 model requests')
    const childEvents = readFileSync(links(session)[0]?.transcriptPath as string, 'utf8')
    expect(childEvents.match(/"type":"tool\/result"/g)).toHaveLength(3)
  })

  it('refuses an unknown subagent_type, isolation, and a subagent starting one of its own (maxDepth 1)', async () => {
    const kernel = setup({
      main: ({ outputs }) => {
        if (outputs.length === 0) return call('Agent', foreground('x', { subagent_type: 'nope' }), 'c1')
        if (outputs.length === 1) return call('Agent', foreground('x', { isolation: 'worktree' }), 'c2')
        if (outputs.length === 2) return call('Agent', foreground('nested'), 'c3')
        return text(outputs.join('\n---\n'))
      },
      nested: ({ outputs }) => (outputs.length === 0 ? call('Agent', foreground('deeper')) : text(`nested got: ${outputs[0]}`)),
    })
    const session = await kernel.startSession()
    const result = await session.run('main')
    const [unknown, isolation, nested] = (result.lastAssistantMessage ?? '').split('\n---\n')
    expect(unknown).toBe("Agent type 'nope' not found. Available agents: general-purpose")
    expect(isolation).toBe('isolation "worktree" is not supported by this harness')
    expect(nested).toBe(
      '<tools-used-before-summary>Agent</tools-used-before-summary>\nnested got: this agent is 1 level deep and may not start subagents (maxDepth 1)',
    )
    expect(links(session)).toHaveLength(1)
  })

  it('in the background (the default) answers at once, then the result comes back as a <task-notification> prompt', async () => {
    const kernel = setup({
      main: ({ outputs, last }) => {
        if (outputs.length === 0) return call('Agent', { description: 'sub job', prompt: 'bg' })
        if (textOf(last).startsWith('<task-notification>')) return text('main saw the notification')
        return text('main goes on')
      },
      bg: () => text('background result'),
    })
    const session = await kernel.startSession()
    const first = await session.run('main')
    expect(first.lastAssistantMessage).toBe('main goes on')
    const launched = session.messages.find((message) => message.role === 'tool')?.content[0] as ContentBlock
    expect(outputOf(launched)).toMatch(/^Async agent launched successfully\.\nagentId: a[0-9a-f]{16}\n/)
    await until(() => session.messages.some((message) => textOf(message).startsWith('<task-notification>')))
    await session.idle()
    const [link] = links(session)
    const notification = textOf(session.messages.find((message) => textOf(message).startsWith('<task-notification>')) as Message)
    expect(notification).toContain(`<task-id>${link?.agentId}</task-id>\n<tool-use-id>call_Agent</tool-use-id>`)
    expect(notification).toContain(
      '<status>completed</status>\n<summary>Agent "sub job" finished</summary>\n<result>background result</result>',
    )
    expect(session.messages.at(-1)).toMatchObject({ role: 'assistant' })
    expect(textOf(session.messages.at(-1) as Message)).toBe('main saw the notification')
  })

  it("the parent's interrupt stops a foreground subagent's turn, and the call ends as an error", async () => {
    const kernel = setup({
      main: ({ outputs }) => (outputs.length === 0 ? call('Agent', foreground('parks')) : text('unused')),
      parks: () => call('park', {}),
    })
    const session = await kernel.startSession()
    const running = session.run('main')
    await until(() => links(session).length === 1)
    const childPath = links(session)[0]?.transcriptPath as string
    await until(() => readFileSync(childPath, 'utf8').includes('"name":"park"'))
    session.interrupt('escape')
    expect((await running).status).toBe('interrupted')
    expect(readFileSync(childPath, 'utf8')).toMatch(/"type":"turn\/end"[^\n]*"status":"interrupted"/)
  })
})

describe("Codex's spawn_agent tools", () => {
  const spawnThenWait: Reply = ({ outputs }) => {
    if (outputs.length === 0) return call('spawn_agent', { message: 'sub task' })
    if (outputs.length === 1) return call('wait_agent', { targets: [JSON.parse(outputs[0] as string).agent_id] })
    return text(`main got: ${outputs[1]}`)
  }

  it('spawn_agent answers with the id and a nickname; wait_agent gives the final status with the message', async () => {
    const kernel = setup({ main: spawnThenWait, 'sub task': () => text('Sub done.') }, { tools: 'codex' })
    const session = await kernel.startSession()
    const result = await session.run('main')
    const [link] = links(session)
    expect(link?.agentId).toBe(link?.sessionId)
    expect(result.lastAssistantMessage).toBe(`main got: {"status":{"${link?.agentId}":{"completed":"Sub done."}},"timed_out":false}`)
    const spawned = session.messages.find((message) => message.role === 'tool')?.content[0] as ContentBlock
    expect(JSON.parse(outputOf(spawned))).toEqual({ agent_id: link?.agentId, nickname: 'Newton' })
  })

  it('wait_agent on an unknown id answers at once with not_found', async () => {
    const kernel = setup(
      {
        main: ({ outputs }) =>
          outputs.length === 0 ? call('wait_agent', { targets: ['nobody'], timeout_ms: 60_000 }) : text(outputs[0] as string),
      },
      { tools: 'codex' },
    )
    const session = await kernel.startSession()
    expect((await session.run('main')).lastAssistantMessage).toBe('{"status":{"nobody":"not_found"},"timed_out":false}')
  })

  it('close_agent ends a running subagent and answers with its status before', async () => {
    const kernel = setup(
      {
        main: ({ outputs }) => {
          if (outputs.length === 0) return call('spawn_agent', { message: 'parks' })
          if (outputs.length === 1) return call('close_agent', { target: JSON.parse(outputs[0] as string).agent_id })
          return text(`closed: ${outputs[1]}`)
        },
        parks: () => call('park', {}),
      },
      { tools: 'codex' },
    )
    const session = await kernel.startSession()
    const result = await session.run('main')
    expect(result.lastAssistantMessage).toBe('closed: {"previous_status":"running"}')
    // Closed while running: the parent is told `shutdown`, at its next request or before its next prompt.
    await session.run('main')
    const note = session.messages.find((message) => textOf(message).startsWith('<subagent_notification>'))
    expect(textOf(note as Message)).toBe(
      `<subagent_notification>\n{"agent_path":"${links(session)[0]?.agentId}","status":"shutdown"}\n</subagent_notification>`,
    )
    const child = readFileSync(links(session)[0]?.transcriptPath as string, 'utf8')
    expect(child).toMatch(/"type":"turn\/end"[^\n]*"status":"interrupted"/)
    expect(child.trim().split('\n').at(-1)).toContain('"type":"session/end"')
  })

  it('send_input gives a finished subagent another turn; the parent is told of a subagent once, as Codex does', async () => {
    const kernel = setup(
      {
        main: ({ outputs, last }) => {
          const id = outputs[0] === undefined ? '' : JSON.parse(outputs[0]).agent_id
          if (outputs.length === 0) return call('spawn_agent', { message: 'sub task' })
          if (outputs.length === 1) return call('wait_agent', { targets: [id] })
          if (outputs.length === 2) return call('send_input', { target: id, message: 'more' })
          if (outputs.length === 3) return call('wait_agent', { targets: [id] }, 'call_wait_2')
          return text(last.role === 'tool' ? 'waited twice' : 'noted')
        },
        'sub task': ({ last }) => text(textOf(last) === 'more' ? 'More done.' : 'Sub done.'),
      },
      { tools: 'codex' },
    )
    const session = await kernel.startSession()
    await session.run('main')
    const outputs = session.messages
      .filter((message) => message.role === 'tool')
      .map((message) => outputOf(message.content[0] as ContentBlock))
    expect(JSON.parse(outputs[2] as string)).toEqual({ submission_id: expect.stringMatching(/^[0-9a-f-]{36}$/) })
    expect(outputs[3]).toMatch(/^\{"status":\{"[^"]+":\{"completed":"More done\."\}\},"timed_out":false\}$/)
    const notes = session.messages.filter((message) => textOf(message).startsWith('<subagent_notification>'))
    expect(notes.map((note) => JSON.parse(textOf(note).split('\n')[1] as string).status)).toEqual([{ completed: 'Sub done.' }])
    // It came while the parent's turn ran: steered in as input the harness added, which runs no Codex prompt hook.
    expect(notes[0]).toMatchObject({ role: 'user', meta: { origin: 'harness' } })
  })

  it('answers unknown or closed agents as Codex does, with errors that are no results', async () => {
    const kernel = setup(
      {
        main: ({ outputs }) => {
          if (outputs.length === 0) return call('wait_agent', { targets: [] }, 'w0')
          if (outputs.length === 1) return call('close_agent', { target: 'nobody' }, 'c0')
          if (outputs.length === 2) return call('send_input', { target: 'nobody', message: 'hi' }, 's0')
          return text(outputs.join(' | '))
        },
      },
      { tools: 'codex' },
    )
    const session = await kernel.startSession()
    expect((await session.run('main')).lastAssistantMessage).toBe(
      'agent ids must be non-empty | agent with id nobody not found | agent with id nobody not found',
    )
  })
})
