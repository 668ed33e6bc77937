import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ModelError } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { ScriptError, ScriptedModelProvider } from '../src/index.js'
import { callOptions, request, tempDir, tempFile } from './helpers.js'

describe('ScriptedModelProvider', () => {
  it('answers each call with the next step', async () => {
    const model = new ScriptedModelProvider({ script: [{ text: 'first' }, { text: 'second' }] })
    expect(model.id).toBe('scripted')
    expect(model.remaining).toBe(2)
    expect(await model.generate(request(), callOptions())).toEqual({ content: [{ type: 'text', text: 'first' }], stopReason: 'end_turn' })
    expect(await model.generate(request(), callOptions())).toEqual({ content: [{ type: 'text', text: 'second' }], stopReason: 'end_turn' })
    expect(model.remaining).toBe(0)
    expect(model.calls).toBe(2)
  })

  it('uses a custom id', () => {
    expect(new ScriptedModelProvider({ script: [], id: 'fake' }).id).toBe('fake')
  })

  it('returns text then tool calls, generating ids unique across the provider', async () => {
    const model = new ScriptedModelProvider({
      script: [
        {
          text: 'Reading both.',
          tool_calls: [
            { name: 'read', input: { path: 'a' } },
            { name: 'read', input: { path: 'b' }, id: 'mine' },
          ],
        },
        { text: '', tool_calls: [{ name: 'bash', input: { command: 'ls' } }] },
      ],
    })
    expect(await model.generate(request(), callOptions())).toEqual({
      content: [
        { type: 'text', text: 'Reading both.' },
        { type: 'tool_call', id: 'call_1', name: 'read', input: { path: 'a' } },
        { type: 'tool_call', id: 'mine', name: 'read', input: { path: 'b' } },
      ],
      stopReason: 'tool_use',
    })
    expect(await model.generate(request(), callOptions())).toEqual({
      content: [{ type: 'tool_call', id: 'call_2', name: 'bash', input: { command: 'ls' } }],
      stopReason: 'tool_use',
    })
  })

  it('returns fresh tool inputs so consumers cannot edit the script', async () => {
    const steps = [{ tool_calls: [{ name: 'read', input: { path: 'a' } }] }]
    const model = new ScriptedModelProvider({ script: steps })
    const response = await model.generate(request(), callOptions())
    const block = response.content[0]
    if (block?.type !== 'tool_call') throw new Error('expected a tool call')
    const input = block.input as { path: string }
    input.path = 'changed'
    expect(steps[0]?.tool_calls[0]?.input).toEqual({ path: 'a' })
  })

  it('throws ModelError for error steps, carrying retryable and status', async () => {
    const model = new ScriptedModelProvider({
      script: [
        { error: { message: 'overloaded', retryable: true, status: 529 } },
        { error: { message: 'bad request', retryable: false } },
        { text: 'ok' },
      ],
    })
    const retryable = await model.generate(request(), callOptions()).catch((error: unknown) => error)
    expect(retryable).toBeInstanceOf(ModelError)
    expect(retryable).toMatchObject({ message: 'overloaded', retryable: true, status: 529 })
    const fatal = await model.generate(request(), callOptions({ attempt: 2 })).catch((error: unknown) => error)
    expect(fatal).toMatchObject({ name: 'ModelError', message: 'bad request', retryable: false, status: undefined })
    expect((await model.generate(request(), callOptions({ attempt: 3 }))).content).toEqual([{ type: 'text', text: 'ok' }])
  })

  it('fails with a non-retryable ModelError naming the file when the script runs out', async () => {
    const file = tempFile('script.yaml', '- text: only\n')
    const model = new ScriptedModelProvider({ script: file })
    await model.generate(request(), callOptions())
    const error = await model.generate(request(), callOptions()).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ModelError)
    expect(error).toMatchObject({
      retryable: false,
      message: `scripted model: script exhausted after 1 step (request 2 has no scripted response); add a step to ${file}`,
    })
    await expect(model.generate(request(), callOptions())).rejects.toThrow('script exhausted after 1 step (request 3 has')
    expect(model.calls).toBe(3)
  })

  it('names the in-memory array when it runs out', async () => {
    const model = new ScriptedModelProvider({ script: [] })
    await expect(model.generate(request(), callOptions())).rejects.toThrow(
      'scripted model: script exhausted after 0 steps (request 1 has no scripted response); add a step to the script array',
    )
  })

  it('validates in-memory steps too', () => {
    const script = [{ text: 'ok' }, { tool_calls: [{ input: {} }] }] as never
    expect(() => new ScriptedModelProvider({ script })).toThrow(ScriptError)
    expect(() => new ScriptedModelProvider({ script })).toThrow('script: step 2: tool_calls.0.name: required (expected string)')
  })

  it('records deep copies of every request, including failed and exhausted calls', async () => {
    const model = new ScriptedModelProvider({ script: [{ error: { message: 'flaky', retryable: true } }, { text: 'ok' }] })
    const sent = request('first')
    await model.generate(sent, callOptions()).catch(() => {})
    sent.messages.push({ role: 'assistant', content: [{ type: 'text', text: 'mutated later' }], source: { kind: 'model' } })
    await model.generate(request('second'), callOptions())
    await model.generate(request('third'), callOptions()).catch(() => {})
    expect(model.requests).toEqual([request('first'), request('second'), request('third')])
    expect(model.requests[0]).not.toBe(sent)
  })

  it('keeps nothing in memory with record: false', async () => {
    const model = new ScriptedModelProvider({ script: [{ text: 'ok' }], record: false })
    await model.generate(request(), callOptions())
    expect(model.requests).toEqual([])
    expect(model.calls).toBe(1)
  })

  it('appends one JSON line per request to recordTo, creating parent directories', async () => {
    const file = join(tempDir(), 'nested', 'deeper', 'requests.jsonl')
    const model = new ScriptedModelProvider({
      script: [{ error: { message: 'flaky', retryable: true } }, { text: 'ok' }],
      recordTo: file,
      record: false,
    })
    await model.generate(request('one'), callOptions({ attempt: 1, step: 1 })).catch(() => {})
    await model.generate(request('one'), callOptions({ attempt: 2, step: 1 }))
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines).toEqual([
      { n: 1, sessionId: 'session-1', turnId: 'turn-1', step: 1, attempt: 1, request: request('one') },
      { n: 2, sessionId: 'session-1', turnId: 'turn-1', step: 1, attempt: 2, request: request('one') },
    ])
    expect(model.requests).toEqual([])
  })

  it('throws the abort reason without consuming a step when already aborted', async () => {
    const model = new ScriptedModelProvider({ script: [{ text: 'ok' }] })
    const controller = new AbortController()
    const reason = new Error('cancelled by test')
    controller.abort(reason)
    await expect(model.generate(request(), callOptions({ signal: controller.signal }))).rejects.toBe(reason)
    expect(model.remaining).toBe(1)
    expect(model.calls).toBe(0)
    expect(model.requests).toEqual([])
  })

  it("answers a step with delayMs after the delay, which the call's abort ends with its reason", async () => {
    const model = new ScriptedModelProvider({
      script: [
        { text: 'late', delayMs: 60_000 },
        { text: 'soon', delayMs: 1 },
      ],
    })
    const controller = new AbortController()
    const waiting = model.generate(request(), callOptions({ signal: controller.signal }))
    const reason = new Error('stopped while the model thought')
    controller.abort(reason)
    await expect(waiting).rejects.toBe(reason)
    const response = await model.generate(request(), callOptions())
    expect(response.content).toEqual([{ type: 'text', text: 'soon' }])
    expect(() => new ScriptedModelProvider({ script: [{ text: 'x', delayMs: -1 }] })).toThrow(/delayMs/)
  })

  it('streams text in word chunks through onTextDelta', async () => {
    const model = new ScriptedModelProvider({ script: [{ text: 'Hello there,  world!\nBye', tool_calls: [{ name: 'read', input: {} }] }] })
    const deltas: string[] = []
    const response = await model.generate(request(), callOptions({ onTextDelta: (text) => deltas.push(text) }))
    expect(deltas).toEqual(['Hello ', 'there,  ', 'world!\n', 'Bye'])
    expect(deltas.join('')).toBe('Hello there,  world!\nBye')
    expect(response.content[0]).toEqual({ type: 'text', text: 'Hello there,  world!\nBye' })
  })

  it('emits no deltas with textDeltas: false or for steps without text', async () => {
    const deltas: string[] = []
    const onTextDelta = (text: string) => deltas.push(text)
    const quiet = new ScriptedModelProvider({ script: [{ text: 'hello world' }], textDeltas: false })
    await quiet.generate(request(), callOptions({ onTextDelta }))
    const toolsOnly = new ScriptedModelProvider({ script: [{ tool_calls: [{ name: 'read', input: {} }] }] })
    await toolsOnly.generate(request(), callOptions({ onTextDelta }))
    expect(deltas).toEqual([])
  })

  it('stops streaming when the signal aborts mid-stream', async () => {
    const model = new ScriptedModelProvider({ script: [{ text: 'one two three four' }] })
    const controller = new AbortController()
    const deltas: string[] = []
    const generating = model.generate(
      request(),
      callOptions({
        signal: controller.signal,
        onTextDelta: (text) => {
          deltas.push(text)
          if (deltas.length === 2) controller.abort(new Error('interrupted'))
        },
      }),
    )
    await expect(generating).rejects.toThrow('interrupted')
    expect(deltas).toEqual(['one ', 'two '])
    expect(model.remaining).toBe(0)
  })
})
