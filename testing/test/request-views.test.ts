import { describe, expect, it } from 'vitest'
import { lastUserMessage, mainRequests, newInput, type RequestLike, toolCallReplies, toolsOf, userTexts } from '../src/index.js'

const messages: RequestLike = {
  api: 'messages',
  body: {
    tools: [{ name: 'Bash' }, { name: 'mcp__host__shell' }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system-reminder>context</system-reminder>' },
          { type: 'text', text: 'Run it' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'done' }] },
          { type: 'text', text: 'also this' },
        ],
      },
    ],
  },
}
const responses: RequestLike = {
  api: 'responses',
  body: {
    tools: [{ type: 'function', name: 'shell' }, { type: 'web_search' }],
    input: [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'rules' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>cwd</environment_context>' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Go' }] },
      { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{}' },
      { type: 'function_call', call_id: 'c2', name: 'shell', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'one' },
      { type: 'function_call_output', call_id: 'c2', output: 'two' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'steer' }] },
    ],
  },
}
const chat: RequestLike = {
  api: 'chat-completions',
  body: {
    tools: [{ type: 'function', function: { name: 'read_file' } }],
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'Read a' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'alpha' },
    ],
  },
}

describe('views of a request, the same on the three APIs', () => {
  it('userTexts: the user texts, reminders removed (or kept), blanks left out', () => {
    expect(userTexts(messages)).toEqual(['Run it', 'also this'])
    expect(userTexts(messages, { keepReminders: true })).toEqual(['<system-reminder>context</system-reminder>', 'Run it', 'also this'])
    expect(userTexts(responses)).toEqual(['<environment_context>cwd</environment_context>', 'Go', 'steer'])
    expect(userTexts(chat)).toEqual(['Read a'])
  })

  it('toolsOf and mainRequests: what each request offers', () => {
    expect(toolsOf(messages)).toEqual(['Bash', 'mcp__host__shell'])
    expect(toolsOf(responses)).toEqual(['shell', 'web_search'])
    expect(toolsOf(chat)).toEqual(['read_file'])
    const side: RequestLike = { api: 'messages', body: { messages: [] } }
    expect(mainRequests({ requests: [side, messages] })).toEqual([messages])
  })

  it('newInput: what the request adds since the model last spoke; the programs’ own context left out', () => {
    expect(newInput(messages)).toEqual(['output:done', 'user:also this'])
    expect(newInput(responses)).toEqual(['output:one', 'output:two', 'user:steer'])
    expect(newInput(chat)).toEqual(['output:alpha'])
  })

  it('toolCallReplies and lastUserMessage', () => {
    expect([toolCallReplies(messages), toolCallReplies(responses), toolCallReplies(chat)]).toEqual([1, 1, 1])
    expect(lastUserMessage(messages)?.content).toHaveLength(2)
    expect(lastUserMessage(responses)).toMatchObject({ role: 'user', content: [{ text: 'steer' }] })
    expect(lastUserMessage(chat)).toEqual({ role: 'user', content: 'Read a' })
  })
})
