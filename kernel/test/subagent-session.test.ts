import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  createKernel,
  defineTool,
  type KernelApi,
  KernelError,
  type Message,
  type ModelProvider,
  rootSession,
  type Session,
  type SessionEvent,
  type SubagentPayload,
  type TurnResult,
  textOf,
} from '../src/index.js'
import { plugin, tempDir } from './helpers.js'
import { waitUntil } from './support/waits.js'

const firstUserText = (messages: readonly Message[]) => textOf(messages.find((message) => message.role === 'user') as Message)

/**
 * The parent (first prompt `delegate: X`) calls `delegate` once and then answers with what it got; a subagent (first
 * prompt `sub: X`) calls `work` while its prompt asks for `calls:N`, then answers `done X`; `park` waits for the turn's
 * signal. Continuation prompts (`again`) get `again done`.
 */
const model: ModelProvider = {
  id: 'tree',
  async generate(request) {
    const first = firstUserText(request.messages)
    const last = request.messages.at(-1) as Message
    if (last.role === 'user' && textOf(last) === 'again') return { content: [{ type: 'text', text: 'again done' }] }
    const tools = request.messages.filter((message) => message.role === 'tool').length
    if (first.startsWith('delegate: ')) {
      if (tools === 0) return { content: [{ type: 'tool_call', id: 'call_d', name: 'delegate', input: { task: first.slice(10) } }] }
      const block = last.content.find((part) => part.type === 'tool_result')
      return { content: [{ type: 'text', text: `parent got ${block?.type === 'tool_result' ? block.output : ''}` }] }
    }
    const wanted = Number(/calls:(\d+)/.exec(first)?.[1] ?? 0)
    if (first.includes('park') && tools === 0) return { content: [{ type: 'tool_call', id: 'call_p', name: 'park', input: {} }] }
    if (tools < wanted) return { content: [{ type: 'tool_call', id: `call_${tools}`, name: 'work', input: {} }] }
    return { content: [{ type: 'text', text: `done ${first}` }] }
  },
}

function setup(options: { continueOnce?: boolean } = {}) {
  const seen = {
    starts: [] as SubagentPayload[],
    stops: [] as SubagentPayload[],
    turnStops: [] as string[],
    sessionStarts: [] as string[],
    children: [] as Session[],
    results: [] as TurnResult[],
  }
  let api: KernelApi | undefined
  const base = plugin('base', (kernel) => {
    api = kernel
    kernel.provide('model', model)
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
          new Promise((resolve) => signal.addEventListener('abort', () => resolve({ output: 'stopped', isError: true }))),
      }),
    )
    kernel.registerTool(
      defineTool({
        name: 'delegate',
        description: 'Runs a subagent.',
        inputSchema: z.object({ task: z.string() }),
        async execute({ task }, { session, callId, signal }) {
          const child = await kernel.startSubagent({ parent: session, agent: { type: 'worker' }, callId })
          seen.children.push(child)
          signal.addEventListener('abort', () => child.interrupt('parent tool aborted'))
          const result = await child.run(`sub: ${task}`)
          seen.results.push(result)
          return { output: result.lastAssistantMessage ?? '(nothing)', isError: result.status !== 'completed' }
        },
      }),
    )
    kernel.hooks.subagentStart.tap('probe', (payload) => {
      seen.starts.push(payload)
    })
    let continued = false
    kernel.hooks.subagentStop.tap('probe', (decision, payload) => {
      seen.stops.push(payload)
      if (!options.continueOnce || continued) return decision
      continued = true
      return { kind: 'continue', messages: [{ role: 'user', content: [{ type: 'text', text: 'again' }], source: { kind: 'user' } }] }
    })
    kernel.hooks.turnStopping.tap('probe', (decision, { session }) => {
      seen.turnStops.push(session.id)
      return decision
    })
    kernel.hooks.sessionStart.tap('probe', ({ session }) => {
      seen.sessionStarts.push(session.id)
    })
  })
  const kernel = createKernel([base], { cwd: tempDir() })
  return { kernel, seen, api: () => api as KernelApi }
}

const events = (path: string) =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)

