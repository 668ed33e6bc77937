/**
 * codex-hooks.md §11, "Payloads" (items 45–56), end to end: the stdin each real hook process receives when the kernel
 * fires the event, checked against the payloads captured from Codex 0.169.0 (fixtures/golden/). The kernel's own loop
 * neither compacts nor spawns subagents, so those four events are fired on the kernel's hooks, as a plugin would.
 */
import { readFileSync } from 'node:fs'
import { definePlugin, type KernelApi, type SessionEvent, textOf } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { CODEX_EVENTS } from '../src/index.js'
import { codexHarnessPerTest, hookRuns, interrupter, rec } from './codex-harness.js'

const setup = codexHarnessPerTest()
const signal = new AbortController().signal

const golden = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/golden/${name}.json`, import.meta.url), 'utf8'))
/** Key names and order, recursively, and each value's JSON type. */
const shape = (value: unknown): unknown => {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'object') return Object.entries(value as object).map(([key, inner]) => [key, shape(inner)])
  return typeof value
}

/** The kernel's approval point for every shell call: PermissionRequest fires. */
const askForShell = definePlugin({
  name: 'ask-for-shell',
  setup: (kernel: KernelApi) =>
    kernel.hooks.toolPreExecute.tap('ask', (decision, { call }) =>
      call.name === 'shell' ? { kind: 'ask', reason: 'need to write a file' } : decision,
    ),
})

describe('payloads of every event (items 45, 46, 49, 50, 51)', () => {
  it('45: every event’s stdin has Codex’s keys, key order and value types; 46, 50: no optional field is added', async () => {
    const h = setup({
      script: [
        {
          tool_calls: [{ name: 'shell', input: { command: 'echo hello-from-tool' } }],
          usage: { inputTokens: 10, outputTokens: 5 },
          id: 'resp_0',
        },
        { text: 'All done.' },
        { tool_calls: [{ name: 'interrupt_me', input: {} }] },
      ],
      hooks: Object.fromEntries(CODEX_EVENTS.map((event) => [event, [{ hooks: [rec(event)] }]])),
      responses: {
        'PermissionRequest-h.stdout': JSON.stringify({
          hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
        }),
      },
      plugins: [askForShell, interrupter],
    })
    const session = await h.kernel.startSession()
    expect((await session.run('run the tool')).status).toBe('completed')
    const turn = { id: 'turn-c', number: 2 }
    const agent = { id: 'agent-1', type: 'default' }
    await h.kernel.hooks.preCompact.promise({ kind: 'proceed' }, { session, trigger: 'manual', turn, signal })
    await h.kernel.hooks.postCompact.promise({ session, trigger: 'manual', turn, signal })
    await h.kernel.hooks.subagentStart.promise({ session, turn, step: 1, signal, agent })
    await h.kernel.hooks.subagentStop.promise(
      { kind: 'stop' },
      { session, turn, step: 1, signal, agent, stopHookActive: false, lastAssistantMessage: 'Sub done.' },
    )
    expect((await session.run('interrupt yourself')).status).toBe('interrupted')
    await session.end()

    const first = new Map<string, Record<string, unknown>>()
    for (const call of h.calls()) {
      expect(call.stdin).toBe(JSON.stringify(JSON.parse(call.stdin)))
      if (!first.has(call.event)) first.set(call.event, JSON.parse(call.stdin))
    }
    expect([...first.keys()].sort()).toEqual([...CODEX_EVENTS].sort())
    for (const event of CODEX_EVENTS) {
      const expected = golden(event)
      // The kernel has no separate subagent transcript: agent_transcript_path is null (§5.2 allows null).
      if (event === 'SubagentStop') expected.agent_transcript_path = null
      expect(shape(first.get(event)), event).toEqual(shape(expected))
      expect(first.get(event)).toMatchObject({ session_id: session.id, cwd: h.cwd, hook_event_name: event })
    }
    expect(first.get('SessionEnd')).toEqual({
      session_id: session.id,
      transcript_path: session.transcriptPath,
      cwd: h.cwd,
      hook_event_name: 'SessionEnd',
      reason: 'other',
    })
    // 48: PermissionRequest has no tool_use_id; its description is the justification.
    expect(first.get('PermissionRequest')!.tool_input).toEqual({ command: 'echo hello-from-tool', description: 'need to write a file' })
    // 51: SubagentStart/Stop name the parent thread and its transcript; the child comes last.
    expect(first.get('SubagentStart')).toMatchObject({ turn_id: 'turn-c', transcript_path: session.transcriptPath })
    expect(Object.entries(first.get('SubagentStart')!).slice(-2)).toEqual([
      ['agent_id', 'agent-1'],
      ['agent_type', 'default'],
    ])
    expect(Object.entries(first.get('SubagentStop')!).slice(-4)).toEqual([
      ['stop_hook_active', false],
      ['agent_id', 'agent-1'],
      ['agent_type', 'default'],
      ['last_assistant_message', 'Sub done.'],
    ])
    // The model-request events: the kernel's request id in both, Codex's token counts of the answer.
    const pre = first.get('PreModelRequest')!
    expect(pre).toMatchObject({ kind: 'sampling', attempt_number: 1, thread_id: session.id, model: expect.any(String) })
    expect(first.get('PostModelRequest')).toMatchObject({
      request_id: pre.request_id,
      status: 'completed',
      error: null,
      token_usage: {
        input_tokens: 10,
        cached_input_tokens: 0,
        cache_write_input_tokens: 0,
        output_tokens: 5,
        reasoning_output_tokens: 0,
        total_tokens: 15,
      },
      response_id: 'resp_0',
    })
    // 49: compaction events carry no permission_mode.
    expect('permission_mode' in first.get('PreCompact')!).toBe(false)
    expect('permission_mode' in first.get('PostCompact')!).toBe(false)
  })
})

describe('payload values (items 47, 52–56)', () => {
  it('47: permission_mode is bypassPermissions by default and default when the harness asks for approvals', async () => {
    for (const [permissionMode, expected] of [
      [undefined, 'bypassPermissions'],
      ['default', 'default'],
    ] as const) {
      const h = setup({
        script: [{ text: 'ok' }],
        hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }], Stop: [{ hooks: [rec('Stop')] }] },
        ...(permissionMode === undefined ? {} : { options: { permissionMode } }),
      })
      const session = await h.kernel.startSession()
      await session.run('go')
      expect(h.calls().map((call) => JSON.parse(call.stdin).permission_mode)).toEqual([expected, expected])
    }
  })

  it('52: tool_response is the shell’s output text only (stdout then stderr, no exit code); PostToolUse sees the rewritten input', async () => {
    const h = setup({
      script: [{ tool_calls: [{ name: 'shell', input: { command: 'echo original' } }] }, { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse')] }], PostToolUse: [{ hooks: [rec('PostToolUse')] }] },
      responses: {
        'PreToolUse-h.stdout': JSON.stringify({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse',
            permissionDecision: 'allow',
            updatedInput: { command: 'echo out-line; echo err-line >&2; exit 3' },
          },
        }),
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const post = JSON.parse(h.calls('PostToolUse')[0]!.stdin)
    expect(post.tool_input).toEqual({ command: 'echo out-line; echo err-line >&2; exit 3' })
    expect(post.tool_response).toBe('out-line\nerr-line\n')
  })

  it('53: stop_hook_active is false on the first Stop and true after a block, with the same turn_id', async () => {
    const h = setup({
      script: [{ text: 'First answer.' }, { text: 'Second answer.' }],
      hooks: { Stop: [{ hooks: [rec('Stop')] }] },
      responses: { 'Stop-h.1.stdout': JSON.stringify({ decision: 'block', reason: 'keep going' }) },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    const stops = h.calls('Stop').map((call) => JSON.parse(call.stdin))
    expect(stops.map((stop) => [stop.stop_hook_active, stop.last_assistant_message, stop.turn_id])).toEqual([
      [false, 'First answer.', result.turnId],
      [true, 'Second answer.', result.turnId],
    ])
  })

  it('54: SessionStart never runs without a turn; it runs once, lazily; after a compaction the next turn gets source "compact"', async () => {
    const h = setup({
      script: [{ text: 'one' }, { text: 'two' }, { text: 'three' }],
      hooks: {
        SessionStart: [{ hooks: [rec('SessionStart')] }],
        UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }],
        SessionEnd: [{ hooks: [rec('SessionEnd')] }],
      },
      responses: { 'SessionStart-h.2.stdout': 'after compaction' },
    })
    const idle = await h.kernel.startSession()
    await idle.end()
    expect(h.calls().map((call) => call.event)).toEqual(['SessionEnd'])

    const session = await h.kernel.startSession()
    await session.run('first')
    await session.run('second')
    // A compaction (the kernel's loop has none; a plugin fires the points): the next turn starts the session again.
    await h.kernel.hooks.sessionStart.promise({ session, source: 'compact', signal, halt: () => {} })
    const third = await session.run('third')
    expect(h.calls().map((call) => call.event)).toEqual([
      'SessionEnd',
      'SessionStart',
      'UserPromptSubmit',
      'UserPromptSubmit',
      'SessionStart',
      'UserPromptSubmit',
    ])
    const starts = h.calls('SessionStart').map((call) => JSON.parse(call.stdin))
    expect(starts.map((start) => start.source)).toEqual(['startup', 'compact'])
    expect(third.messages.map((message) => `${message.role}:${textOf(message)}`).slice(0, 2)).toEqual([
      'developer:after compaction',
      'user:third',
    ])
  })

  it('55: UserPromptSubmit does not fire for injected items or Stop continuations', async () => {
    const h = setup({
      script: [{ text: 'one' }, { text: 'two' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }], Stop: [{ hooks: [rec('Stop')] }] },
      responses: { 'Stop-h.1.stdout': JSON.stringify({ decision: 'block', reason: 'continue please' }) },
    })
    const session = await h.kernel.startSession()
    session.inject({ role: 'user', content: [{ type: 'text', text: 'injected raw item' }], source: { kind: 'plugin', plugin: 'test' } })
    await session.run('the prompt')
    expect(h.calls('UserPromptSubmit').map((call) => JSON.parse(call.stdin).prompt)).toEqual(['the prompt'])
    expect(JSON.stringify(h.model.requests[0]!.messages)).toContain('injected raw item')
    expect(h.calls('Stop')).toHaveLength(2)
  })

  it('56: Interrupt fires on an interrupt, before the turn ends; SessionEnd says reason "other" whatever the reason', async () => {
    const h = setup({
      script: [{ tool_calls: [{ name: 'interrupt_me', input: {} }] }],
      hooks: {
        Interrupt: [{ hooks: [rec('Interrupt')] }],
        Stop: [{ hooks: [rec('Stop')] }],
        SessionEnd: [{ hooks: [rec('SessionEnd')] }],
      },
      plugins: [interrupter],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('interrupted')
    const log = readFileSync(session.transcriptPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as SessionEvent)
    const interruptRun = log.findIndex((event) => event.type === 'hook/run' && event.event === 'Interrupt')
    const turnEnd = log.findIndex((event) => event.type === 'turn/end')
    expect(interruptRun).toBeGreaterThan(-1)
    expect(interruptRun).toBeLessThan(turnEnd)
    expect(JSON.parse(h.calls('Interrupt')[0]!.stdin)).toMatchObject({ turn_id: result.turnId, hook_event_name: 'Interrupt' })
    expect(hookRuns(session.transcriptPath).find((run) => run.event === 'Interrupt')).toMatchObject({
      id: `interrupt:2:${h.codexHome}/hooks.json`,
      turnId: result.turnId,
    })
    await session.end('user pressed ctrl-d')
    expect(h.calls().map((call) => call.event)).toEqual(['Interrupt', 'SessionEnd'])
    expect(JSON.parse(h.calls('SessionEnd')[0]!.stdin).reason).toBe('other')
  })
})
