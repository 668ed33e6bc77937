import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { assistantMessage, userMessage } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { cacheWritePrice, resumeFields } from '../src/plugin/resume-fields.js'
import { claudeHarnessPerTest, recordEvents } from './claude-harness.js'

const harness = claudeHarnessPerTest()

describe('a compaction (session.compact) runs Claude Code’s compaction hooks with its payloads', () => {
  it('PreCompact (trigger, custom_instructions), SessionStart with source compact, then PostCompact (compact_summary)', async () => {
    const h = harness({
      script: [{ text: 'first reply' }, { text: 'THE SUMMARY' }],
      hooks: recordEvents(['PreCompact', 'PostCompact', 'SessionStart']),
    })
    const session = await h.kernel.startSession()
    await session.run('first')
    expect(await session.compact({ instructions: 'keep the file names' })).toMatchObject({ status: 'compacted', summary: 'THE SUMMARY' })
    const calls = h.calls()
    // Claude Code 2.1.332 (golden g-compact, conformance c01-compact): SessionStart `compact` before PostCompact.
    expect(calls.map((call) => [call.event, call.payload.source ?? call.payload.trigger])).toEqual([
      ['SessionStart', 'startup'],
      ['PreCompact', 'manual'],
      ['SessionStart', 'compact'],
      ['PostCompact', 'manual'],
    ])
    expect(calls[1]?.payload).toMatchObject({
      hook_event_name: 'PreCompact',
      trigger: 'manual',
      custom_instructions: 'keep the file names',
    })
    expect(calls[3]?.payload).toMatchObject({ hook_event_name: 'PostCompact', trigger: 'manual', compact_summary: 'THE SUMMARY' })
  })

  it('a manual compaction is a prompt: its PreCompact, SessionStart, PostCompact and SessionEnd share a new prompt_id', async () => {
    const h = harness({
      script: [{ text: 'first reply' }, { text: 'THE SUMMARY' }, { text: 'after' }],
      hooks: recordEvents(['UserPromptSubmit', 'PreCompact', 'PostCompact', 'SessionStart', 'SessionEnd']),
    })
    const session = await h.kernel.startSession()
    await session.run('first')
    await session.compact({ instructions: 'keep it' })
    await session.end()
    const calls = h.calls()
    expect(calls.map((call) => call.event)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PreCompact',
      'SessionStart',
      'PostCompact',
      'SessionEnd',
    ])
    const turnPrompt = calls[1]!.payload.prompt_id
    const compactPrompt = calls[2]!.payload.prompt_id
    expect(typeof compactPrompt).toBe('string')
    expect(compactPrompt).not.toBe(turnPrompt)
    for (const call of calls.slice(2)) expect(call.payload.prompt_id).toBe(compactPrompt)
    expect(calls[0]!.payload).not.toHaveProperty('prompt_id')
  })

  it('SessionStart `compact` ends with the model (the provider id, or the `model` option); key order as Claude Code', async () => {
    const h = harness({
      script: [{ text: 'first reply' }, { text: 'THE SUMMARY' }],
      hooks: recordEvents(['SessionStart', 'PreCompact']),
    })
    const session = await h.kernel.startSession()
    await session.run('first')
    await session.compact()
    const [startup, compact] = h.calls('SessionStart')
    expect(startup!.payload).not.toHaveProperty('model')
    expect(Object.keys(compact!.payload)).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'prompt_id',
      'hook_event_name',
      'source',
      'model',
    ])
    expect(compact!.payload.model).toBe('scripted')
    expect(h.calls('PreCompact')[0]!.payload.custom_instructions).toBeNull()

    const named = harness({
      script: [{ text: 'first reply' }, { text: 'THE SUMMARY' }],
      hooks: recordEvents(['SessionStart']),
      options: { model: 'claude-opus-5-5' },
    })
    const other = await named.kernel.startSession()
    await other.run('first')
    await other.compact()
    expect(named.calls('SessionStart')[1]!.stdin).toMatch(/"source":"compact","model":"claude-opus-5-5"}\n$/)
  })

  it('a PreCompact hook that blocks (exit 2) stops the compaction', async () => {
    const h = harness({
      script: [{ text: 'first reply' }],
      hooks: { PreCompact: [{ hooks: [{ type: 'command', command: 'echo "not now" >&2; exit 2' }] }] },
    })
    const session = await h.kernel.startSession()
    await session.run('first')
    const result = await session.compact()
    expect(result).toMatchObject({ status: 'halted' })
    expect(result.status === 'halted' && result.reason).toContain('not now')
    expect(session.messages.map((message) => message.role)).toEqual(['user', 'assistant'])
  })
})

