import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CODEX_EVENTS, type CodexEvent } from '../src/events.js'
import { type CodexPayloadFields, codexPayload } from '../src/io/payload.js'

// §5.3, copied verbatim: one `<Event>\t<payload>` per line.
const golden = readFileSync(new URL('./fixtures/io/golden-payloads.tsv', import.meta.url), 'utf8')
  .trimEnd()
  .split('\n')
  .map((line) => {
    const [event, json] = line.split('\t') as [CodexEvent, string]
    return { event, json }
  })

const camel = (key: string): string => key.replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase())

function fieldsFrom(json: string): CodexPayloadFields {
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(JSON.parse(json) as Record<string, unknown>)) {
    if (key !== 'hook_event_name') fields[camel(key)] = value
  }
  return fields as unknown as CodexPayloadFields
}

const base = {
  sessionId: 'S',
  turnId: 'T',
  transcriptPath: '/t.jsonl',
  cwd: '/p',
  model: 'm',
  permissionMode: 'default',
} satisfies CodexPayloadFields

describe('codexPayload: golden payloads (checklist 45)', () => {
  it('the fixture holds every event', () => {
    expect(golden.map((g) => g.event).sort()).toEqual([...CODEX_EVENTS].sort())
  })

  it.each(golden)('$event rebuilds byte for byte from its fields', ({ event, json }) => {
    expect(codexPayload(event, fieldsFrom(json))).toBe(json)
  })

  it('PreToolUse from literal fields', () => {
    const payload = codexPayload('PreToolUse', {
      sessionId: '01a22ac3-8137-70b0-aa40-d4a027071747',
      turnId: '01a22ac3-8176-7b80-8690-f21961581def',
      transcriptPath: '/home/user/.codex/sessions/2026/11/30/rollout-2026-11-30T04-43-05-01a22ac3-8137-70b0-aa40-d4a027071747.jsonl',
      cwd: '/home/user/proj',
      model: 'gpt-5.1-codex',
      permissionMode: 'bypassPermissions',
      toolName: 'Bash',
      toolInput: { command: 'echo hello-from-tool' },
      toolUseId: 'call_0',
    })
    expect(payload).toBe(golden.find((g) => g.event === 'PreToolUse')!.json)
  })

  it('SubagentStop from literal fields', () => {
    const payload = codexPayload('SubagentStop', {
      sessionId: '01a22ac5-f4d4-78f3-ab1d-99069d70aeaf',
      turnId: '01a22ac5-f60b-7253-bedf-cc74e7115959',
      transcriptPath: '/home/user/.codex/sessions/2026/11/30/rollout-2026-11-30T04-45-46-01a22ac5-f4d4-78f3-ab1d-99069d70aeaf.jsonl',
      agentTranscriptPath: '/home/user/.codex/sessions/2026/11/30/rollout-2026-11-30T04-45-46-01a22ac5-f603-7031-bbf9-f89920b67d51.jsonl',
      cwd: '/home/user/proj',
      model: 'gpt-5.1-codex',
      permissionMode: 'bypassPermissions',
      stopHookActive: false,
      agentId: '01a22ac5-f603-7031-bbf9-f89920b67d51',
      agentType: 'default',
      lastAssistantMessage: 'Sub done.',
    })
    expect(payload).toBe(golden.find((g) => g.event === 'SubagentStop')!.json)
  })
})

