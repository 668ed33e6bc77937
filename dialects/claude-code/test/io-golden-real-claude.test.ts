import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { claudePayload, payloadLine } from '../src/index.js'

const dir = fileURLToPath(new URL('./fixtures/golden/', import.meta.url))
const COMMON = new Set([
  'session_id',
  'transcript_path',
  'cwd',
  'prompt_id',
  'permission_mode',
  'agent_id',
  'agent_type',
  'effort',
  'hook_event_name',
])

interface Golden {
  stdin: string
  captured: string
}

/** Bare numeric placeholders (`<DURATION_MS>`) become numbers, so the captured line parses. */
function parse(stdin: string): Record<string, unknown> {
  return JSON.parse(stdin.replace(/(?<=:)<[A-Z_]+>/g, '0')) as Record<string, unknown>
}

const files = readdirSync(dir).filter((name) => /^[A-Z]\w+(\.[\w-]+)?\.json$/.test(name))

describe('payloads rebuilt from captures of the real Claude Code 2.1.332 (fixtures/golden)', () => {
  it('has a capture for every event the dialect produces from its own points', () => {
    const events = new Set(files.map((name) => name.split('.')[0]))
    for (const event of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure'])
      expect(events).toContain(event)
    for (const event of [
      'PostToolBatch',
      'MessageDisplay',
      'Stop',
      'SubagentStart',
      'SubagentStop',
      'PreCompact',
      'PostCompact',
      'SessionEnd',
    ])
      expect(events).toContain(event)
  })

  it.each(files)('%s: same bytes from claudePayload, whatever permission mode and effort the dialect is given', (name) => {
    const golden = JSON.parse(readFileSync(`${dir}${name}`, 'utf8')) as Golden
    const line = golden.stdin.replace(/(?<=:)<[A-Z_]+>/g, '0')
    const captured = parse(golden.stdin)
    const event = captured.hook_event_name as string
    const fields = Object.fromEntries(Object.entries(captured).filter(([key]) => !COMMON.has(key)))
    const effort = captured.effort as { level: string } | undefined
    const rebuilt = claudePayload(
      event,
      {
        sessionId: captured.session_id as string,
        transcriptPath: captured.transcript_path as string,
        cwd: captured.cwd as string,
        promptId: captured.prompt_id as string | undefined,
        // Always given: the builder itself must leave them out where Claude Code does.
        permissionMode: (captured.permission_mode as 'bypassPermissions' | undefined) ?? 'bypassPermissions',
        agent: typeof captured.agent_id === 'string' ? { id: captured.agent_id, type: captured.agent_type as string } : undefined,
        effort: effort?.level ?? (name.includes('no-effort') ? undefined : 'medium'),
      },
      fields,
    )
    expect(payloadLine(rebuilt)).toBe(line)
  })
})
