/**
 * Unit tests of src/io/payload.ts against claude-code-hooks.md §5: every observed Claude Code 2.1.332 payload is
 * rebuilt byte for byte, with `permission_mode` and `effort` offered to every event, so that the function alone decides
 * where they appear; and the common keys keep their order (`session_id`, `transcript_path`, `cwd`, then `prompt_id`,
 * `permission_mode`, `agent_id`, `agent_type`, `effort`, then `hook_event_name`, then the event's own fields).
 */
import { describe, expect, it } from 'vitest'
import { CLAUDE_EVENTS, type CommonFields, claudePayload, type PermissionMode, payloadLine } from '../src/index.js'

/** §5 "Observed payloads", verbatim (each lacks only its final `\n`). */
const OBSERVED: [label: string, line: string][] = [
  [
    'SessionStart (startup)',
    '{"session_id":"aa5578cd-0579-4db3-8fb8-5ba31c190fa9","transcript_path":"/home/user/.claude/projects/-home-user-proj/aa5578cd-0579-4db3-8fb8-5ba31c190fa9.jsonl","cwd":"/home/user/proj","hook_event_name":"SessionStart","source":"startup"}',
  ],
  [
    'SessionStart (--resume)',
    '{"session_id":"ccf3f13a-4ae2-4d92-a34f-9c670ea27057","transcript_path":"/home/user/.claude/projects/-home-user-proj/ccf3f13a-4ae2-4d92-a34f-9c670ea27057.jsonl","cwd":"/home/user/proj","hook_event_name":"SessionStart","source":"resume","seconds_since_last_response":157,"context_tokens":114,"prompt_cache_likely_expired":false,"estimated_cache_write_usd":0.0006}',
  ],
  [
    'SessionStart (after /compact)',
    '{"session_id":"ccf3f13a-4ae2-4d92-a34f-9c670ea27057","transcript_path":"/home/user/.claude/projects/-home-user-proj/ccf3f13a-4ae2-4d92-a34f-9c670ea27057.jsonl","cwd":"/home/user/proj","prompt_id":"ce8f0283-696c-4fec-84cc-ba3daaf79a56","hook_event_name":"SessionStart","source":"compact","model":"claude-opus-5-5"}',
  ],
  [
    'UserPromptSubmit',
    '{"session_id":"aa5578cd-0579-4db3-8fb8-5ba31c190fa9","transcript_path":"/home/user/.claude/projects/-home-user-proj/aa5578cd-0579-4db3-8fb8-5ba31c190fa9.jsonl","cwd":"/home/user/proj","prompt_id":"4a04800c-ad91-473c-ab36-9e7117c4eb35","permission_mode":"bypassPermissions","hook_event_name":"UserPromptSubmit","prompt":"Please run it. [[bash:echo hi]]"}',
  ],
  [
    'UserPromptExpansion (project command /foo)',
    '{"session_id":"217b9222-b006-49fd-8f43-78c1c690b1b8","transcript_path":"/home/user/.claude/projects/-home-user-proj/217b9222-b006-49fd-8f43-78c1c690b1b8.jsonl","cwd":"/home/user/proj","prompt_id":"c1d89043-4077-4f74-8918-f1ccf1cd1dbf","permission_mode":"bypassPermissions","hook_event_name":"UserPromptExpansion","expansion_type":"slash_command","command_name":"foo","command_args":"bar baz","command_source":"projectSettings","prompt":"/foo bar baz"}',
  ],
  [
    'InstructionsLoaded',
    '{"session_id":"217b9222-b006-49fd-8f43-78c1c690b1b8","transcript_path":"/home/user/.claude/projects/-home-user-proj/217b9222-b006-49fd-8f43-78c1c690b1b8.jsonl","cwd":"/home/user/proj","hook_event_name":"InstructionsLoaded","file_path":"/home/user/proj/CLAUDE.md","memory_type":"Project","load_reason":"session_start"}',
  ],
  [
    'PreToolUse',
    '{"session_id":"aa5578cd-0579-4db3-8fb8-5ba31c190fa9","transcript_path":"/home/user/.claude/projects/-home-user-proj/aa5578cd-0579-4db3-8fb8-5ba31c190fa9.jsonl","cwd":"/home/user/proj","prompt_id":"4a04800c-ad91-473c-ab36-9e7117c4eb35","permission_mode":"bypassPermissions","effort":{"level":"medium"},"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo hi","description":"run echo hi"},"tool_use_id":"toolu_fake_1"}',
  ],
  [
    'PermissionRequest (default mode; Bash writes a file)',
    '{"session_id":"0ad0b71d-5a80-48b2-8568-760744e2ac0e","transcript_path":"/home/user/.claude/projects/-home-user-proj/0ad0b71d-5a80-48b2-8568-760744e2ac0e.jsonl","cwd":"/home/user/proj","prompt_id":"74710778-40d7-48f0-97a5-f9cb51eb3495","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"echo hi > /home/user/proj/f.txt","description":"run echo hi > /home/user/proj/f.txt"},"permission_suggestions":[{"type":"addDirectories","directories":["/home/user/proj"],"destination":"session"}]}',
  ],
  [
    'PostToolUse',
    '{"session_id":"aa5578cd-0579-4db3-8fb8-5ba31c190fa9","transcript_path":"/home/user/.claude/projects/-home-user-proj/aa5578cd-0579-4db3-8fb8-5ba31c190fa9.jsonl","cwd":"/home/user/proj","prompt_id":"4a04800c-ad91-473c-ab36-9e7117c4eb35","permission_mode":"bypassPermissions","effort":{"level":"medium"},"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"echo hi","description":"run echo hi"},"tool_response":{"stdout":"hi","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false},"tool_use_id":"toolu_fake_1","duration_ms":25}',
  ],
  [
    'PostToolUseFailure (Bash exit 3)',
    '{"session_id":"83443217-b38c-4235-91d8-ee0581766f1d","transcript_path":"/home/user/.claude/projects/-home-user-proj/83443217-b38c-4235-91d8-ee0581766f1d.jsonl","cwd":"/home/user/proj","prompt_id":"29595546-1958-41a8-a347-cf8a370a0e7b","permission_mode":"bypassPermissions","effort":{"level":"medium"},"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"echo oops >&2; exit 3","description":"run echo oops >&2; exit 3"},"tool_use_id":"toolu_fake_1","error":"Exit code 3\\noops","is_interrupt":false,"duration_ms":41}',
  ],
  [
    'PostToolBatch',
    '{"session_id":"aa5578cd-0579-4db3-8fb8-5ba31c190fa9","transcript_path":"/home/user/.claude/projects/-home-user-proj/aa5578cd-0579-4db3-8fb8-5ba31c190fa9.jsonl","cwd":"/home/user/proj","prompt_id":"4a04800c-ad91-473c-ab36-9e7117c4eb35","permission_mode":"bypassPermissions","effort":{"level":"medium"},"hook_event_name":"PostToolBatch","tool_calls":[{"tool_name":"Bash","tool_input":{"command":"echo hi","description":"run echo hi"},"tool_use_id":"toolu_fake_1","tool_response":"hi"}]}',
  ],
  [
    'MessageDisplay',
    '{"session_id":"aa5578cd-0579-4db3-8fb8-5ba31c190fa9","transcript_path":"/home/user/.claude/projects/-home-user-proj/aa5578cd-0579-4db3-8fb8-5ba31c190fa9.jsonl","cwd":"/home/user/proj","prompt_id":"4a04800c-ad91-473c-ab36-9e7117c4eb35","hook_event_name":"MessageDisplay","turn_id":"5646c43f-9f85-4262-84bc-7e52ddc6dac9","message_id":"8548addb-704d-4ee2-b3e5-237f42866910","index":0,"final":true,"delta":"FINAL reply to request #2"}',
  ],
  [
    'Stop',
    '{"session_id":"aa5578cd-0579-4db3-8fb8-5ba31c190fa9","transcript_path":"/home/user/.claude/projects/-home-user-proj/aa5578cd-0579-4db3-8fb8-5ba31c190fa9.jsonl","cwd":"/home/user/proj","prompt_id":"4a04800c-ad91-473c-ab36-9e7117c4eb35","permission_mode":"bypassPermissions","effort":{"level":"medium"},"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"FINAL reply to request #2","background_tasks":[],"session_crons":[]}',
  ],
  [
    'SubagentStart',
    '{"session_id":"a274ee60-d6e0-4d3d-8de0-0e9e632b34f1","transcript_path":"/home/user/.claude/projects/-home-user-proj/a274ee60-d6e0-4d3d-8de0-0e9e632b34f1.jsonl","cwd":"/home/user/proj","prompt_id":"6c958cab-967d-452e-8e5b-9dbb36435595","agent_id":"ade4109bf56ec3f04","agent_type":"general-purpose","hook_event_name":"SubagentStart"}',
  ],
  [
    'SubagentStop',
    '{"session_id":"a274ee60-d6e0-4d3d-8de0-0e9e632b34f1","transcript_path":"/home/user/.claude/projects/-home-user-proj/a274ee60-d6e0-4d3d-8de0-0e9e632b34f1.jsonl","cwd":"/home/user/proj","prompt_id":"6c958cab-967d-452e-8e5b-9dbb36435595","permission_mode":"bypassPermissions","agent_id":"ade4109bf56ec3f04","agent_type":"general-purpose","effort":{"level":"medium"},"hook_event_name":"SubagentStop","stop_hook_active":false,"agent_transcript_path":"/home/user/.claude/projects/-home-user-proj/a274ee60-d6e0-4d3d-8de0-0e9e632b34f1/subagents/agent-ade4109bf56ec3f04.jsonl","last_assistant_message":"FINAL reply to request #4","background_tasks":[{"id":"ade4109bf56ec3f04","type":"subagent","status":"running","description":"sub job","agent_type":"general-purpose"}],"session_crons":[]}',
  ],
  [
    'PreCompact',
    '{"session_id":"ccf3f13a-4ae2-4d92-a34f-9c670ea27057","transcript_path":"/home/user/.claude/projects/-home-user-proj/ccf3f13a-4ae2-4d92-a34f-9c670ea27057.jsonl","cwd":"/home/user/proj","prompt_id":"ce8f0283-696c-4fec-84cc-ba3daaf79a56","hook_event_name":"PreCompact","trigger":"manual","custom_instructions":null}',
  ],
  [
    'PostCompact',
    '{"session_id":"ccf3f13a-4ae2-4d92-a34f-9c670ea27057","transcript_path":"/home/user/.claude/projects/-home-user-proj/ccf3f13a-4ae2-4d92-a34f-9c670ea27057.jsonl","cwd":"/home/user/proj","prompt_id":"ce8f0283-696c-4fec-84cc-ba3daaf79a56","hook_event_name":"PostCompact","trigger":"manual","compact_summary":"FINAL reply to request #1"}',
  ],
  [
    'CwdChanged (after `cd sub`; `cwd` is already the new one)',
    '{"session_id":"29231abb-849f-46de-91f8-fc7dfb190efc","transcript_path":"/home/user/.claude/projects/-home-user-proj/29231abb-849f-46de-91f8-fc7dfb190efc.jsonl","cwd":"/home/user/proj/sub","prompt_id":"42c02a50-f2e1-4f77-9af8-2d113b21de22","hook_event_name":"CwdChanged","old_cwd":"/home/user/proj","new_cwd":"/home/user/proj/sub"}',
  ],
  [
    'SessionEnd',
    '{"session_id":"aa5578cd-0579-4db3-8fb8-5ba31c190fa9","transcript_path":"/home/user/.claude/projects/-home-user-proj/aa5578cd-0579-4db3-8fb8-5ba31c190fa9.jsonl","cwd":"/home/user/proj","prompt_id":"4a04800c-ad91-473c-ab36-9e7117c4eb35","hook_event_name":"SessionEnd","reason":"other"}',
  ],
]

