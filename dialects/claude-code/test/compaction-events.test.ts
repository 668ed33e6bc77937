import { describe, expect, it } from 'vitest'
import { claudeHarnessPerTest, recordEvents } from './claude-harness.js'

const harness = claudeHarnessPerTest()

describe('a compaction (session.compact) runs Claude Code’s compaction hooks with its payloads', () => {
  it('PreCompact (trigger, custom_instructions), PostCompact (compact_summary), then SessionStart with source compact', async () => {
    const h = harness({
      script: [{ text: 'first reply' }, { text: 'THE SUMMARY' }],
      hooks: recordEvents(['PreCompact', 'PostCompact', 'SessionStart']),
    })
    const session = await h.kernel.startSession()
    await session.run('first')
    expect(await session.compact({ instructions: 'keep the file names' })).toMatchObject({ status: 'compacted', summary: 'THE SUMMARY' })
    const calls = h.calls()
    expect(calls.map((call) => [call.event, call.payload.source ?? call.payload.trigger])).toEqual([
      ['SessionStart', 'startup'],
      ['PreCompact', 'manual'],
      ['PostCompact', 'manual'],
      ['SessionStart', 'compact'],
    ])
    expect(calls[1]?.payload).toMatchObject({
      hook_event_name: 'PreCompact',
      trigger: 'manual',
      custom_instructions: 'keep the file names',
    })
    expect(calls[2]?.payload).toMatchObject({ hook_event_name: 'PostCompact', trigger: 'manual', compact_summary: 'THE SUMMARY' })
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
