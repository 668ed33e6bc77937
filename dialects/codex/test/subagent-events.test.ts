import { readFileSync } from 'node:fs'
import { definePlugin, type Message, type ModelProvider, type Session, type SessionEvent, textOf } from '@harness-kernel/kernel'
import { subagents } from '@harness-kernel/subagents'
import { describe, expect, it } from 'vitest'
import { codexHarnessPerTest, rec } from './codex-harness.js'
import { waitUntil } from './waits.js'

const harness = codexHarnessPerTest()

/**
 * Codex 0.169.0's s01-subagent case, as a model: the main session (`run the tool`) calls `spawn_agent`, then answers
 * `Root done.`; the subagent (`sub task: run echo`) runs `echo from-sub`, then answers `Sub done.`.
 */
const routingModel: ModelProvider = {
  id: 'gpt-5.1-codex',
  async generate(request) {
    const first = textOf(request.messages.find((message) => message.role === 'user') as Message)
    const tools = request.messages.filter((message) => message.role === 'tool').length
    if (first === 'run the tool') {
      if (tools === 0)
        return { content: [{ type: 'tool_call', id: 'call_root_0', name: 'spawn_agent', input: { message: 'sub task: run echo' } }] }
      return { content: [{ type: 'text', text: 'Root done.' }] }
    }
    if (tools === 0) return { content: [{ type: 'tool_call', id: 'call_sub_0', name: 'shell', input: { command: 'echo from-sub' } }] }
    return { content: [{ type: 'text', text: 'Sub done.' }] }
  },
}
const model = definePlugin({
  name: 'routing-model',
  replaces: ['scripted-model'],
  setup: (kernel) => kernel.provide('model', routingModel),
})

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'SubagentStart', 'SubagentStop', 'Stop']
const hooks = Object.fromEntries(EVENTS.map((event) => [event, [{ hooks: [rec(event)] }]]))

/** After the subagent's turn ended (its SubagentStop has run): its notification is then with the parent. */
async function subagentFinished(session: Session): Promise<void> {
  const childLog = () =>
    (
      readFileSync(session.transcriptPath, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as SessionEvent)
        .find((event) => event.type === 'subagent/start') as (SessionEvent & { type: 'subagent/start' }) | undefined
    )?.transcriptPath
  const log = await waitUntil(childLog, "the subagent's log")
  await waitUntil(() => readFileSync(log, 'utf8').includes('"type":"turn/end"'), "the subagent's turn to end")
  await new Promise((resolve) => setImmediate(resolve))
}