const WITH_PERMISSION_MODE = [
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
  'SubagentStop',
  // Observed on Claude Code 2.1.336 (drivers/claude-code/test/real-claude-interrupt-hook.test.ts, golden Interrupt*.json).
  'Interrupt',
]
// PermissionDenied: observed under auto and plan mode (Claude Code 2.1.332), `reason` last.
const WITH_EFFORT = [
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
  'SubagentStop',
  'Interrupt',
]

const COMMON_KEYS = new Set(['session_id', 'transcript_path', 'cwd', 'prompt_id', 'permission_mode', 'agent_id', 'agent_type', 'effort'])

/**
 * The arguments that must rebuild an observed payload. `permission_mode` and `effort` are always offered (every
 * observation ran under a model with an effort level), so their absence must come from the event; `prompt_id` and the
 * agent are offered only when observed (they depend on when and where the event fired, not on its type).
 */
function argumentsOf(observed: Record<string, unknown>): { event: string; common: CommonFields; fields: Record<string, unknown> } {
  const keys = Object.keys(observed)
  const fields = Object.fromEntries(keys.slice(keys.indexOf('hook_event_name') + 1).map((key) => [key, observed[key]]))
  const common: CommonFields = {
    sessionId: observed.session_id as string,
    transcriptPath: observed.transcript_path as string,
    cwd: observed.cwd as string,
    permissionMode: (observed.permission_mode as PermissionMode | undefined) ?? 'bypassPermissions',
    effort: (observed.effort as { level: string } | undefined)?.level ?? 'medium',
  }
  if (typeof observed.prompt_id === 'string') common.promptId = observed.prompt_id
  if (typeof observed.agent_id === 'string') common.agent = { id: observed.agent_id, type: observed.agent_type as string }
  return { event: observed.hook_event_name as string, common, fields }
}

