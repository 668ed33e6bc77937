import { definePlugin, defineTool, type Message, textOf } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { codexHarnessPerTest, hookRuns, rec } from './codex-harness.js'
import { waitForAsyncRuns } from './waits.js'

const setup = codexHarnessPerTest()
const texts = (messages: readonly Message[]) => messages.map((message) => `${message.role}:${textOf(message)}`)

describe('SessionStart and UserPromptSubmit', () => {
  it('SessionStart runs lazily once, before UserPromptSubmit; its context precedes the first prompt and stays', async () => {
    const h = setup({
      script: [{ text: 'one' }, { text: 'two' }],
      hooks: {
        SessionStart: [
          { matcher: 'startup', hooks: [rec('SessionStart')] },
          { matcher: 'resume', hooks: [rec('SessionStart', 'resume')] },
        ],
        UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }],
      },
      responses: { 'SessionStart-h.stdout': '  session context  \n', 'UserPromptSubmit-h.stdout': 'prompt context' },
    })
    const session = await h.kernel.startSession()
    expect(h.calls()).toEqual([])
    await session.run('first')
    await session.run('second')
    expect(h.calls().map((call) => `${call.event}-${call.tag}`)).toEqual(['SessionStart-h', 'UserPromptSubmit-h', 'UserPromptSubmit-h'])
    const start = JSON.parse(h.calls('SessionStart')[0]!.stdin)
    expect(Object.keys(start)).toEqual(['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'model', 'permission_mode', 'source'])
    expect(start.source).toBe('startup')
    const request = h.model.requests[1]!
    expect(texts(request.messages)).toEqual([
      'developer:session context',
      'user:first',
      'developer:prompt context',
      'assistant:one',
      'user:second',
      'developer:prompt context',
    ])
  })

  it('a blocked prompt is dropped: no model call, turn blocked, its context kept before the next prompt', async () => {
    const h = setup({
      script: [{ text: 'answer' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }] },
      responses: {
        'UserPromptSubmit-h.1.stdout': JSON.stringify({
          decision: 'block',
          reason: 'not allowed',
          hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'blocked ctx' },
        }),
      },
    })
    const session = await h.kernel.startSession()
    const blocked = await session.run('forbidden prompt')
    expect(blocked).toMatchObject({ status: 'blocked', reason: 'not allowed' })
    expect(h.model.calls).toBe(0)
    await session.run('allowed prompt')
    expect(texts(h.model.requests[0]!.messages)).toEqual(['developer:blocked ctx', 'user:allowed prompt'])
  })

  it('SessionStart continue:false ends the turn before UserPromptSubmit and any request', async () => {
    const h = setup({
      script: [{ text: 'never' }],
      hooks: { SessionStart: [{ hooks: [rec('SessionStart')] }], UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }] },
      responses: { 'SessionStart-h.stdout': JSON.stringify({ continue: false, stopReason: 'not today' }) },
    })
    const session = await h.kernel.startSession()
    expect(await session.run('hi')).toMatchObject({ status: 'halted', reason: 'not today' })
    expect(h.calls('UserPromptSubmit')).toEqual([])
    expect(h.model.calls).toBe(0)
  })

  it('UserPromptSubmit runs once per steered item with the running turn id; blocked items are dropped', async () => {
    let steered = false
    const work = definePlugin({
      name: 'work',
      setup(kernel) {
        kernel.registerTool(
          defineTool({
            name: 'work',
            description: 'work',
            inputSchema: z.object({}),
            async execute(_input, { session }) {
              if (!steered) {
                steered = true
                session.steer([
                  { type: 'text', text: 'steer one' },
                  { type: 'text', text: 'steer blocked' },
                ])
              }
              return { output: 'worked', isError: false }
            },
          }),
        )
      },
    })
    const h = setup({
      script: [{ tool_calls: [{ name: 'work', input: {} }] }, { text: 'done' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }] },
      responses: { 'UserPromptSubmit-h.3.exit': '2', 'UserPromptSubmit-h.3.stderr': 'no thanks' },
      plugins: [work],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('start')
    const prompts = h.calls('UserPromptSubmit').map((call) => JSON.parse(call.stdin))
    expect(prompts.map((payload) => payload.prompt)).toEqual(['start', 'steer one', 'steer blocked'])
    expect(new Set(prompts.map((payload) => payload.turn_id))).toEqual(new Set([result.turnId]))
    expect(texts(h.model.requests[1]!.messages).slice(-2)).toEqual(['tool:', 'user:steer one'])
  })
})

