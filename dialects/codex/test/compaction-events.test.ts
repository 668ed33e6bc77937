import { describe, expect, it } from 'vitest'
import { codexHarnessPerTest, rec } from './codex-harness.js'

const setup = codexHarnessPerTest()

describe('a compaction (session.compact) runs Codex’s compaction hooks with its payloads', () => {
  it('PreCompact and PostCompact with trigger manual and a turn id; SessionStart compact at the next turn', async () => {
    const h = setup({
      script: [{ text: 'first reply' }, { text: 'THE SUMMARY' }, { text: 'second reply' }],
      hooks: {
        PreCompact: [{ hooks: [rec('PreCompact')] }],
        PostCompact: [{ hooks: [rec('PostCompact')] }],
        SessionStart: [{ hooks: [rec('SessionStart')] }],
      },
    })
    const session = await h.kernel.startSession()
    await session.run('first')
    expect(await session.compact()).toMatchObject({ status: 'compacted', summary: 'THE SUMMARY' })
    await session.run('second')
    const calls = h.calls().map((call) => JSON.parse(call.stdin) as Record<string, unknown>)
    expect(calls.map((payload) => [payload.hook_event_name, payload.source ?? payload.trigger])).toEqual([
      ['SessionStart', 'startup'],
      ['PreCompact', 'manual'],
      ['PostCompact', 'manual'],
      ['SessionStart', 'compact'],
    ])
    const [, pre, post] = calls
    expect(pre?.turn_id).toEqual(expect.any(String))
    expect(post?.turn_id).toBe(pre?.turn_id)
    expect(pre).not.toHaveProperty('permission_mode')
  })
})