/** Checked against Codex 0.169.0 (`codex exec`, the s01-subagent case, 2 runs; the goldens of g-subagent). */
describe('a subagent (spawn_agent) runs Codex’s hooks with its payloads', () => {
  it('SubagentStart and the subagent’s turn events carry the main session id, the subagent’s turn and log, and agent_id/agent_type', async () => {
    const h = harness({ script: [], hooks, plugins: [model, subagents({ tools: 'codex' })] })
    const session = await h.kernel.startSession()
    const first = await session.run('run the tool')
    expect(first.lastAssistantMessage).toBe('Root done.')
    await subagentFinished(session)
    await session.run('second prompt')

    const payloads: Record<string, unknown>[] = h
      .calls()
      .map((call) => ({ event: call.event, ...(JSON.parse(call.stdin) as Record<string, unknown>) }))
    const link = readFileSync(session.transcriptPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as SessionEvent)
      .find((event) => event.type === 'subagent/start') as SessionEvent & { type: 'subagent/start' }
    const sub = payloads.filter((payload) => payload.agent_id !== undefined)
    const main = payloads.filter((payload) => payload.agent_id === undefined)
    expect(sub.map((payload) => [payload.event, payload.tool_name ?? ''])).toEqual([
      ['SubagentStart', ''],
      ['UserPromptSubmit', ''],
      ['PreToolUse', 'Bash'],
      ['PostToolUse', 'Bash'],
      ['SubagentStop', ''],
    ])
    expect(main.map((payload) => [payload.event, payload.tool_name ?? payload.prompt ?? ''])).toEqual([
      ['SessionStart', ''],
      ['UserPromptSubmit', 'run the tool'],
      ['PreToolUse', 'spawn_agent'],
      ['PostToolUse', 'spawn_agent'],
      ['Stop', ''],
      ['UserPromptSubmit', 'second prompt'],
      ['Stop', ''],
    ])
    for (const payload of payloads) expect(payload.session_id).toBe(session.id)
    const childTurn = sub[0]?.turn_id
    for (const payload of sub) {
      expect([payload.agent_id, payload.agent_type, payload.turn_id]).toEqual([link.agentId, 'default', childTurn])
      expect(payload.transcript_path).toBe(payload.event === 'SubagentStop' ? session.transcriptPath : link.transcriptPath)
    }
    expect(link.agentId).toBe(link.sessionId)
    const keys = (event: string, tool?: string) =>
      Object.keys(sub.find((payload) => payload.event === event && (tool === undefined || payload.tool_name === tool)) ?? {}).slice(1)
    expect(keys('SubagentStart')).toEqual([
      'session_id',
      'turn_id',
      'transcript_path',
      'cwd',
      'hook_event_name',
      'model',
      'permission_mode',
      'agent_id',
      'agent_type',
    ])
    expect(keys('UserPromptSubmit')).toEqual([
      'session_id',
      'turn_id',
      'agent_id',
      'agent_type',
      'transcript_path',
      'cwd',
      'hook_event_name',
      'model',
      'permission_mode',
      'prompt',
    ])
    expect(keys('SubagentStop')).toEqual([
      'session_id',
      'turn_id',
      'transcript_path',
      'agent_transcript_path',
      'cwd',
      'hook_event_name',
      'model',
      'permission_mode',
      'stop_hook_active',
      'agent_id',
      'agent_type',
      'last_assistant_message',
    ])
    const stop = sub.find((payload) => payload.event === 'SubagentStop')
    expect(stop).toMatchObject({ agent_transcript_path: link.transcriptPath, stop_hook_active: false, last_assistant_message: 'Sub done.' })
    // spawn_agent's response is its output text, as in Codex: `{"agent_id":…,"nickname":…}`.
    const spawned = main.find((payload) => payload.event === 'PostToolUse')
    expect(JSON.parse(spawned?.tool_response as string)).toEqual({ agent_id: link.agentId, nickname: 'Newton' })
    // The notification is an injected item (no UserPromptSubmit): at the main turn's next request, or, once that turn
    // has ended (the usual case here), just before the next prompt (Codex 0.169.0 over the App Server, 2 runs).
    const texts = session.messages.map((message) => `${message.role}:${textOf(message)}`)
    const notification = `user:<subagent_notification>\n{"agent_path":"${link.agentId}","status":{"completed":"Sub done."}}\n</subagent_notification>`
    expect(texts.filter((entry) => entry === notification)).toHaveLength(1)
    expect(texts.indexOf(notification)).toBeLessThan(texts.indexOf('user:second prompt'))
  })

  it('SubagentStart context goes into the subagent’s first request, before its prompt', async () => {
    const requests: Message[][] = []
    const recording = definePlugin({
      name: 'routing-model',
      replaces: ['scripted-model'],
      setup: (kernel) =>
        kernel.provide('model', {
          id: 'gpt-5.1-codex',
          generate: (request, options) => {
            requests.push(structuredClone(request.messages))
            return routingModel.generate(request, options)
          },
        } satisfies ModelProvider),
    })
    const h = harness({
      script: [],
      hooks: { SubagentStart: [{ hooks: [rec('SubagentStart')] }] },
      responses: {
        'SubagentStart-h.stdout': JSON.stringify({
          hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'SUBSTART-CTX' },
        }),
      },
      plugins: [recording, subagents({ tools: 'codex' })],
    })
    const session = await h.kernel.startSession()
    await session.run('run the tool')
    await subagentFinished(session)
    const child = requests.find((messages) => messages.some((message) => textOf(message) === 'sub task: run echo')) ?? []
    const texts = child.map((message) => `${message.role}:${textOf(message)}`)
    expect(texts.indexOf('developer:SUBSTART-CTX')).toBeGreaterThanOrEqual(0)
    expect(texts.indexOf('developer:SUBSTART-CTX')).toBeLessThan(texts.indexOf('user:sub task: run echo'))
  })
})
