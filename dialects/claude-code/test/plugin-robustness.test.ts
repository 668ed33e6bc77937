import { definePlugin, type NoticePayload } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { bash, claudeHarnessPerTest, hookRuns, rec } from './claude-harness.js'

const harness = claudeHarnessPerTest()
const json = (value: unknown) => JSON.stringify(value)

function noticeRecorder() {
  const seen: NoticePayload[] = []
  const plugin = definePlugin({
    name: 'notice-recorder',
    setup(kernel) {
      kernel.hooks.notice.tap('notice-recorder', (payload) => {
        seen.push(payload)
      })
    },
  })
  return { plugin, seen }
}

describe('bad hooks: a clear error naming the cause, and nothing else lost', () => {
  it('garbage, a flood of output and a hang in three handlers of one event: each is reported, the fourth handler still decides', async () => {
    const { plugin, seen } = noticeRecorder()
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: {
        PostToolUse: [
          {
            hooks: [
              { type: 'command', command: 'printf "{not json at all"' },
              { type: 'command', command: 'head -c 20000000 /dev/zero | tr "\\\\0" "x"' },
              { type: 'command', command: 'sleep 30', timeout: 1 },
              rec('PostToolUse', 'good'),
            ],
          },
        ],
      },
      responses: {
        'PostToolUse-good.stdout': json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'STILL-HERE' } }),
      },
      plugins: [plugin],
      options: { rendering: 'classic' },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    const output = h
      .requests()[1]!
      .messages.flatMap((message) => message.content)
      .find((block) => block.type === 'tool_result')
    expect(output).toMatchObject({
      output: 'hi\n\n<system-reminder>\nPostToolUse:Bash hook additional context: STILL-HERE\n</system-reminder>',
    })
    const texts = seen.map((notice) => notice.text)
    expect(texts.some((text) => text.includes('printf "{not json at all"') && text.includes('invalid JSON output'))).toBe(true)
    expect(texts.some((text) => text.includes('sleep 30') && text.includes('timed out after 1 s; no decision'))).toBe(true)
    const runs = hookRuns(session.transcriptPath).filter((run) => run.event === 'PostToolUse')
    expect(runs.map((run) => run.outcome).sort()).toEqual(['error', 'success', 'success', 'timeout'])
  })

  it('a hook that cannot start (missing script) fails open with exit 127 named', async () => {
    const { plugin, seen } = noticeRecorder()
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '/no/such/hook.sh' }] }] },
      plugins: [plugin],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    expect(result.messages.flatMap((message) => message.content).find((block) => block.type === 'tool_result')).toMatchObject({
      output: 'hi',
    })
    expect(seen.some((notice) => /\/no\/such\/hook\.sh failed: exit code 127: .*not found/.test(notice.text))).toBe(true)
  })

  it('malformed settings: the file is named with the position; the other sources still load', async () => {
    const { plugin, seen } = noticeRecorder()
    const h = harness({
      script: [{ text: 'done' }],
      hooks: { Stop: [{ hooks: [rec('Stop')] }] },
      plugins: [plugin],
      options: { settings: ['{"hooks": {"Stop": [ }'] },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(h.calls('Stop')).toHaveLength(1)
    expect(seen.some((notice) => notice.text.includes('<--settings #1>') && /invalid JSON/.test(notice.text))).toBe(true)
  })
})
