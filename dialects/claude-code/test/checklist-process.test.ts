// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` here is hook configuration text, never a template.
/**
 * claude-code-hooks.md §9, "Process and payload" (items 15–25), end to end with real hook processes: the shell and
 * process group, the stdin bytes, every produced event's payload keys, `permission_mode` / `effort`, `prompt_id`,
 * subagent ids, cwd, environment and Claude's tool shapes.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { definePlugin, defineTool, type Message, type SessionEvent, type StepPayload, type ToolCallBlock } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ClaudeCodeHooksOptions } from '../src/index.js'
import {
  bash,
  type ClaudeHarness,
  claudeHarnessPerTest,
  hookRuns,
  RECORDER,
  type RecordedCall,
  rec,
  recordEvents,
} from './claude-harness.js'
import { waitUntil } from './waits.js'

const harness = claudeHarnessPerTest()
const signal = new AbortController().signal
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const sh = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra })
const call = (id: string, name: string, input: unknown) => ({ id, name, input })

function logEvents(path: string): SessionEvent[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
}

function toolResult(messages: readonly Message[], callId: string) {
  for (const message of messages)
    for (const block of message.content) if (block.type === 'tool_result' && block.callId === callId) return block
  return undefined
}

/** A `Task`-like tool: it runs a (fake) subagent by firing the kernel's subagent points, as a subagent plugin would. */
function fakeSubagents(agent: { id: string; type: string }) {
  let current: StepPayload | undefined
  return definePlugin({
    name: 'fake-subagents',
    setup(kernel) {
      kernel.hooks.toolPreExecute.tap('fake-subagents', (decision, payload) => {
        current = payload
        return decision
      })
      kernel.registerTool(
        defineTool({
          name: 'Task',
          description: 'runs a subagent',
          inputSchema: z.looseObject({}),
          async execute(_input, context) {
            const base = { session: context.session, turn: current!.turn, step: current!.step, signal: context.signal, agent }
            await kernel.hooks.subagentStart.promise(base)
            await kernel.hooks.subagentStop.promise(
              { kind: 'stop' },
              { ...base, stopHookActive: false, lastAssistantMessage: 'SUBAGENT-DONE' },
            )
            return { output: 'subagent finished', isError: false }
          },
        }),
      )
    },
  })
}

/** A kernel policy that asks for approval of one call (so PermissionRequest hooks run); no approver: it is denied. */
function askFor(callId: string) {
  return definePlugin({
    name: 'ask-policy',
    setup(kernel) {
      kernel.hooks.toolPreExecute.tap({ name: 'ask-policy', stage: -100 }, (decision, { call: toolCall }) =>
        toolCall.id === callId ? { kind: 'ask', reason: 'policy asks' } : decision,
      )
    },
  })
}

const PRODUCED = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'MessageDisplay',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
]

/**
 * One session that fires every event the kernel produces: a tool step with a success, a failure and an asked
 * (then denied) call, a subagent, a final text, a manual compaction (fired as a compaction plugin would) and the end.
 */
async function everyEvent(
  options: ClaudeCodeHooksOptions = {},
  settings?: Record<string, unknown>,
): Promise<{ h: ClaudeHarness; calls: RecordedCall[]; sessionId: string }> {
  const h = harness({
    ...(settings === undefined ? {} : { settings }),
    script: [
      {
        tool_calls: [
          call('toolu_ok', 'shell', { command: 'echo hi', description: 'run echo hi' }),
          call('toolu_fail', 'shell', { command: 'echo oops >&2; exit 3', description: 'fail' }),
          call('toolu_ask', 'shell', { command: 'echo asked', description: 'asked' }),
        ],
      },
      { tool_calls: [call('toolu_task', 'Task', { description: 'sub job', prompt: 'do it' })] },
      { text: 'FINAL reply' },
    ],
    hooks: recordEvents(PRODUCED),
    options,
    plugins: [fakeSubagents({ id: 'agent-7f3a', type: 'general-purpose' }), askFor('toolu_ask')],
  })
  const session = await h.kernel.startSession()
  expect((await session.run('Please run it.')).status).toBe('completed')
  await h.kernel.hooks.preCompact.promise({ kind: 'proceed' }, { session, trigger: 'manual', signal })
  await h.kernel.hooks.postCompact.promise({ session, trigger: 'manual', signal })
  await waitUntil(() => h.calls('MessageDisplay')[0]?.meta.ended, 'the detached MessageDisplay hook')
  await session.end()
  const calls = h.calls()
  expect([...new Set(calls.map((recorded) => recorded.event))].sort()).toEqual([...PRODUCED].sort())
  return { h, calls, sessionId: session.id }
}