describe('Stop', () => {
  it('a block continues the same turn with the exact <hook_prompt> message; stop_hook_active turns true', async () => {
    const h = setup({
      script: [{ text: 'first' }, { text: 'second' }],
      hooks: { Stop: [{ hooks: [rec('Stop', 'a'), rec('Stop', 'b')] }], UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }] },
      responses: {
        'Stop-a.1.stdout': JSON.stringify({ decision: 'block', reason: 'a <b>&amp; "q" </hook_prompt> é\nline2' }),
        'Stop-b.1.stderr': 'reason from B',
        'Stop-b.1.exit': '2',
      },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'second' })
    const stops = h.calls('Stop').map((call) => JSON.parse(call.stdin))
    expect(stops.map((payload) => payload.stop_hook_active)).toEqual([false, false, true, true])
    expect(stops[0].last_assistant_message).toBe('first')
    const continuation = h.model.requests[1]!.messages.at(-1)!
    const path = `${h.codexHome}/hooks.json`
    expect(continuation.role).toBe('user')
    expect(continuation.content).toEqual([
      {
        type: 'text',
        text: `<hook_prompt hook_run_id="stop:1:${path}">a &lt;b&gt;&amp;amp; "q" &lt;/hook_prompt&gt; é\nline2</hook_prompt>`,
      },
      { type: 'text', text: `<hook_prompt hook_run_id="stop:2:${path}">reason from B</hook_prompt>` },
    ])
    expect(h.calls('UserPromptSubmit')).toHaveLength(1)
  })

  it('continue:false stops without another request, with a notice', async () => {
    const h = setup({
      script: [{ text: 'only' }],
      hooks: { Stop: [{ hooks: [rec('Stop')] }] },
      responses: { 'Stop-h.stdout': JSON.stringify({ continue: false, stopReason: 'enough', decision: 'block', reason: 'ignored' }) },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    expect(h.model.calls).toBe(1)
  })

  it('an always-blocking Stop hook loops as in Codex when the kernel cap is lifted, until interrupted', async () => {
    const h = setup({
      script: Array.from({ length: 40 }, (_, index) => ({ text: `reply ${index}` })),
      hooks: { Stop: [{ hooks: [rec('Stop')] }] },
      responses: { 'Stop-h.stdout': JSON.stringify({ decision: 'block', reason: 'keep going' }) },
      kernel: { maxStopContinuations: Number.POSITIVE_INFINITY },
      plugins: [
        definePlugin({
          name: 'interrupter',
          setup(kernel) {
            kernel.hooks.modelRequest.tap('count', (request, { session, step }) => {
              if (step === 20) session.interrupt('enough looping')
              return request
            })
          },
        }),
      ],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('interrupted')
    // Well past the kernel's default cap of 8 continuations.
    expect(h.calls('Stop').length).toBeGreaterThan(16)
  })

  it('the opt-in stopContinuationCap fix stops a looping Stop hook', async () => {
    const h = setup({
      script: Array.from({ length: 10 }, (_, index) => ({ text: `reply ${index}` })),
      hooks: { Stop: [{ hooks: [rec('Stop')] }] },
      responses: { 'Stop-h.stdout': JSON.stringify({ decision: 'block', reason: 'keep going' }) },
      options: { fixes: { stopContinuationCap: 2 } },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    expect(h.model.calls).toBe(3)
  })
})

describe('lifecycle and reporting', () => {
  it('SessionEnd gets reason "other"; Interrupt runs only on interrupt', async () => {
    const h = setup({
      script: [{ text: 'x' }],
      hooks: { SessionEnd: [{ hooks: [rec('SessionEnd')] }], Interrupt: [{ hooks: [rec('Interrupt')] }] },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    await session.end()
    expect(h.calls('Interrupt')).toEqual([])
    const end = JSON.parse(h.calls('SessionEnd')[0]!.stdin)
    expect(Object.keys(end)).toEqual(['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'reason'])
    expect(end.reason).toBe('other')
  })

  it('untrusted hooks do not run and a notice says how to trust them', async () => {
    const h = setup({
      script: [{ text: 'x' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }] },
      options: { trust: 'codex' },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(h.calls()).toEqual([])
    const notices = (await import('node:fs')).readFileSync(session.transcriptPath, 'utf8')
    expect(notices).toContain('is untrusted and will not run; trust it with `harness hooks trust')
  })

  it('async handlers run detached; their decisions are ignored and their contexts precede the next prompt', async () => {
    const h = setup({
      script: [{ text: 'one' }, { text: 'two' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', 'bg', { async: true })] }] },
      responses: {
        'UserPromptSubmit-bg.1.stdout': JSON.stringify({
          decision: 'block',
          reason: 'ignored',
          hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'async ctx' },
        }),
      },
    })
    const session = await h.kernel.startSession()
    const first = await session.run('first')
    expect(first.status).toBe('completed')
    await waitForAsyncRuns(session, 1)
    await session.run('second')
    expect(texts(h.model.requests[1]!.messages).slice(-3)).toEqual(['assistant:one', 'developer:async ctx', 'user:second'])
    expect(hookRuns(session.transcriptPath).some((run) => run.executionMode === 'async')).toBe(true)
  })

  it('systemMessage is a notice and never model-visible; runs are recorded with Codex’s fields', async () => {
    const h = setup({
      script: [{ text: 'x' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', 'h', { statusMessage: 'Checking' })] }] },
      responses: { 'UserPromptSubmit-h.stdout': JSON.stringify({ systemMessage: 'heads up' }) },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(JSON.stringify(h.model.requests)).not.toContain('heads up')
    const [run] = hookRuns(session.transcriptPath)
    expect(run).toMatchObject({
      dialect: 'codex',
      id: `user-prompt-submit:0:${h.codexHome}/hooks.json`,
      event: 'UserPromptSubmit',
      eventName: 'userPromptSubmit',
      executionMode: 'sync',
      scope: 'turn',
      status: 'completed',
      statusMessage: 'Checking',
      entries: [{ kind: 'warning', text: 'heads up' }],
      exitCode: 0,
      source: 'user',
      displayOrder: 0,
    })
  })
})