describe('codexPayload: shape rules', () => {
  it('is compact JSON ending in `}`, no trailing newline (checklist 34)', () => {
    const payload = codexPayload('Interrupt', base)
    expect(payload.endsWith('}')).toBe(true)
    expect(payload).not.toMatch(/\s/)
  })

  it('transcript_path is null for an ephemeral session (checklist 46)', () => {
    expect(codexPayload('Interrupt', { ...base, transcriptPath: null })).toBe(
      '{"session_id":"S","turn_id":"T","transcript_path":null,"cwd":"/p","hook_event_name":"Interrupt","model":"m","permission_mode":"default"}',
    )
  })

  it('last_assistant_message and agent_transcript_path are null when absent', () => {
    expect(codexPayload('Stop', { ...base, stopHookActive: true })).toBe(
      '{"session_id":"S","turn_id":"T","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"Stop","model":"m","permission_mode":"default","stop_hook_active":true,"last_assistant_message":null}',
    )
    expect(
      codexPayload('SubagentStop', { ...base, stopHookActive: false, agentId: 'A', agentType: 'default', lastAssistantMessage: null }),
    ).toBe(
      '{"session_id":"S","turn_id":"T","transcript_path":"/t.jsonl","agent_transcript_path":null,"cwd":"/p","hook_event_name":"SubagentStop","model":"m","permission_mode":"default","stop_hook_active":false,"agent_id":"A","agent_type":"default","last_assistant_message":null}',
    )
  })

  it('fields an event does not carry are left out, whatever the caller passes', () => {
    const everything: CodexPayloadFields = {
      ...base,
      source: 'startup',
      prompt: 'p',
      toolName: 'Bash',
      toolInput: { command: 'x' },
      toolResponse: 'out',
      toolUseId: 'call_1',
      trigger: 'auto',
      agentId: 'A',
      agentType: 'default',
      agentTranscriptPath: '/c.jsonl',
      stopHookActive: false,
      lastAssistantMessage: 'done',
      reason: 'other',
    }
    expect(codexPayload('SessionEnd', everything)).toBe(
      '{"session_id":"S","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"SessionEnd","reason":"other"}',
    )
    expect(codexPayload('SessionStart', everything)).toBe(
      '{"session_id":"S","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"SessionStart","model":"m","permission_mode":"default","source":"startup"}',
    )
  })

  it('permission_mode is passed through (checklist 47)', () => {
    expect(
      JSON.parse(codexPayload('UserPromptSubmit', { ...base, prompt: 'x', permissionMode: 'bypassPermissions' })).permission_mode,
    ).toBe('bypassPermissions')
    expect(JSON.parse(codexPayload('UserPromptSubmit', { ...base, prompt: 'x' })).permission_mode).toBe('default')
  })

  it('PermissionRequest has no tool_use_id; tool_input carries the description (checklist 48)', () => {
    expect(
      codexPayload('PermissionRequest', {
        ...base,
        toolName: 'Bash',
        toolInput: { command: 'touch x', description: 'need to write a file' },
        toolUseId: 'call_9',
      }),
    ).toBe(
      '{"session_id":"S","turn_id":"T","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"PermissionRequest","model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"touch x","description":"need to write a file"}}',
    )
  })

  it('compaction events have no permission_mode and end with trigger (checklist 49)', () => {
    for (const event of ['PreCompact', 'PostCompact'] as const) {
      expect(codexPayload(event, { ...base, trigger: 'auto' })).toBe(
        `{"session_id":"S","turn_id":"T","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"${event}","model":"m","trigger":"auto"}`,
      )
    }
  })

  it('inside a subagent, turn events gain agent_id, agent_type right after turn_id (checklist 50)', () => {
    const subagent = { agentId: 'A', agentType: 'explorer' }
    const head = '{"session_id":"S","turn_id":"T","agent_id":"A","agent_type":"explorer","transcript_path":"/t.jsonl","cwd":"/p"'
    expect(codexPayload('UserPromptSubmit', { ...base, prompt: 'go', subagent })).toBe(
      `${head},"hook_event_name":"UserPromptSubmit","model":"m","permission_mode":"default","prompt":"go"}`,
    )
    expect(codexPayload('PreToolUse', { ...base, toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: 'c', subagent })).toBe(
      `${head},"hook_event_name":"PreToolUse","model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"c"}`,
    )
    expect(codexPayload('PermissionRequest', { ...base, toolName: 'Bash', toolInput: { command: 'ls' }, subagent })).toBe(
      `${head},"hook_event_name":"PermissionRequest","model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"ls"}}`,
    )
    expect(
      codexPayload('PostToolUse', {
        ...base,
        toolName: 'Bash',
        toolInput: { command: 'ls' },
        toolResponse: 'a\n',
        toolUseId: 'c',
        subagent,
      }),
    ).toBe(
      `${head},"hook_event_name":"PostToolUse","model":"m","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":"a\\n","tool_use_id":"c"}`,
    )
    expect(codexPayload('PreCompact', { ...base, trigger: 'auto', subagent })).toBe(
      `${head},"hook_event_name":"PreCompact","model":"m","trigger":"auto"}`,
    )
  })

  it('without a subagent there are no agent fields on turn events (checklist 50)', () => {
    expect(codexPayload('UserPromptSubmit', { ...base, prompt: 'go' })).not.toContain('agent_')
  })

  it('subagent is ignored where Codex has no such fields (Stop, Interrupt)', () => {
    expect(codexPayload('Interrupt', { ...base, subagent: { agentId: 'A', agentType: 'x' } })).toBe(codexPayload('Interrupt', base))
  })

  it('SubagentStart: agent_id, agent_type come last (checklist 51)', () => {
    expect(codexPayload('SubagentStart', { ...base, agentId: 'A', agentType: 'default' })).toBe(
      '{"session_id":"S","turn_id":"T","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"SubagentStart","model":"m","permission_mode":"default","agent_id":"A","agent_type":"default"}',
    )
  })

  it('tool_response is the output text between tool_input and tool_use_id (checklist 52)', () => {
    const payload = codexPayload('PostToolUse', {
      ...base,
      toolName: 'Bash',
      toolInput: { command: 'echo out; echo err >&2; exit 3' },
      toolResponse: 'err-line\nout-line\n',
      toolUseId: 'call_0',
    })
    expect(payload).toContain(
      '"tool_input":{"command":"echo out; echo err >&2; exit 3"},"tool_response":"err-line\\nout-line\\n","tool_use_id":"call_0"}',
    )
  })

  it('stop_hook_active is sent as given (checklist 53)', () => {
    expect(codexPayload('Stop', { ...base, stopHookActive: false, lastAssistantMessage: 'x' })).toContain('"stop_hook_active":false')
    expect(codexPayload('Stop', { ...base, stopHookActive: true, lastAssistantMessage: 'x' })).toContain('"stop_hook_active":true')
  })

  it('SessionStart source "compact" differs only in that value', () => {
    const startup = golden.find((g) => g.event === 'SessionStart')!.json
    expect(codexPayload('SessionStart', { ...fieldsFrom(startup), source: 'compact' })).toBe(startup.replace('"startup"', '"compact"'))
  })

  it('strings use JSON escaping; non-ASCII stays raw', () => {
    expect(codexPayload('UserPromptSubmit', { ...base, prompt: 'é "q" \\ \n\t\u0001' })).toContain(
      '"prompt":"é \\"q\\" \\\\ \\n\\t\\u0001"',
    )
  })

  it('throws when a required field is missing', () => {
    expect(() => codexPayload('PreToolUse', { ...base, toolName: 'Bash', toolInput: {} })).toThrow(
      'codexPayload(PreToolUse): missing toolUseId',
    )
    expect(() => codexPayload('UserPromptSubmit', { ...base, turnId: undefined, prompt: 'x' })).toThrow('missing turnId')
  })
})

describe('codexPayload: the model-request events inside a subagent (Codex 0.171.0)', () => {
  it('puts agent_id, agent_type right before hook_event_name', () => {
    const payload = codexPayload('PreModelRequest', {
      kind: 'sampling',
      requestId: 'R',
      attemptNumber: 1,
      sessionId: 'S',
      threadId: 'C',
      turnId: 'T',
      cwd: '/p',
      transcriptPath: '/c.jsonl',
      model: 'm',
      subagent: { agentId: 'C', agentType: 'default' },
    })
    expect(Object.keys(JSON.parse(payload))).toEqual([
      'kind',
      'request_id',
      'attempt_number',
      'session_id',
      'thread_id',
      'turn_id',
      'cwd',
      'transcript_path',
      'model',
      'agent_id',
      'agent_type',
      'hook_event_name',
    ])
  })
})
