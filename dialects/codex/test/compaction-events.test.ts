import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { defaultCompactor, definePlugin, type Message, textOf } from '@harness-kernel/kernel'
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
    // The session keeps the hooks it started with: a compaction reloads nothing.
    writeFileSync(join(h.codexHome, 'hooks.json'), JSON.stringify({ hooks: {} }))
    expect(await session.compact()).toMatchObject({ status: 'compacted', summary: 'THE SUMMARY' })
    expect(h.calls().map((call) => call.event)).toEqual(['SessionStart', 'PreCompact', 'PostCompact'])
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

  it('auto (mid-turn): SessionStart compact right after PostCompact, in the same turn, its context in the next request', async () => {
    // Compacts once, before the request that carries the shell call's result; Codex's history shape.
    let compacted = false
    const compactor = definePlugin({
      name: 'compact-once',
      setup(kernel) {
        const base = defaultCompactor({ retain: 'user-messages' })
        kernel.provide('compactor', {
          ...base,
          shouldCompact: (request) => {
            if (compacted || !request.messages.some((message) => message.role === 'tool')) return false
            compacted = true
            return true
          },
        })
      },
    })
    const h = setup({
      script: [{ tool_calls: [{ name: 'shell', input: { command: 'true' } }] }, { text: 'THE SUMMARY' }, { text: 'done' }],
      hooks: {
        PreCompact: [{ hooks: [rec('PreCompact')] }],
        PostCompact: [{ hooks: [rec('PostCompact')] }],
        SessionStart: [{ hooks: [rec('SessionStart')] }],
        Stop: [{ hooks: [rec('Stop')] }],
      },
      responses: { 'SessionStart-h.2.stdout': 'context after compaction' },
      plugins: [compactor],
    })
    const session = await h.kernel.startSession()
    expect((await session.run('go')).status).toBe('completed')
    const calls = h.calls().map((call) => JSON.parse(call.stdin) as Record<string, unknown>)
    expect(calls.map((payload) => [payload.hook_event_name, payload.source ?? payload.trigger ?? null])).toEqual([
      ['SessionStart', 'startup'],
      ['PreCompact', 'auto'],
      ['PostCompact', 'auto'],
      ['SessionStart', 'compact'],
      ['Stop', null],
    ])
    const [, pre, post, start, stop] = calls
    expect(post?.turn_id).toBe(pre?.turn_id)
    expect(stop?.turn_id).toBe(pre?.turn_id)
    expect(start).not.toHaveProperty('turn_id')
    // The request after the summary: the user's prompt, the summary, then the SessionStart context.
    const last = h.model.requests.at(-1)?.messages ?? []
    expect(last.map((message: Message) => [message.role, textOf(message).split('\n')[0]])).toEqual([
      ['user', 'go'],
      ['user', 'This session continues a conversation that was summarized to fit the context window. The summary:'],
      ['developer', 'context after compaction'],
    ])
  })
})
