/**
 * PreModelRequest and PostModelRequest, as Codex 0.169.0 and 0.171.0 run them (observed with `codex exec` and the App
 * Server, one run per case, the same on both versions): around every model request of a turn, waited for, their
 * matchers and their output ignored; a run that exits with another status than 0 has failed (its trimmed stderr the
 * one entry, if any); a failed request's Post says `failed` with the error, an interrupted one's `cancelled`.
 */
import { type Driver, definePlugin, NATIVE_CAPABILITIES, STAGE_OBSERVE, textOf } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { modelRequestGap } from '../src/plugin/model-request-taps.js'
import type { CodexHandler } from '../src/types.js'
import { codexHarnessPerTest, hookRuns, rec } from './codex-harness.js'

const setup = codexHarnessPerTest()
const json = (value: unknown) => JSON.stringify(value)
const stdinOf = (call: { stdin: string }) => JSON.parse(call.stdin) as Record<string, unknown>

describe('PreModelRequest and PostModelRequest', () => {
  it('run around each model request, before the tool calls, with one request id; their output changes nothing', async () => {
    const h = setup({
      script: [
        { tool_calls: [{ name: 'shell', input: { command: 'true' } }], usage: { inputTokens: 7, outputTokens: 3 }, id: 'resp_a' },
        { text: 'done', id: 'resp_b' },
      ],
      hooks: {
        // Codex ignores these matchers: both run for every request.
        PreModelRequest: [{ matcher: 'compaction', hooks: [rec('PreModelRequest')] }],
        PostModelRequest: [{ matcher: '[', hooks: [rec('PostModelRequest')] }],
        PreToolUse: [{ hooks: [rec('PreToolUse')] }],
        Stop: [{ hooks: [rec('Stop')] }],
      },
      responses: {
        'PreModelRequest-h.1.stdout': json({
          decision: 'block',
          reason: 'no',
          continue: false,
          systemMessage: 'unseen',
          hookSpecificOutput: { hookEventName: 'PreModelRequest', additionalContext: 'unseen context' },
        }),
        'PostModelRequest-h.1.stdout': 'plain text',
      },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    expect(h.calls().map((call) => call.event)).toEqual([
      'PreModelRequest',
      'PostModelRequest',
      'PreToolUse',
      'PreModelRequest',
      'PostModelRequest',
      'Stop',
    ])
    const [pre1, post1, pre2, post2] = h
      .calls()
      .filter((call) => call.event.endsWith('ModelRequest'))
      .map(stdinOf)
    expect(Object.keys(pre1!)).toEqual([
      'kind',
      'request_id',
      'attempt_number',
      'session_id',
      'thread_id',
      'turn_id',
      'cwd',
      'transcript_path',
      'model',
      'hook_event_name',
    ])
    expect(pre1).toMatchObject({
      kind: 'sampling',
      attempt_number: 1,
      session_id: session.id,
      thread_id: session.id,
      turn_id: result.turnId,
    })
    expect(post1).toMatchObject({
      request_id: pre1!.request_id,
      status: 'completed',
      error: null,
      token_usage: {
        input_tokens: 7,
        cached_input_tokens: 0,
        cache_write_input_tokens: 0,
        output_tokens: 3,
        reasoning_output_tokens: 0,
        total_tokens: 10,
      },
      response_id: 'resp_a',
    })
    expect(post2).toMatchObject({ request_id: pre2!.request_id, status: 'completed', token_usage: null, response_id: 'resp_b' })
    expect(pre2!.request_id).not.toBe(pre1!.request_id)
    // Nothing of the output reached the model, and no notice was raised.
    expect(h.model.requests[0]!.messages.map(textOf).join('\n')).not.toContain('unseen')
    const runs = hookRuns(session.transcriptPath).filter((run) => run.event.endsWith('ModelRequest'))
    const path = `${h.codexHome}/hooks.json`
    expect(runs.map((run) => [run.id, run.eventName, run.scope, run.status, run.entries])).toEqual([
      [`pre-model-request:0:${path}:${pre1!.request_id}`, 'preModelRequest', 'turn', 'completed', []],
      [`post-model-request:1:${path}:${pre1!.request_id}`, 'postModelRequest', 'turn', 'completed', []],
      [`pre-model-request:0:${path}:${pre2!.request_id}`, 'preModelRequest', 'turn', 'completed', []],
      [`post-model-request:1:${path}:${pre2!.request_id}`, 'postModelRequest', 'turn', 'completed', []],
    ])
  })

  it('a run that exits with another status than 0 has failed: stderr is its entry, if any; a timeout is one too', async () => {
    const h = setup({
      script: [{ text: 'done' }],
      hooks: {
        PreModelRequest: [
          { hooks: [rec('PreModelRequest', 'a'), rec('PreModelRequest', 'b'), rec('PreModelRequest', 'c', { timeout: 1 })] },
        ],
        PostModelRequest: [{ hooks: [rec('PostModelRequest', 'a')] }],
      },
      responses: {
        'PreModelRequest-a.stderr': '  blocked?\n',
        'PreModelRequest-a.exit': '2',
        'PreModelRequest-b.exit': '1',
        'PreModelRequest-c.sleep': '5',
        'PostModelRequest-a.stdout': json({ decision: 'block', reason: 'x' }),
        'PostModelRequest-a.exit': '3',
      },
    })
    const session = await h.kernel.startSession()
    expect((await session.run('go')).status).toBe('completed')
    const runs = hookRuns(session.transcriptPath)
    expect(runs.map((run) => [run.event, run.status, run.entries])).toEqual([
      ['PreModelRequest', 'failed', [{ kind: 'error', text: 'blocked?' }]],
      ['PreModelRequest', 'failed', []],
      ['PreModelRequest', 'failed', [{ kind: 'error', text: 'hook timed out after 1s' }]],
      ['PostModelRequest', 'failed', []],
    ])
    expect(h.model.requests).toHaveLength(1)
  })

  it('a request that failed: PostModelRequest says `failed` with the error, then the turn fails', async () => {
    const h = setup({
      script: [{ error: { message: 'model exploded', retryable: false, status: 400 } }],
      hooks: { PreModelRequest: [{ hooks: [rec('PreModelRequest')] }], PostModelRequest: [{ hooks: [rec('PostModelRequest')] }] },
    })
    const session = await h.kernel.startSession()
    expect((await session.run('go')).status).toBe('failed')
    const post = stdinOf(h.calls('PostModelRequest')[0]!)
    expect(post).toMatchObject({ status: 'failed', token_usage: null, response_id: null })
    expect(post.error).toContain('model exploded')
    expect(post.request_id).toBe(stdinOf(h.calls('PreModelRequest')[0]!).request_id)
  })

  it('an interrupted request: PostModelRequest says `cancelled` and runs to its end, before Interrupt', async () => {
    // Interrupts once the request is with the model (the scripted model waits a minute before answering).
    const interruptInFlight = definePlugin({
      name: 'interrupt-in-flight',
      setup: (kernel) =>
        kernel.hooks.modelRequest.tap({ name: 'interrupt', stage: STAGE_OBSERVE + 1 }, (request, { session }) => {
          setImmediate(() => session.interrupt('stop'))
          return request
        }),
    })
    const h = setup({
      script: [{ text: 'too late', delayMs: 60_000 }],
      hooks: {
        PreModelRequest: [{ hooks: [rec('PreModelRequest')] }],
        PostModelRequest: [{ hooks: [rec('PostModelRequest')] }],
        Interrupt: [{ hooks: [rec('Interrupt')] }],
      },
      plugins: [interruptInFlight],
    })
    const session = await h.kernel.startSession()
    expect((await session.run('go')).status).toBe('interrupted')
    expect(h.calls().map((call) => call.event)).toEqual(['PreModelRequest', 'PostModelRequest', 'Interrupt'])
    expect(stdinOf(h.calls('PostModelRequest')[0]!)).toMatchObject({
      status: 'cancelled',
      error: null,
      token_usage: null,
      response_id: null,
    })
    expect(hookRuns(session.transcriptPath).map((run) => run.status)).toEqual(['completed', 'completed', 'completed'])
  })
})

describe('under a driver without model requests of its own', () => {
  const handler = (event: string, enabled = true) => ({ event, command: `log-${event}`, enabled }) as CodexHandler
  const driver = (points: Driver['capabilities']['points']) => ({ id: 'other', capabilities: { ...NATIVE_CAPABILITIES, points } }) as Driver

  it('names the model-request handlers that will not run, and only those that are enabled', () => {
    const handlers = [handler('PreModelRequest'), handler('PostModelRequest', false), handler('PreToolUse')]
    expect(modelRequestGap(handlers, driver({ 'tools/pre-execute': 'decides' }))).toBe(
      "Codex hooks on model requests will not run: the other driver's program makes its model requests itself (PreModelRequest: log-PreModelRequest)",
    )
  })

  it('says nothing without such handlers, or when the driver fires model/request', () => {
    expect(modelRequestGap([handler('PreToolUse')], driver({}))).toBeUndefined()
    expect(modelRequestGap([handler('PreModelRequest')], driver(NATIVE_CAPABILITIES.points))).toBeUndefined()
  })
})
