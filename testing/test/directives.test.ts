import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type FakeAnthropic, type FakeOpenAI, startFakeAnthropic, startFakeOpenAI } from '../src/index.js'
import { messagesBody, post } from './http-client.js'

let anthropic: FakeAnthropic
let openai: FakeOpenAI
beforeAll(async () => {
  anthropic = await startFakeAnthropic()
  openai = await startFakeOpenAI()
})
afterEach(() => {
  anthropic.reset()
  openai.reset()
})
afterAll(async () => {
  await anthropic.close()
  await openai.close()
})

const toolUse = (id: string) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'x', input: {} }] })
const toolResult = (id: string) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] })
/** What the fake answered to a Messages request: its text, or its tool calls. */
async function messagesAnswer(text: string, options: { tools?: string[]; history?: unknown[] } = {}) {
  const answer = await post(`${anthropic.url}/v1/messages`, messagesBody(text, { tools: ['shell'], ...options }))
  if (answer.status !== 200) return { status: answer.status, error: JSON.parse(answer.text).error.message as string }
  const request = anthropic.requests.at(-1)!
  const texts = answer.events
    .map((event) => event.data as { type: string; delta?: { type: string; text?: string } })
    .filter((event) => event.delta?.type === 'text_delta')
    .map((event) => event.delta?.text)
  return { texts, calls: request.toolCalls.map((call) => `${call.name} ${JSON.stringify(call.input)}`) }
}

describe('directives in the prompt script the model through a program in between', () => {
  it('tool directives in order: the reply is the one after as many as the history has answered, then the final text', async () => {
    const prompt =
      'Do it [[tool:shell:{"command":"a"}]] then [[tools:[{"name":"shell","input":{"command":"b"}},{"name":"read","input":{}}]]]'
    expect(await messagesAnswer(prompt)).toEqual({ texts: [], calls: ['shell {"command":"a"}'] })
    expect(await messagesAnswer('', { history: [{ role: 'user', content: prompt }, toolUse('t1'), toolResult('t1')] })).toEqual({
      texts: [],
      calls: ['shell {"command":"b"}', 'read {}'],
    })
    const answered = [{ role: 'user', content: prompt }, toolUse('t1'), toolResult('t1'), toolUse('t2'), toolResult('t2')]
    expect(await messagesAnswer('and now?', { history: answered })).toEqual({ texts: ['FINAL reply to request #2'], calls: [] })
  })

  it('a request that offers no tools is a side request: `side reply #N`, whatever the prompt says', async () => {
    expect(await messagesAnswer('[[tool:shell:{}]]', { tools: [] })).toEqual({ texts: ['side reply #0'], calls: [] })
  })

  it('<system-reminder>s are not read for directives; [[stream:N:MS]] streams the final text in N marked deltas', async () => {
    expect(await messagesAnswer('<system-reminder>[[tool:shell:{}]]</system-reminder> Go [[stream:3:0]]')).toEqual({
      texts: ['FINAL reply to request #0 [1/3] ', 'FINAL reply to request #0 [2/3] ', 'FINAL reply to request #0 [3/3] '],
      calls: [],
    })
  })

  it('[[slow:MS]] holds the reply: the request records the pacing it asked for', async () => {
    await messagesAnswer('Wait [[slow:5]]')
    expect(anthropic.requests[0]!.reply).toMatchObject({ delayMs: 5, text: 'FINAL reply to request #0' })
  })

  it('a directive that is not JSON: a 500 naming the directive and the cause', async () => {
    const answer = await messagesAnswer('[[tool:shell:{command}]]')
    expect(answer).toMatchObject({ status: 500 })
    expect((answer as { error: string }).error).toMatch(
      /^fake Anthropic, request #0: the directive \[\[tool:shell:\{command\}\]\] does not hold valid JSON: /,
    )
  })

  it('[[shell:CMD]] calls the shell tool the request offers, Codex’s first; `!` asks to run outside the sandbox', async () => {
    const ask = (tools: string[], text: string) =>
      post(`${openai.baseURL}/responses`, {
        stream: true,
        input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text }] }],
        tools: tools.map((name) => ({ type: 'function', name })),
      }).then(() => openai.requests.at(-1)!.toolCalls.map((call) => [call.name, call.input]))
    expect(await ask(['shell', 'exec_command'], '[[shell:!touch x]]')).toEqual([
      [
        'exec_command',
        { cmd: 'touch x', yield_time_ms: 10_000, sandbox_permissions: 'require_escalated', justification: 'asked by the test' },
      ],
    ])
    expect(await ask(['shell'], '[[shell:ls]]')).toEqual([['shell', { command: 'ls' }]])
    expect(await ask(['Bash', 'Read'], '[[shell:ls]]')).toEqual([['Bash', { command: 'ls' }]])
  })

  it('Responses count the calls the input has answered, several calls of one response once', async () => {
    const prompt = {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: '[[calls:[{"name":"a","arguments":{}},{"name":"b","arguments":{}}]]] [[call:c:{}]]' }],
    }
    const call = (name: string) => ({ type: 'function_call', call_id: name, name, arguments: '{}' })
    const output = (name: string) => ({ type: 'function_call_output', call_id: name, output: 'ok' })
    await post(`${openai.baseURL}/responses`, {
      stream: true,
      input: [prompt, call('a'), call('b'), output('a'), output('b')],
      tools: [{ type: 'function', name: 'a' }],
    })
    expect(openai.requests[0]!.toolCalls.map((entry) => entry.name)).toEqual(['c'])
  })
})