const common: CommonFields = {
  sessionId: 'aa5578cd-0579-4db3-8fb8-5ba31c190fa9',
  transcriptPath: '/home/user/.harness/sessions/aa5578cd.jsonl',
  cwd: '/home/user/proj',
  promptId: '4a04800c-ad91-473c-ab36-9e7117c4eb35',
  permissionMode: 'bypassPermissions',
  effort: 'medium',
}

describe('claudePayload: the observed payloads of §5, byte for byte', () => {
  it.each(OBSERVED)('%s', (_label, line) => {
    const observed = JSON.parse(line) as Record<string, unknown>
    // Only common keys precede hook_event_name in what Claude Code sent.
    expect(
      Object.keys(observed)
        .slice(0, Object.keys(observed).indexOf('hook_event_name'))
        .every((key) => COMMON_KEYS.has(key)),
    ).toBe(true)
    const { event, common: fromObserved, fields } = argumentsOf(observed)
    expect(payloadLine(claudePayload(event, fromObserved, fields))).toBe(`${line}\n`)
  })
})

describe('claudePayload: which common fields appear', () => {
  it.each(CLAUDE_EVENTS.map((event) => [event]))(
    '%s: permission_mode and effort exactly where §5 lists them, always before hook_event_name',
    (event) => {
      const payload = claudePayload(event, common, { extra: 1 })
      const keys = [
        'session_id',
        'transcript_path',
        'cwd',
        'prompt_id',
        ...(WITH_PERMISSION_MODE.includes(event) ? ['permission_mode'] : []),
        ...(WITH_EFFORT.includes(event) ? ['effort'] : []),
        'hook_event_name',
        'extra',
      ]
      expect(Object.keys(payload)).toEqual(keys)
      expect(payload.hook_event_name).toBe(event)
      if (WITH_PERMISSION_MODE.includes(event)) expect(payload.permission_mode).toBe('bypassPermissions')
      if (WITH_EFFORT.includes(event)) expect(payload.effort).toEqual({ level: 'medium' })
    },
  )

  it('the permission mode given is the one reported', () => {
    for (const mode of ['default', 'plan', 'acceptEdits', 'auto', 'dontAsk', 'bypassPermissions'] as const) {
      expect(claudePayload('PreToolUse', { ...common, permissionMode: mode }, {}).permission_mode).toBe(mode)
    }
  })

  it('no effort level: no `effort` on any event', () => {
    for (const event of CLAUDE_EVENTS)
      expect(Object.keys(claudePayload(event, { ...common, effort: undefined }, {}))).not.toContain('effort')
  })

  it('no permission mode: no `permission_mode` on any event', () => {
    for (const event of CLAUDE_EVENTS) {
      expect(Object.keys(claudePayload(event, { ...common, permissionMode: undefined }, {}))).not.toContain('permission_mode')
    }
  })

  it('before the first prompt there is no `prompt_id` (SessionStart `startup`, InstructionsLoaded)', () => {
    const { promptId: _none, ...withoutPrompt } = common
    expect(payloadLine(claudePayload('SessionStart', withoutPrompt, { source: 'startup' }))).toBe(
      `{"session_id":"aa5578cd-0579-4db3-8fb8-5ba31c190fa9","transcript_path":"/home/user/.harness/sessions/aa5578cd.jsonl","cwd":"/home/user/proj","hook_event_name":"SessionStart","source":"startup"}\n`,
    )
  })

  it('inside a subagent, PreToolUse gains agent_id and agent_type after permission_mode and before effort', () => {
    const payload = claudePayload(
      'PreToolUse',
      { ...common, agent: { id: 'ade4109bf56ec3f04', type: 'general-purpose' } },
      { tool_name: 'Bash', tool_input: { command: 'echo hi', description: 'run echo hi' }, tool_use_id: 'toolu_fake_2' },
    )
    expect(Object.keys(payload)).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'prompt_id',
      'permission_mode',
      'agent_id',
      'agent_type',
      'effort',
      'hook_event_name',
      'tool_name',
      'tool_input',
      'tool_use_id',
    ])
    expect([payload.agent_id, payload.agent_type]).toEqual(['ade4109bf56ec3f04', 'general-purpose'])
  })
})