describe('SessionStart `resume`: the prompt-cache fields (Claude Code 2.1.332)', () => {
  it('a resumed session gets seconds_since_last_response, context_tokens, prompt_cache_likely_expired, estimated_cache_write_usd', async () => {
    const h = harness({ script: [{ text: 'first reply' }], hooks: recordEvents(['SessionStart']) })
    const session = await h.kernel.startSession()
    await session.run('first')
    await session.end()
    await h.kernel.resumeSession(session.id)
    const [startup, resume] = h.calls('SessionStart')
    expect(startup!.payload).not.toHaveProperty('context_tokens')
    expect(Object.keys(resume!.payload)).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'hook_event_name',
      'source',
      'seconds_since_last_response',
      'context_tokens',
      'prompt_cache_likely_expired',
      'estimated_cache_write_usd',
    ])
    expect(resume!.payload).toMatchObject({ source: 'resume', prompt_cache_likely_expired: false })
    expect(resume!.payload.seconds_since_last_response).toBeLessThan(60)
    expect(resume!.payload.context_tokens).toBeGreaterThan(0)
    expect(typeof resume!.payload.estimated_cache_write_usd).toBe('number')
  })

  it('computes them from the log: the last response’s time and usage, the 5-minute TTL, the model’s cache-write price', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-resume-'))
    const log = join(dir, 'log.jsonl')
    const answer = { ...assistantMessage([{ type: 'text', text: 'hi' }]), meta: { usage: { inputTokens: 102, outputTokens: 12 } } }
    const lines = (...events: object[]) => writeFileSync(log, `${events.map((event) => JSON.stringify(event)).join('\n')}\n`)
    const at = '2026-01-01T00:00:00.000Z'
    const t0 = Date.parse(at)
    lines(
      { v: 1, seq: 1, at, type: 'session/start', sessionId: 's', cwd: '/', createdAt: at },
      { v: 1, seq: 2, at, type: 'message', message: userMessage('hello') },
      { v: 1, seq: 3, at, type: 'message', message: answer },
    )
    const session = { transcriptPath: log, messages: [userMessage('hello'), answer] }
    // The real run (c01-compact): 2 s after, 102 + 12 tokens, Opus 5.5 ($5 per million cache-write tokens).
    expect(resumeFields(session, 'claude-opus-5-5', t0 + 2_400)).toEqual({
      seconds_since_last_response: 2,
      context_tokens: 114,
      prompt_cache_likely_expired: false,
      estimated_cache_write_usd: 0.0006,
    })
    expect(resumeFields(session, 'claude-opus-5-5', t0 + 300_000)?.prompt_cache_likely_expired).toBe(true)
    expect(resumeFields(session, 'claude-opus-5-5', t0 + 299_000)?.prompt_cache_likely_expired).toBe(false)
    // A compaction after the last response: the compacted conversation was never cached.
    lines(
      { v: 1, seq: 3, at, type: 'message', message: answer },
      { v: 1, seq: 4, at, type: 'compaction', trigger: 'manual', summary: 'S', kept: 0 },
    )
    expect(resumeFields(session, 'claude-opus-5-5', t0 + 1_000)?.prompt_cache_likely_expired).toBe(true)
    // No assistant message yet: no fields, as Claude Code.
    lines({ v: 1, seq: 2, at, type: 'message', message: userMessage('hello') })
    expect(resumeFields(session, 'claude-opus-5-5', t0)).toBeUndefined()
  })

  it('prices by the longest catalog id the model name starts with; unknown models at Claude Code’s default', () => {
    expect(cacheWritePrice('claude-opus-5-5')).toBe(5)
    expect(cacheWritePrice('claude-opus-5')).toBe(6.25)
    expect(cacheWritePrice('claude-sonnet-4-5-20250929')).toBe(3.75)
    expect(cacheWritePrice('claude-haiku-4-5')).toBe(1.25)
    expect(cacheWritePrice('scripted')).toBe(6.25)
  })
})