const BASE = ['session_id', 'transcript_path', 'cwd']
const TOOL_COMMON = [...BASE, 'prompt_id', 'permission_mode', 'effort', 'hook_event_name', 'tool_name', 'tool_input']

describe('checklist: the hook process (claude-code-hooks.md §9, 15–16)', () => {
  it('15. the hook runs as `/bin/sh -c <string>` (`/bin/bash -c` with `shell: "bash"`), each in its own process group', async () => {
    const probe = (name: string) =>
      `cat /proc/$$/cmdline > "$HOOK_OUT/${name}.cmdline"; ps -o pgid= -p $$ | tr -d ' ' > "$HOOK_OUT/${name}.pgid"; echo $$ > "$HOOK_OUT/${name}.pid"`
    const h = harness({
      script: [{ text: 'done' }],
      hooks: { UserPromptSubmit: [{ hooks: [sh(probe('sh')), sh(probe('bash'), { shell: 'bash' })] }] },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const read = (file: string) => readFileSync(join(h.out, file))
    expect(read('sh.cmdline')).toEqual(Buffer.from(`/bin/sh\0-c\0${probe('sh')}\0`))
    expect(read('bash.cmdline')).toEqual(Buffer.from(`/bin/bash\0-c\0${probe('bash')}\0`))
    const ownGroup = execFileSync('ps', ['-o', 'pgid=', '-p', String(process.pid)], { encoding: 'utf8' }).trim()
    for (const name of ['sh', 'bash']) {
      const pgid = read(`${name}.pgid`).toString().trim()
      expect(pgid, `${name} leads its own group`).toBe(read(`${name}.pid`).toString().trim())
      expect(pgid).not.toBe(ownGroup)
    }
  })

  it('16. stdin is exactly `JSON.stringify(payload)+"\\n"`, one line, and is then closed (a reader waiting for EOF finishes)', async () => {
    const prompt = 'ünïcode "quoted" \\ back\nsecond line\ttab'
    const h = harness({
      script: [bash('echo "é"'), { text: 'done' }],
      hooks: {
        UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', 'h', { timeout: 5 })] }],
        PreToolUse: [{ hooks: [rec('PreToolUse', 'h', { timeout: 5 })] }],
      },
    })
    const session = await h.kernel.startSession()
    await session.run(prompt)
    const [ups] = h.calls('UserPromptSubmit')
    const [pre] = h.calls('PreToolUse')
    const promptId = ups!.payload.prompt_id as string
    const head = { session_id: session.id, transcript_path: session.transcriptPath, cwd: h.project, prompt_id: promptId }
    expect(ups!.stdin).toBe(
      `${JSON.stringify({ ...head, permission_mode: 'bypassPermissions', hook_event_name: 'UserPromptSubmit', prompt })}\n`,
    )
    expect(pre!.stdin).toBe(
      `${JSON.stringify({
        ...head,
        permission_mode: 'bypassPermissions',
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'echo "é"', description: 'run echo "é"' },
        tool_use_id: 'toolu_1',
      })}\n`,
    )
    for (const recorded of [ups!, pre!]) {
      expect(recorded.stdin.split('\n')).toHaveLength(2)
      expect(recorded.meta.ended).toMatch(/^\d+$/)
    }
    expect(hookRuns(session.transcriptPath).map((run) => [run.event, run.outcome, run.exitCode, run.timedOut])).toEqual([
      ['UserPromptSubmit', 'success', 0, false],
      ['PreToolUse', 'success', 0, false],
    ])
  })
  it('16. a 300 KB payload reaches a reading hook whole, and a hook that never reads stdin still succeeds', async () => {
    const prompt = `${'x'.repeat(300_000)}END`
    const h = harness({
      script: [{ text: 'done' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', 'reader', { timeout: 10 }), sh('exit 0', { timeout: 10 })] }] },
    })
    const session = await h.kernel.startSession()
    expect((await session.run(prompt)).status).toBe('completed')
    const [reader] = h.calls('UserPromptSubmit')
    expect(reader!.payload.prompt).toBe(prompt)
    expect(reader!.stdin.endsWith('END"}\n')).toBe(true)
    expect(hookRuns(session.transcriptPath).map((run) => [run.command, run.outcome, run.exitCode])).toEqual([
      [`${RECORDER} UserPromptSubmit reader`, 'success', 0],
      ['exit 0', 'success', 0],
    ])
  })
})

describe('checklist: payloads (claude-code-hooks.md §9, 17–21)', () => {
  it('17. each event’s keys and key order equal §5 (the points fired as a plugin would, on the main session: SubagentStop has no subagent log to name, PostCompact no summary)', async () => {
    const { calls } = await everyEvent({ effort: 'medium' })
    const expected: Record<string, string[]> = {
      SessionStart: [...BASE, 'hook_event_name', 'source'],
      UserPromptSubmit: [...BASE, 'prompt_id', 'permission_mode', 'hook_event_name', 'prompt'],
      PreToolUse: [...TOOL_COMMON, 'tool_use_id'],
      PermissionRequest: [...TOOL_COMMON, 'permission_suggestions'],
      PostToolUse: [...TOOL_COMMON, 'tool_response', 'tool_use_id', 'duration_ms'],
      PostToolUseFailure: [...TOOL_COMMON, 'tool_use_id', 'error', 'is_interrupt', 'duration_ms'],
      PostToolBatch: [...BASE, 'prompt_id', 'permission_mode', 'effort', 'hook_event_name', 'tool_calls'],
      MessageDisplay: [...BASE, 'prompt_id', 'hook_event_name', 'turn_id', 'message_id', 'index', 'final', 'delta'],
      Stop: [
        ...BASE,
        'prompt_id',
        'permission_mode',
        'effort',
        'hook_event_name',
        'stop_hook_active',
        'last_assistant_message',
        'background_tasks',
        'session_crons',
      ],
      SubagentStart: [...BASE, 'prompt_id', 'agent_id', 'agent_type', 'hook_event_name'],
      SubagentStop: [
        ...BASE,
        'prompt_id',
        'permission_mode',
        'agent_id',
        'agent_type',
        'effort',
        'hook_event_name',
        'stop_hook_active',
        'last_assistant_message',
        'background_tasks',
        'session_crons',
      ],
      PreCompact: [...BASE, 'prompt_id', 'hook_event_name', 'trigger', 'custom_instructions'],
      PostCompact: [...BASE, 'prompt_id', 'hook_event_name', 'trigger'],
      SessionEnd: [...BASE, 'prompt_id', 'hook_event_name', 'reason'],
    }
    for (const recorded of calls) expect(Object.keys(recorded.payload), recorded.event).toEqual(expected[recorded.event])
    const one = (event: string, toolUseId?: string) =>
      calls.find((recorded) => recorded.event === event && (toolUseId === undefined || recorded.payload.tool_use_id === toolUseId))!.payload
    expect(one('PreCompact').custom_instructions).toBeNull()
    expect(Object.keys(one('PostToolUse', 'toolu_ok').tool_response as object)).toEqual([
      'stdout',
      'stderr',
      'interrupted',
      'isImage',
      'noOutputExpected',
    ])
    expect(one('PostToolUse', 'toolu_ok').tool_response).toEqual({
      stdout: 'hi',
      stderr: '',
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
    })
    expect(JSON.stringify(one('PreToolUse', 'toolu_ok').tool_input)).toBe('{"command":"echo hi","description":"run echo hi"}')
    const batch = one('PostToolBatch').tool_calls as Record<string, unknown>[]
    expect(batch.map((item) => Object.keys(item))).toEqual(batch.map(() => ['tool_name', 'tool_input', 'tool_use_id', 'tool_response']))
    expect(batch.map((item) => item.tool_use_id)).toEqual(['toolu_ok', 'toolu_fail', 'toolu_ask'])
    expect(one('PostToolUseFailure').error).toBe('Exit code 3\noops')
    expect(one('Stop')).toMatchObject({
      stop_hook_active: false,
      last_assistant_message: 'FINAL reply',
      background_tasks: [],
      session_crons: [],
    })
    expect(one('SessionEnd').reason).toBe('other')
    expect(one('MessageDisplay')).toMatchObject({ index: 0, final: true, delta: 'FINAL reply' })
  })

  it('18. `permission_mode` and `effort` appear only on the events §5 lists, and CLAUDE_EFFORT where `effort` does (as observed)', async () => {
    // acceptEdits would ask before `exit 3`: a rule allows every Bash command, so each event still fires once.
    const { calls } = await everyEvent({ effort: 'high', permissionMode: 'acceptEdits' }, { permissions: { allow: ['Bash'] } })
    const withMode = new Set([
      'UserPromptSubmit',
      'PreToolUse',
      'PermissionRequest',
      'PostToolUse',
      'PostToolUseFailure',
      'PostToolBatch',
      'Stop',
      'SubagentStop',
    ])
    const withEffort = new Set([
      'PreToolUse',
      'PermissionRequest',
      'PostToolUse',
      'PostToolUseFailure',
      'PostToolBatch',
      'Stop',
      'SubagentStop',
    ])
    const withEffortEnv = withEffort
    const seen = calls.map((recorded) => [
      recorded.event,
      recorded.payload.permission_mode,
      recorded.payload.effort,
      recorded.env.CLAUDE_EFFORT,
    ])
    const wanted = calls.map(({ event }) => [
      event,
      withMode.has(event) ? 'acceptEdits' : undefined,
      withEffort.has(event) ? { level: 'high' } : undefined,
      withEffortEnv.has(event) ? 'high' : undefined,
    ])
    expect(seen).toEqual(wanted)
    for (const recorded of calls) {
      expect('permission_mode' in recorded.payload, recorded.event).toBe(withMode.has(recorded.event))
      expect('effort' in recorded.payload, recorded.event).toBe(withEffort.has(recorded.event))
    }
  })

  it('19. with no effort level there is no `effort` field and no CLAUDE_EFFORT, not even one inherited from the parent', async () => {
    const saved = process.env.CLAUDE_EFFORT
    process.env.CLAUDE_EFFORT = 'inherited'
    try {
      const { calls } = await everyEvent()
      expect(calls.filter((recorded) => 'effort' in recorded.payload).map((recorded) => recorded.event)).toEqual([])
      expect(calls.filter((recorded) => 'CLAUDE_EFFORT' in recorded.env).map((recorded) => recorded.event)).toEqual([])
    } finally {
      if (saved === undefined) delete process.env.CLAUDE_EFFORT
      else process.env.CLAUDE_EFFORT = saved
    }
  })

  it('20. `prompt_id` is absent at startup (and on resume), the same within a turn (a steered message too), and new for each turn', async () => {
    let steered = false
    const steerer = definePlugin({
      name: 'steerer',
      setup(kernel) {
        kernel.registerTool(
          defineTool({
            name: 'steer_me',
            description: 'steers the running turn',
            inputSchema: z.looseObject({}),
            async execute(_input, context) {
              context.session.steer('STEERED')
              steered = true
              return { output: 'steered', isError: false }
            },
          }),
        )
      },
    })
    const h = harness({
      script: [{ tool_calls: [call('toolu_1', 'steer_me', {})] }, { text: 'one' }, { text: 'two' }, { text: 'three' }],
      hooks: recordEvents(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolBatch', 'Stop']),
      plugins: [steerer],
    })
    const session = await h.kernel.startSession()
    await session.run('first')
    await session.run('second')
    expect(steered).toBe(true)
    const calls = h.calls()
    expect(calls.map((recorded) => [recorded.event, recorded.payload.prompt ?? ''])).toEqual([
      ['SessionStart', ''],
      ['UserPromptSubmit', 'first'],
      ['PreToolUse', ''],
      ['PostToolUse', ''],
      ['PostToolBatch', ''],
      ['UserPromptSubmit', 'STEERED'],
      ['Stop', ''],
      ['UserPromptSubmit', 'second'],
      ['Stop', ''],
    ])
    expect('prompt_id' in calls[0]!.payload).toBe(false)
    const ids = calls.slice(1).map((recorded) => recorded.payload.prompt_id as string)
    const [first, second] = [ids[0]!, ids[6]!]
    expect(first).toMatch(UUID)
    expect(second).toMatch(UUID)
    expect(second).not.toBe(first)
    expect(ids).toEqual([first, first, first, first, first, first, second, second])

    // A resumed session has no prompt yet: its SessionStart carries none; its first turn gets a new id.
    await session.end()
    const resumed = await h.kernel.resumeSession(session.id)
    await resumed.run('third')
    const later = h.calls().slice(calls.length)
    expect(later.map((recorded) => [recorded.event, recorded.payload.source ?? recorded.payload.prompt ?? ''])).toEqual([
      ['SessionStart', 'resume'],
      ['UserPromptSubmit', 'third'],
      ['Stop', ''],
    ])
    expect('prompt_id' in later[0]!.payload).toBe(false)
    const third = later[1]!.payload.prompt_id as string
    expect(third).toMatch(UUID)
    expect([first, second]).not.toContain(third)
    expect(later[2]!.payload.prompt_id).toBe(third)
  })

  it('21. subagent events carry `agent_id` / `agent_type` and the parent’s `session_id` and `prompt_id`; SubagentStart and SubagentStop match the agent type (fired by a tool, as a subagent plugin would: the kernel spawns none itself)', async () => {
    const h = harness({
      script: [{ tool_calls: [call('toolu_task', 'Task', { description: 'sub job', prompt: 'do it' })] }, { text: 'done' }],
      hooks: {
        UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }],
        SubagentStart: [
          { matcher: 'general-purpose', hooks: [rec('SubagentStart', 'gp')] },
          { matcher: 'Explore', hooks: [rec('SubagentStart', 'explore')] },
        ],
        SubagentStop: [{ hooks: [rec('SubagentStop', 'all')] }, { matcher: 'Explore', hooks: [rec('SubagentStop', 'explore')] }],
      },
      options: { effort: 'medium' },
      plugins: [fakeSubagents({ id: 'agent-7f3a', type: 'general-purpose' })],
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const promptId = h.calls('UserPromptSubmit')[0]!.payload.prompt_id
    const head = { session_id: session.id, transcript_path: session.transcriptPath, cwd: h.project, prompt_id: promptId }
    expect(h.calls('SubagentStart').map((recorded) => [recorded.tag, recorded.stdin])).toEqual([
      ['gp', `${JSON.stringify({ ...head, agent_id: 'agent-7f3a', agent_type: 'general-purpose', hook_event_name: 'SubagentStart' })}\n`],
    ])
    expect(h.calls('SubagentStop').map((recorded) => recorded.tag)).toEqual(['all'])
    expect(h.calls('SubagentStop').map((recorded) => recorded.payload)).toEqual([
      {
        ...head,
        permission_mode: 'bypassPermissions',
        agent_id: 'agent-7f3a',
        agent_type: 'general-purpose',
        effort: { level: 'medium' },
        hook_event_name: 'SubagentStop',
        stop_hook_active: false,
        last_assistant_message: 'SUBAGENT-DONE',
        background_tasks: [],
        session_crons: [],
      },
    ])
  })
})

describe('checklist: cwd and environment (claude-code-hooks.md §9, 22–24)', () => {
  it('22. the hook’s cwd equals the payload’s `cwd`, the session’s cwd; after a `cd sub` call, its PostToolUse still runs in the session’s cwd, not in `sub` (divergence: the kernel’s shell starts a fresh shell per call, so `cd` does not persist)', async () => {
    const h = harness({
      script: [bash('mkdir -p sub && cd sub && pwd'), { text: 'done' }],
      hooks: recordEvents(['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop']),
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResult(result.messages, 'toolu_1')?.output).toBe(join(h.project, 'sub'))
    expect(h.calls().map((recorded) => [recorded.event, recorded.meta.cwd, recorded.payload.cwd])).toEqual(
      ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'].map((event) => [event, h.project, h.project]),
    )
  })

  it('23. CLAUDE_PROJECT_DIR is always set and never changes; CLAUDE_ENV_FILE is set for SessionStart only, and what it wrote reaches no later hook (CLAUDECODE=1, the session id, no OTEL_*)', async () => {
    const saved = process.env.CLAUDE_ENV_FILE
    process.env.CLAUDE_ENV_FILE = '/inherited/env-file.sh'
    process.env.OTEL_TEST_EXPORTER = 'inherited'
    try {
      const events = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolBatch', 'Stop', 'SessionEnd']
      const hooks = recordEvents(events) as Record<string, { hooks: unknown[] }[]>
      hooks.SessionStart![0]!.hooks.push(sh('echo "export FROM_ENV_FILE=1" >> "$CLAUDE_ENV_FILE"'))
      const h = harness({ script: [bash('mkdir -p sub && cd sub'), { text: 'one' }, { text: 'two' }], hooks })
      const session = await h.kernel.startSession()
      await session.run('first')
      await session.run('second')
      await session.end()
      const envFile = join(h.dir, 'env', session.id, 'sessionstart-hook-0.sh')
      expect(readFileSync(envFile, 'utf8')).toBe('export FROM_ENV_FILE=1\n')
      const calls = h.calls()
      expect(calls.map((recorded) => recorded.event)).toEqual([
        'SessionStart',
        'UserPromptSubmit',
        'PreToolUse',
        'PostToolUse',
        'PostToolBatch',
        'Stop',
        'UserPromptSubmit',
        'Stop',
        'SessionEnd',
      ])
      expect(
        calls.map((recorded) => [
          recorded.event,
          recorded.env.CLAUDE_PROJECT_DIR,
          recorded.env.CLAUDE_ENV_FILE,
          recorded.env.FROM_ENV_FILE,
        ]),
      ).toEqual(calls.map(({ event }) => [event, h.project, event === 'SessionStart' ? envFile : undefined, undefined]))
      expect(
        calls.map((recorded) => [recorded.env.CLAUDECODE, recorded.env.CLAUDE_CODE_SESSION_ID, recorded.env.OTEL_TEST_EXPORTER]),
      ).toEqual(calls.map(() => ['1', session.id, undefined]))
    } finally {
      delete process.env.OTEL_TEST_EXPORTER
      if (saved === undefined) delete process.env.CLAUDE_ENV_FILE
      else process.env.CLAUDE_ENV_FILE = saved
    }
  })

  it('opt-in `hookEnvironment`: the shell policy filters what command hooks inherit (no *_TOKEN by default); the dialect’s own variables stay', async () => {
    process.env.HK_HOOK_TEST_TOKEN = 'not-for-hooks'
    try {
      const hooks = recordEvents(['UserPromptSubmit'])
      const filtered = harness({ script: [{ text: 'ok' }], hooks, options: { hookEnvironment: { set: { HK_HOOK_TEST_SET: 'set' } } } })
      const session = await filtered.kernel.startSession()
      await session.run('go')
      const [seen] = filtered.calls()
      expect(seen?.env.HK_HOOK_TEST_TOKEN).toBeUndefined()
      expect(seen?.env.HK_HOOK_TEST_SET).toBe('set')
      expect([seen?.env.CLAUDE_PROJECT_DIR, seen?.env.CLAUDECODE, seen?.env.CLAUDE_CODE_SESSION_ID]).toEqual([
        filtered.project,
        '1',
        session.id,
      ])

      const plain = harness({ script: [{ text: 'ok' }], hooks })
      await (await plain.kernel.startSession()).run('go')
      expect(plain.calls()[0]?.env.HK_HOOK_TEST_TOKEN).toBe('not-for-hooks')
    } finally {
      delete process.env.HK_HOOK_TEST_TOKEN
    }
  })

  it('24. `${CLAUDE_PROJECT_DIR}` in a command is spawned unrewritten; the shell expands it', async () => {
    const probe = 'cat /proc/$$/cmdline > "$HOOK_OUT/cmdline"; printf %s "${CLAUDE_PROJECT_DIR}" > "$HOOK_OUT/expanded"'
    const viaProjectDir = '"${CLAUDE_PROJECT_DIR}"/.claude/hooks/rec.sh UserPromptSubmit pd'
    const h = harness({ script: [{ text: 'done' }], hooks: { UserPromptSubmit: [{ hooks: [sh(probe), sh(viaProjectDir)] }] } })
    mkdirSync(join(h.project, '.claude', 'hooks'))
    copyFileSync(RECORDER, join(h.project, '.claude', 'hooks', 'rec.sh'))
    chmodSync(join(h.project, '.claude', 'hooks', 'rec.sh'), 0o755)
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(readFileSync(join(h.out, 'cmdline'))).toEqual(Buffer.from(`/bin/sh\0-c\0${probe}\0`))
    expect(readFileSync(join(h.out, 'expanded'), 'utf8')).toBe(h.project)
    const [recorded] = h.calls('UserPromptSubmit')
    expect(recorded?.tag).toBe('pd')
    expect(recorded?.meta.parent).toBe(`/bin/sh -c ${viaProjectDir} `)
    expect(hookRuns(session.transcriptPath).map((run) => run.command)).toEqual([probe, viaProjectDir])
  })
})

describe('checklist: Claude tool shapes (claude-code-hooks.md §9, 25)', () => {
  it('25. `tool_input` uses Claude names and shapes: Bash, Read, Write and Edit with absolute `file_path`s, in §3’s key order', async () => {
    const h = harness({
      script: [
        {
          tool_calls: [
            call('toolu_b', 'shell', { command: 'echo hi', description: 'say hi', timeout_ms: 5000 }),
            call('toolu_r', 'read_file', { path: 'notes.txt', offset: 2, limit: 1 }),
            call('toolu_w', 'write_file', { path: 'out.txt', content: 'hello' }),
            call('toolu_e', 'edit_file', { path: 'out.txt', old_string: 'hello', new_string: 'bye', replace_all: true }),
          ],
        },
        { text: 'done' },
      ],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse')] }] },
    })
    writeFileSync(join(h.project, 'notes.txt'), 'one\ntwo\nthree\n')
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(
      h
        .calls('PreToolUse')
        .map((recorded) => [recorded.payload.tool_use_id, recorded.payload.tool_name, JSON.stringify(recorded.payload.tool_input)]),
    ).toEqual([
      ['toolu_b', 'Bash', JSON.stringify({ command: 'echo hi', description: 'say hi', timeout: 5000 })],
      ['toolu_r', 'Read', JSON.stringify({ file_path: join(h.project, 'notes.txt'), offset: 2, limit: 1 })],
      ['toolu_w', 'Write', JSON.stringify({ file_path: join(h.project, 'out.txt'), content: 'hello' })],
      [
        'toolu_e',
        'Edit',
        JSON.stringify({ file_path: join(h.project, 'out.txt'), old_string: 'hello', new_string: 'bye', replace_all: true }),
      ],
    ])
  })

  it('25. `updatedInput` (Claude’s shape) maps back to the kernel tool’s input; PostToolUse sees the new input; the model’s tool_use is unchanged', async () => {
    const h = harness({
      script: [
        {
          tool_calls: [
            call('toolu_b', 'shell', { command: 'echo original', description: 'say original' }),
            call('toolu_w', 'write_file', { path: 'out.txt', content: 'original' }),
          ],
        },
        { text: 'done' },
      ],
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [rec('PreToolUse', 'b')] },
          { matcher: 'Write', hooks: [rec('PreToolUse', 'w')] },
        ],
        PostToolUse: [{ hooks: [rec('PostToolUse', 'post')] }],
      },
    })
    const elsewhere = join(h.project, 'elsewhere.txt')
    const allow = (updatedInput: Record<string, unknown>) =>
      JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput } })
    writeFileSync(join(h.resp, 'PreToolUse-b.stdout'), allow({ command: 'echo rewritten', timeout: 4000 }))
    writeFileSync(join(h.resp, 'PreToolUse-w.stdout'), allow({ file_path: elsewhere, content: 'REWRITTEN' }))
    const session = await h.kernel.startSession()
    const result = await session.run('go')

    expect(toolResult(result.messages, 'toolu_b')).toMatchObject({ output: 'rewritten', isError: false })
    expect(existsSync(join(h.project, 'out.txt'))).toBe(false)
    expect(readFileSync(elsewhere, 'utf8')).toBe('REWRITTEN')
    const logged = logEvents(session.transcriptPath).flatMap((event) =>
      event.type === 'tool/call' ? [[event.callId, event.input, event.decision]] : [],
    )
    expect(logged).toEqual([
      ['toolu_b', { command: 'echo rewritten', timeout_ms: 4000 }, 'allow-rewritten'],
      ['toolu_w', { path: elsewhere, content: 'REWRITTEN' }, 'allow-rewritten'],
    ])
    expect(h.calls('PostToolUse').map((recorded) => [recorded.payload.tool_use_id, recorded.payload.tool_input])).toEqual([
      ['toolu_b', { command: 'echo rewritten', timeout: 4000 }],
      ['toolu_w', { file_path: elsewhere, content: 'REWRITTEN' }],
    ])
    const assistant = result.messages.find((message) => message.role === 'assistant')!
    expect(assistant.content.filter((block): block is ToolCallBlock => block.type === 'tool_call').map((block) => block.input)).toEqual([
      { command: 'echo original', description: 'say original' },
      { path: 'out.txt', content: 'original' },
    ])
  })
})
