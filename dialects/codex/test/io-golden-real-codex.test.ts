import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { type CodexEvent, type CodexPayloadFields, codexPayload } from '../src/index.js'

const folder = fileURLToPath(new URL('./fixtures/golden/', import.meta.url))
const fixtures = readdirSync(folder).filter((name) => name.endsWith('.json') && name !== 'process.json' && name !== 'biome.json')

/** The payload fields the builder takes, read back from a captured payload. */
function fieldsOf(payload: Record<string, unknown>): CodexPayloadFields {
  const has = (key: string) => Object.hasOwn(payload, key)
  const fields: CodexPayloadFields = {
    sessionId: payload.session_id as string,
    transcriptPath: payload.transcript_path as string | null,
    cwd: payload.cwd as string,
  }
  const map: [string, keyof CodexPayloadFields][] = [
    ['turn_id', 'turnId'],
    ['model', 'model'],
    ['permission_mode', 'permissionMode'],
    ['source', 'source'],
    ['prompt', 'prompt'],
    ['tool_name', 'toolName'],
    ['tool_input', 'toolInput'],
    ['tool_response', 'toolResponse'],
    ['tool_use_id', 'toolUseId'],
    ['trigger', 'trigger'],
    ['agent_transcript_path', 'agentTranscriptPath'],
    ['stop_hook_active', 'stopHookActive'],
    ['last_assistant_message', 'lastAssistantMessage'],
    ['reason', 'reason'],
    ['kind', 'kind'],
    ['request_id', 'requestId'],
    ['attempt_number', 'attemptNumber'],
    ['thread_id', 'threadId'],
    ['status', 'status'],
    ['error', 'error'],
    ['token_usage', 'tokenUsage'],
    ['response_id', 'responseId'],
  ]
  for (const [key, field] of map) if (has(key)) (fields as unknown as Record<string, unknown>)[field] = payload[key]
  const event = payload.hook_event_name as string
  if (has('agent_id')) {
    if (event === 'SubagentStart' || event === 'SubagentStop') {
      fields.agentId = payload.agent_id as string
      fields.agentType = payload.agent_type as string
    } else fields.subagent = { agentId: payload.agent_id as string, agentType: payload.agent_type as string }
  }
  return fields
}

describe('payloads match the bytes the real Codex sent (fixtures/golden: 0.169.0; the model-request events 0.171.0)', () => {
  it('has a capture of every event', () => {
    const events = new Set(fixtures.map((name) => name.split('.')[0]))
    expect([...events].sort()).toEqual(
      [
        'Interrupt',
        'PreModelRequest',
        'PostModelRequest',
        'PermissionRequest',
        'PostCompact',
        'PostToolUse',
        'PreCompact',
        'PreToolUse',
        'SessionEnd',
        'SessionStart',
        'Stop',
        'SubagentStart',
        'SubagentStop',
        'UserPromptSubmit',
      ].sort(),
    )
  })

  for (const name of fixtures) {
    it(name, () => {
      const bytes = readFileSync(`${folder}${name}`, 'utf8')
      const payload = JSON.parse(bytes) as Record<string, unknown>
      expect(codexPayload(payload.hook_event_name as CodexEvent, fieldsOf(payload))).toBe(bytes)
    })
  }
})