describe('claudePayload: the event’s own fields', () => {
  it('keeps them in the order given, after hook_event_name', () => {
    const payload = claudePayload('PostToolUse', common, {
      tool_name: 'Bash',
      tool_input: {},
      tool_response: {},
      tool_use_id: 't',
      duration_ms: 1,
    })
    expect(Object.keys(payload).slice(-6)).toEqual([
      'hook_event_name',
      'tool_name',
      'tool_input',
      'tool_response',
      'tool_use_id',
      'duration_ms',
    ])
  })

  it('leaves out a field whose value is undefined and keeps a null (`"custom_instructions":null`)', () => {
    const line = payloadLine(claudePayload('PreCompact', common, { trigger: 'manual', custom_instructions: null, absent: undefined }))
    expect(line).toBe(
      '{"session_id":"aa5578cd-0579-4db3-8fb8-5ba31c190fa9","transcript_path":"/home/user/.harness/sessions/aa5578cd.jsonl","cwd":"/home/user/proj","prompt_id":"4a04800c-ad91-473c-ab36-9e7117c4eb35","hook_event_name":"PreCompact","trigger":"manual","custom_instructions":null}\n',
    )
  })

  it('a Stop after a block differs only in `stop_hook_active` and `last_assistant_message`', () => {
    const fields = (active: boolean, last: string) => ({
      stop_hook_active: active,
      last_assistant_message: last,
      background_tasks: [],
      session_crons: [],
    })
    const first = payloadLine(claudePayload('Stop', common, fields(false, 'FINAL reply to request #1')))
    const again = payloadLine(claudePayload('Stop', common, fields(true, 'FINAL reply to request #2')))
    expect(again).toBe(first.replace('"stop_hook_active":false', '"stop_hook_active":true').replace('request #1', 'request #2'))
  })
})

describe('payloadLine', () => {
  it('is JSON.stringify(payload) and one `\\n`: one line whatever the strings hold, final byte 0x0a', () => {
    const payload = claudePayload('UserPromptSubmit', common, { prompt: 'line 1\nline 2\r\n\t"quoted" ünïcode \u2028 end' })
    const line = payloadLine(payload)
    expect(line).toBe(`${JSON.stringify(payload)}\n`)
    expect(line.indexOf('\n')).toBe(line.length - 1)
    expect(Buffer.from(line).at(-1)).toBe(0x0a)
    expect(JSON.parse(line)).toEqual(payload)
  })
})
