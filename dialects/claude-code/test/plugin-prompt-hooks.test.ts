import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { bash, claudeHarnessPerTest } from './claude-harness.js'

const harness = claudeHarnessPerTest()
const promptHook = (prompt: string, extra: Record<string, unknown> = {}) => ({ type: 'prompt', prompt, ...extra })

describe('prompt handlers, answered by the kernel’s own model', () => {
  it('PreToolUse `ok:false` denies the call with the reason and ends the turn', async () => {
    const h = harness({
      // The scripted model answers in order: the turn's first step, then the prompt hook's question.
      script: [bash('touch ran.txt'), { text: '{"ok": false, "reason": "touching files is not allowed"}' }, { text: 'never' }],
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [promptHook('Is this call safe? $ARGUMENTS')] }] },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(false)
    expect(result).toMatchObject({ status: 'halted', reason: 'touching files is not allowed' })
    const question = h.requests()[1]!
    expect(question.tools).toEqual([])
    const asked = question.messages.map((message) => message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''))
    expect(asked).toHaveLength(1)
    expect(asked[0]).toMatch(
      /^Is this call safe\? \{"session_id":"[^"]+",.*"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":\{"command":"touch ran.txt"/,
    )
    const tool = result.messages.flatMap((message) => message.content).find((block) => block.type === 'tool_result')
    expect(tool).toMatchObject({ output: 'PreToolUse:Bash hook error: touching files is not allowed', isError: true })
  })

  it('PreToolUse `ok:false` with continueOnBlock denies the call and the turn goes on', async () => {
    const h = harness({
      script: [bash('touch ran.txt'), { text: '{"ok":false,"reason":"no"}' }, { text: 'understood' }],
      hooks: { PreToolUse: [{ hooks: [promptHook('Safe? $ARGUMENTS', { continueOnBlock: true })] }] },
    })
    const session = await h.kernel.startSession()
    expect(await session.run('go')).toMatchObject({ status: 'completed', lastAssistantMessage: 'understood' })
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(false)
  })

  it('Stop `ok:false` continues the turn with the reason; an invalid answer decides nothing', async () => {
    const h = harness({
      script: [
        { text: 'first answer' },
        { text: '{"ok":false,"reason":"run the tests first"}' },
        { text: 'tests ran' },
        { text: 'not JSON' },
      ],
      hooks: { Stop: [{ hooks: [promptHook('Is the work done? $ARGUMENTS')] }] },
      options: { rendering: 'classic' },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'tests ran' })
    const continued = JSON.stringify(h.requests()[2]!.messages.at(-1))
    expect(continued).toContain('Stop hook feedback:\\nrun the tests first')
  })
})
