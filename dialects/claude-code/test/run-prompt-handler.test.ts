import { ExecProcessRunner, ModelError } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import {
  type HandlerRunSpec,
  PROMPT_HOOK_SYSTEM,
  PROMPT_HOOK_TIMEOUT_MS,
  parsePromptVerdict,
  promptHookText,
  type RunnerServices,
  runHandler,
} from '../src/run/index.js'
import type { PromptHandler } from '../src/types.js'
import { fakeModel, payloadJson, promptHandler, stdin } from './fixtures/run/helpers.js'
import { waitUntil } from './waits.js'

const processRunner = new ExecProcessRunner()

function spec(handler: PromptHandler, fields: Partial<HandlerRunSpec> = {}): HandlerRunSpec {
  return { handler, stdin, cwd: '/', env: {}, timeoutMs: 30_000, ...fields }
}

function services(model: RunnerServices['model']): RunnerServices {
  return { processRunner, model }
}

describe('prompt handlers', () => {
  it('asks the model once, with the payload in place of every $ARGUMENTS, and reads {ok}', async () => {
    const model = fakeModel(() => '{"ok": true}')
    const result = await runHandler(services(model), spec(promptHandler('Check $ARGUMENTS. Again: $ARGUMENTS!')))
    expect(result).toMatchObject({
      kind: 'prompt',
      exitCode: 0,
      stdout: '{"ok": true}',
      verdict: { ok: true },
      timedOut: false,
      aborted: false,
    })
    expect(result.error).toBeUndefined()
    expect(model.calls).toHaveLength(1)
    const [{ request, options }] = model.calls as [(typeof model.calls)[number]]
    expect(request.system).toBe(PROMPT_HOOK_SYSTEM)
    expect(request.tools).toEqual([])
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: `Check ${payloadJson}. Again: ${payloadJson}!` }], source: { kind: 'user' } },
    ])
    expect(options).toMatchObject({ attempt: 1, sessionId: '', turnId: '', step: 0 })
    expect(options.signal).toBeInstanceOf(AbortSignal)
    expect(options.signal.aborted).toBe(false)
  })

  it('tells the model to answer only with the JSON verdict', () => {
    expect(PROMPT_HOOK_SYSTEM).toContain('ONLY')
    expect(PROMPT_HOOK_SYSTEM).toContain('{"ok": true}')
    expect(PROMPT_HOOK_SYSTEM).toContain('{"ok": false, "reason"')
  })

  it('appends the payload after a blank line when the prompt has no $ARGUMENTS; \\$ is a literal $', () => {
    expect(promptHookText('Is the task done?', payloadJson)).toBe(`Is the task done?\n\n${payloadJson}`)
    expect(promptHookText('Budget \\$1.00, input $ARGUMENTS', '{}')).toBe('Budget $1.00, input {}')
    expect(promptHookText('Literal \\$ARGUMENTS only', '{}')).toBe('Literal $ARGUMENTS only\n\n{}')
  })

  it('reads a denial with its reason, in a ```json fence', async () => {
    const answer = '  ```json\n{"ok": false, "reason": "tests are failing"}\n```\n'
    const result = await runHandler(services(fakeModel(() => answer)), spec(promptHandler('$ARGUMENTS')))
    expect(result).toMatchObject({ exitCode: 0, stdout: answer, verdict: { ok: false, reason: 'tests are failing' } })
  })

  it.each([
    ['plain text', 'Sure, looks fine.'],
    ['a non-boolean ok', '{"ok": "yes"}'],
    ['an array', '[true]'],
    ['no ok', '{"reason": "x"}'],
  ])('reports an answer with %s as invalid, non-blocking', async (_name, answer) => {
    const result = await runHandler(services(fakeModel(() => answer)), spec(promptHandler('$ARGUMENTS')))
    expect(result).toMatchObject({ exitCode: null, stdout: answer, error: `prompt hook answered with invalid JSON: ${answer}` })
    expect(result.verdict).toBeUndefined()
  })

  it('quotes at most 200 characters of an invalid answer', async () => {
    const answer = 'x'.repeat(500)
    const result = await runHandler(services(fakeModel(() => answer)), spec(promptHandler('$ARGUMENTS')))
    expect(result.error).toBe(`prompt hook answered with invalid JSON: ${'x'.repeat(200)}`)
  })

  it('ignores a reason that is not a string and tolerates extra keys', () => {
    expect(parsePromptVerdict('{"ok": false, "reason": 3, "extra": 1}')).toEqual({ ok: false })
    expect(parsePromptVerdict('```\n{"ok":true}\n```')).toEqual({ ok: true })
  })

  it('needs a model provider', async () => {
    const result = await runHandler(services(undefined), spec(promptHandler('$ARGUMENTS')))
    expect(result).toMatchObject({ kind: 'prompt', exitCode: null, error: 'prompt hooks need a model provider' })
  })

  it('reports a model failure as a non-blocking error', async () => {
    const model = fakeModel(() => {
      throw new ModelError('overloaded', { retryable: true, status: 529 })
    })
    const result = await runHandler(services(model), spec(promptHandler('$ARGUMENTS')))
    expect(result).toMatchObject({ exitCode: null, error: 'model error: overloaded', timedOut: false, aborted: false })
  })

  it('times out a model that does not answer, even one that ignores its signal', async () => {
    const model = fakeModel(() => new Promise<string>(() => {}))
    const result = await runHandler(services(model), spec(promptHandler('$ARGUMENTS'), { timeoutMs: 100 }))
    expect(result).toMatchObject({ exitCode: null, timedOut: true, aborted: false, error: 'timed out after 100 ms' })
    expect(model.calls[0]!.options.signal.aborted).toBe(true)
  })

  it('stops when the signal aborts', async () => {
    const controller = new AbortController()
    const model = fakeModel(() => new Promise<string>(() => {}))
    const running = runHandler(services(model), spec(promptHandler('$ARGUMENTS'), { signal: controller.signal }))
    await waitUntil(() => model.calls.length === 1, 'the model call')
    controller.abort()
    expect(await running).toMatchObject({ exitCode: null, timedOut: false, aborted: true, error: 'aborted' })
  })

  it('uses the 30 s default when no positive timeout is given', async () => {
    expect(PROMPT_HOOK_TIMEOUT_MS).toBe(30_000)
    const result = await runHandler(services(fakeModel(() => '{"ok":true}')), spec(promptHandler('$ARGUMENTS'), { timeoutMs: 0 }))
    expect(result).toMatchObject({ exitCode: 0, verdict: { ok: true } })
  })
})