describe('kernel.startSubagent', () => {
  it("runs a child session with its own log, linked both ways, and the child's text comes back", async () => {
    const { kernel, seen } = setup()
    const parent = await kernel.startSession()
    const result = await parent.run('delegate: calls:2')
    expect(result.lastAssistantMessage).toBe('parent got done sub: calls:2')
    const [child] = seen.children as [Session]
    expect(child.id).not.toBe(parent.id)
    expect(child.parent?.session).toBe(parent)
    expect(child.parent?.agent).toEqual({ id: child.id, type: 'worker' })
    expect(rootSession(child)).toBe(parent)
    expect(child.transcriptPath).not.toBe(parent.transcriptPath)

    const link = events(parent.transcriptPath).find((event) => event.type === 'subagent/start')
    expect(link).toMatchObject({
      callId: 'call_d',
      agentId: child.id,
      agentType: 'worker',
      sessionId: child.id,
      transcriptPath: child.transcriptPath,
    })
    const childEvents = events(child.transcriptPath)
    expect(childEvents[0]).toMatchObject({
      type: 'session/start',
      sessionId: child.id,
      parent: { sessionId: parent.id, agentId: child.id, agentType: 'worker', callId: 'call_d' },
    })
    expect(childEvents.filter((event) => event.type === 'tool/result')).toHaveLength(2)
    // The child ran in its own log; the parent's holds its own turn only.
    expect(events(parent.transcriptPath).filter((event) => event.type === 'tool/result')).toHaveLength(1)
    await kernel.dispose()
  })

  it('fires agent/subagent-start at the first turn and agent/subagent-stop in place of agent/turn-stopping', async () => {
    const { kernel, seen } = setup()
    const parent = await kernel.startSession()
    await parent.run('delegate: calls:1')
    const [child] = seen.children as [Session]
    await child.run('again')
    expect(seen.sessionStarts).toEqual([parent.id])
    expect(seen.starts).toHaveLength(1)
    expect(seen.starts[0]?.session).toBe(child)
    expect(seen.starts[0]?.agent).toEqual({ id: child.id, type: 'worker' })
    const childTurns = events(child.transcriptPath).filter((event) => event.type === 'turn/start')
    expect(seen.starts[0]?.turn.id).toBe(childTurns[0]?.type === 'turn/start' ? childTurns[0].turnId : undefined)
    // Two child turns, two subagent stops; the parent's turn alone reaches agent/turn-stopping.
    expect(seen.stops.map((stop) => stop.session)).toEqual([child, child])
    expect(seen.stops.map((stop) => (stop as SubagentPayload & { lastAssistantMessage: string }).lastAssistantMessage)).toEqual([
      'done sub: calls:1',
      'again done',
    ])
    expect(seen.turnStops).toEqual([parent.id])
    await kernel.dispose()
  })

  it('agent/subagent-stop may continue the subagent', async () => {
    const { kernel, seen } = setup({ continueOnce: true })
    const parent = await kernel.startSession()
    const result = await parent.run('delegate: calls:0')
    expect(result.lastAssistantMessage).toBe('parent got again done')
    expect(seen.stops.map((stop) => (stop as SubagentPayload & { stopHookActive: boolean }).stopHookActive)).toEqual([false, true])
    await kernel.dispose()
  })

  it("the parent's interrupt interrupts the subagent's turn", async () => {
    const { kernel, seen } = setup()
    const parent = await kernel.startSession()
    const running = parent.run('delegate: park')
    await waitUntil(() => seen.children[0]?.messages.some((message) => message.role === 'assistant') === true, "the subagent's answer")
    parent.interrupt('user pressed escape')
    const result = await running
    expect(result.status).toBe('interrupted')
    expect(seen.results[0]?.status).toBe('interrupted')
    await kernel.dispose()
  })

  it('a subagent ends with its parent, and an ended parent starts none', async () => {
    const { kernel, seen, api } = setup()
    const parent = await kernel.startSession()
    await parent.run('delegate: calls:0')
    const [child] = seen.children as [Session]
    await parent.end('done')
    expect(events(child.transcriptPath).at(-1)).toMatchObject({ type: 'session/end', reason: 'parent ended: done' })
    await expect(api().startSubagent({ parent, agent: { type: 'worker' } })).rejects.toThrow(KernelError)
    await expect(api().startSubagent({ parent, agent: { type: 'worker' } })).rejects.toThrow(/is not an open session of this kernel/)
    await kernel.dispose()
  })
})
