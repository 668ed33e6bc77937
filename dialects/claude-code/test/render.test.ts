import type { Message } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { classicRenderer, hookTextMessage, STOP_PREAMBLE, systemRenderer } from '../src/index.js'

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } })
const assistantCall = (id: string): Message => ({
  role: 'assistant',
  content: [{ type: 'tool_call', id, name: 'shell', input: { command: 'echo hi' } }],
  source: { kind: 'model' },
})
const result = (callId: string, output: string): Message => ({
  role: 'tool',
  content: [{ type: 'tool_result', callId, output, isError: false }],
  source: { kind: 'tool' },
})
const tool = (callId: string, text: string) =>
  hookTextMessage(text, { kind: 'tool', event: 'PostToolUse', hookName: 'PostToolUse:Bash', toolCallId: callId })
const prompt = (text: string) => hookTextMessage(text, { kind: 'prompt', event: 'UserPromptSubmit', hookName: 'UserPromptSubmit' })
const session = (text: string) => hookTextMessage(text, { kind: 'session', event: 'SessionStart', hookName: 'SessionStart' })
const stop = (text: string, form: 'json' | 'exit2', feedback: string) =>
  hookTextMessage(text, { kind: 'stop', event: 'Stop', hookName: 'Stop', form, feedback })
const reminder = (text: string) => `<system-reminder>\n${text}\n</system-reminder>`

describe('renderers', () => {
  const log: Message[] = [
    session('S'),
    prompt('P'),
    user('go'),
    assistantCall('c1'),
    result('c1', 'hi'),
    tool('c1', 'T1'),
    tool('c1', 'T2'),
    stop('Stop hook blocking error from command: "cmd": R', 'json', 'R'),
  ]
  const frozen = JSON.stringify(log)

  it('classic puts every text in user content and leaves the log untouched', () => {
    const rendered = classicRenderer.render(log)
    expect(JSON.stringify(log)).toBe(frozen)
    expect(rendered.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user'])
    expect(rendered[0]!.content).toEqual([
      { type: 'text', text: reminder('S') },
      { type: 'text', text: reminder('P') },
      { type: 'text', text: 'go' },
    ])
    expect(rendered[2]!.content[0]).toMatchObject({ output: `hi\n\n${reminder('T1')}\n\n${reminder('T2')}` })
    expect(rendered[3]!.content).toEqual([
      { type: 'text', text: `${reminder('Stop hook blocking error from command: "cmd": R')}\n` },
      { type: 'text', text: reminder(`${STOP_PREAMBLE}\nStop hook feedback:\nR`) },
    ])
  })

  it('classic: a tool text whose call is not in the request becomes its own reminder', () => {
    const rendered = classicRenderer.render([user('go'), tool('gone', 'T')])
    expect(rendered.map((message) => [message.role, message.content])).toEqual([
      ['user', [{ type: 'text', text: 'go' }]],
      ['user', [{ type: 'text', text: reminder('T') }]],
    ])
  })

  it('classic: prompt texts without a following prompt still reach the model', () => {
    const rendered = classicRenderer.render([prompt('P')])
    expect(rendered).toMatchObject([
      { role: 'user', content: [{ type: 'text', text: reminder('P') }], source: { kind: 'plugin', plugin: 'claude-code-hooks' } },
    ])
  })

  it('system-role keeps the log order and only reshapes Stop blocks', () => {
    const rendered = systemRenderer.render(log)
    expect(JSON.stringify(log)).toBe(frozen)
    expect(rendered.slice(0, 7)).toEqual(log.slice(0, 7))
    expect(rendered.slice(7).map((message) => [message.role, message.content])).toEqual([
      ['user', [{ type: 'text', text: reminder(`${STOP_PREAMBLE}\nStop hook feedback:\nR`) }]],
      ['developer', [{ type: 'text', text: 'Stop hook blocking error from command: "cmd": R' }]],
    ])
  })

  it('an exit-2 Stop is the same single feedback block in both renderings', () => {
    const feedback = reminder(`${STOP_PREAMBLE}\nStop hook feedback:\n[cmd]: err\n`)
    const exit2 = stop(feedback, 'exit2', '[cmd]: err\n')
    for (const renderer of [classicRenderer, systemRenderer]) {
      expect(renderer.render([exit2]).map((message) => [message.role, message.content])).toEqual([
        ['user', [{ type: 'text', text: feedback }]],
      ])
    }
  })
})
