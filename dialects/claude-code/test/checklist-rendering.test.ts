import { readFileSync } from 'node:fs'
import { definePlugin, defineTool, type Message, type ModelProvider, type Session } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { bash, claudeHarnessPerTest, hookRuns, RECORDER, rec } from './claude-harness.js'

const harness = claudeHarnessPerTest()
const json = (value: unknown) => JSON.stringify(value)
const context = (event: string, text: string) => json({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })
const texts = (message: Message | undefined) => message?.content.map((block) => (block.type === 'text' ? block.text : block.type))
const postContext = 'PostToolUse:Bash hook additional context: POST-ADDCTX-555'

function toolResultOutput(messages: readonly Message[], callId = 'toolu_1'): string | undefined {
  for (const message of messages)
    for (const block of message.content) if (block.type === 'tool_result' && block.callId === callId) return block.output
  return undefined
}

/** Declares mid-conversation system messages, as a provider of a model with per-turn control would. */
const systemCapable = definePlugin({
  name: 'system-capable-model',
  setup(kernel) {
    const inner = kernel.resolve('model')
    const model: ModelProvider = {
      id: inner.id,
      capabilities: { systemMessagesInConversation: true },
      generate: (request, options) => inner.generate(request, options),
    }
    kernel.provide('model', model)
  },
})

describe('checklist: rendering and order (claude-code-hooks.md §9, 58–66)', () => {
  it('58. Classic: the PostToolUse context is appended inside the tool_result string, byte-exact', async () => {
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: { PostToolUse: [{ hooks: [rec('PostToolUse')] }] },
      responses: { 'PostToolUse-h.stdout': context('PostToolUse', 'POST-ADDCTX-555') },
      options: { rendering: 'classic' },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const request = h.requests()[1]!
    expect(toolResultOutput(request.messages)).toBe(`hi\n\n<system-reminder>\n${postContext}\n</system-reminder>`)
    expect(request.messages.some((message) => message.role === 'developer')).toBe(false)
  })

  it('59. System-role: the same text is a system-role message right after the tool_result message', async () => {
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: { PostToolUse: [{ hooks: [rec('PostToolUse')] }] },
      responses: { 'PostToolUse-h.stdout': context('PostToolUse', 'POST-ADDCTX-555') },
      options: { rendering: 'system' },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const messages = h.requests()[1]!.messages
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'developer'])
    expect(toolResultOutput(messages)).toBe('hi')
    expect(texts(messages[3])).toEqual([postContext])
  })

  it.each(['classic', 'system'] as const)(
    '60. UserPromptSubmit context precedes its prompt; SessionStart context comes first (%s)',
    async (rendering) => {
      const h = harness({
        script: [{ text: 'done' }],
        hooks: { SessionStart: [{ hooks: [rec('SessionStart')] }], UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }] },
        responses: {
          'SessionStart-h.stdout': context('SessionStart', 'SS-CTX'),
          'UserPromptSubmit-h.stdout': context('UserPromptSubmit', 'UPS-ADDCTX-333'),
        },
        options: { rendering },
      })
      const session = await h.kernel.startSession()
      await session.run('Please run it.')
      const messages = h.requests()[0]!.messages
      const ss = 'SessionStart hook additional context: SS-CTX'
      const ups = 'UserPromptSubmit hook additional context: UPS-ADDCTX-333'
      if (rendering === 'classic') {
        expect(messages.map((message) => [message.role, texts(message)])).toEqual([
          ['user', [`<system-reminder>\n${ss}\n</system-reminder>`, `<system-reminder>\n${ups}\n</system-reminder>`, 'Please run it.']],
        ])
      } else {
        expect(messages.map((message) => [message.role, texts(message)])).toEqual([
          ['developer', [ss]],
          ['developer', [ups]],
          ['user', ['Please run it.']],
        ])
      }
    },
  )

  it('61a. Switching renderer on a resumed log leaves the log unchanged', async () => {
    const setup = {
      script: [bash('echo hi'), { text: 'done' }, { text: 'again' }],
      hooks: { PostToolUse: [{ hooks: [rec('PostToolUse')] }] },
      responses: { 'PostToolUse-h.stdout': context('PostToolUse', 'POST-ADDCTX-555') },
    }
    const first = harness({ ...setup, options: { rendering: 'classic' } })
    const session = await first.kernel.startSession()
    await session.run('go')
    await session.end()
    const logged = readFileSync(session.transcriptPath, 'utf8')
    const developer = session.messages.find((message) => message.role === 'developer')
    expect(texts(developer)).toEqual([postContext])
    expect(developer?.meta?.claudeCode).toEqual({ kind: 'tool', event: 'PostToolUse', hookName: 'PostToolUse:Bash', toolCallId: 'toolu_1' })

    const second = harness({
      ...setup,
      script: [{ text: 'resumed' }],
      options: { rendering: 'system' },
      kernel: { sessionsDir: `${first.dir}/sessions` },
    })
    const resumed = await second.kernel.resumeSession(session.id)
    const before = readFileSync(resumed.transcriptPath, 'utf8')
    expect(before.startsWith(logged)).toBe(true)
    await resumed.run('more')
    const request = second.requests()[0]!
    expect(toolResultOutput(request.messages)).toBe('hi')
    expect(request.messages.filter((message) => message.role === 'developer').map(texts)).toEqual([[postContext]])
    expect(readFileSync(resumed.transcriptPath, 'utf8').startsWith(before)).toBe(true)
  })

  it('61b. `auto`: providers without mid-conversation system messages get classic, providers that declare them system-role', async () => {
    const setup = {
      script: [bash('echo hi'), { text: 'done' }],
      hooks: { PostToolUse: [{ hooks: [rec('PostToolUse')] }] },
      responses: { 'PostToolUse-h.stdout': context('PostToolUse', 'POST-ADDCTX-555') },
    }
    const plain = harness(setup)
    await (await plain.kernel.startSession()).run('go')
    expect(toolResultOutput(plain.requests()[1]!.messages)).toBe(`hi\n\n<system-reminder>\n${postContext}\n</system-reminder>`)

    const capable = harness({ ...setup, plugins: [systemCapable] })
    await (await capable.kernel.startSession()).run('go')
    expect(toolResultOutput(capable.requests()[1]!.messages)).toBe('hi')
    expect(texts(capable.requests()[1]!.messages.at(-1))).toEqual([postContext])
  })

  it('62. Order: PostToolUse → PostToolBatch → UserPromptSubmit for steers → request', async () => {
    let session: Session | undefined
    const steerer = definePlugin({
      name: 'steerer',
      setup(kernel) {
        kernel.registerTool(
          defineTool({
            name: 'steer_me',
            description: 'steers the running turn',
            inputSchema: z.object({}),
            async execute() {
              session!.steer('STEER-1')
              return { output: 'steered', isError: false }
            },
          }),
        )
      },
    })
    const h = harness({
      script: [{ tool_calls: [{ id: 'toolu_1', name: 'steer_me', input: {} }] }, { text: 'done' }],
      hooks: {
        UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }],
        PostToolUse: [{ hooks: [rec('PostToolUse')] }],
        PostToolBatch: [{ hooks: [rec('PostToolBatch')] }],
      },
      plugins: [steerer],
    })
    session = await h.kernel.startSession()
    await session.run('first')
    expect(h.calls().map((call) => `${call.event}:${call.payload.prompt ?? ''}`)).toEqual([
      'UserPromptSubmit:first',
      'PostToolUse:',
      'PostToolBatch:',
      'UserPromptSubmit:STEER-1',
    ])
    const prompts = h.calls('UserPromptSubmit').map((call) => call.payload.prompt_id)
    expect(prompts[0]).toBe(prompts[1])
    const second = h.requests()[1]!.messages
    expect(texts(second.at(-1))).toEqual(['STEER-1'])
  })

  it('63. PostToolBatch’s `tool_response` is the model-visible text; for a denied call, the error', async () => {
    const h = harness({
      script: [
        {
          tool_calls: [
            { id: 'toolu_1', name: 'shell', input: { command: 'echo one' } },
            { id: 'toolu_2', name: 'shell', input: { command: 'echo two' } },
          ],
        },
        { text: 'done' },
      ],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse')] }], PostToolBatch: [{ hooks: [rec('PostToolBatch')] }] },
      responses: {
        'PreToolUse-h.2.stdout': json({
          hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'not two' },
        }),
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(h.calls('PostToolBatch')[0]!.payload.tool_calls).toEqual([
      { tool_name: 'Bash', tool_input: { command: 'echo one' }, tool_use_id: 'toolu_1', tool_response: 'one' },
      {
        tool_name: 'Bash',
        tool_input: { command: 'echo two' },
        tool_use_id: 'toolu_2',
        tool_response: 'PreToolUse:Bash hook error: not two',
      },
    ])
  })

  it('64. A failed tool fires PostToolUseFailure (`error`, `is_interrupt`, `duration_ms`), not PostToolUse', async () => {
    const h = harness({
      script: [bash('echo oops >&2; exit 3'), { text: 'done' }],
      hooks: { PostToolUse: [{ hooks: [rec('PostToolUse')] }], PostToolUseFailure: [{ hooks: [rec('PostToolUseFailure')] }] },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(h.calls('PostToolUse')).toHaveLength(0)
    const [failure] = h.calls('PostToolUseFailure')
    expect(Object.keys(failure!.payload).slice(6)).toEqual([
      'tool_name',
      'tool_input',
      'tool_use_id',
      'error',
      'is_interrupt',
      'duration_ms',
    ])
    expect(failure!.payload).toMatchObject({
      hook_event_name: 'PostToolUseFailure',
      tool_input: { command: 'echo oops >&2; exit 3', description: 'run echo oops >&2; exit 3' },
      error: 'Exit code 3\noops',
      is_interrupt: false,
    })
    expect(typeof failure!.payload.duration_ms).toBe('number')
  })

  it('65a. SessionEnd fires once with `reason:"other"`, within its budget', async () => {
    const h = harness({
      script: [{ text: 'done' }],
      hooks: { SessionEnd: [{ hooks: [rec('SessionEnd', 'fast'), rec('SessionEnd', 'slow')] }] },
      responses: { 'SessionEnd-slow.sleep': '30' },
      // Long enough for the slow handler to record its call on a loaded machine (300 ms was not, under CI load); it
      // sleeps 30 s, so it still ends by the budget.
      options: { sessionEndTimeoutMs: 2_000 },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    await session.end('user quit')
    expect(h.calls('SessionEnd').map((call) => call.payload.reason)).toEqual(['other', 'other'])
    const runs = hookRuns(session.transcriptPath).filter((run) => run.event === 'SessionEnd')
    expect(runs.map((run) => run.outcome).sort()).toEqual(['success', 'timeout'])
  })

  it('65b. MessageDisplay is detached and never changes the log', async () => {
    const h = harness({
      script: [{ text: 'FINAL reply' }],
      hooks: { MessageDisplay: [{ hooks: [rec('MessageDisplay')] }] },
      responses: {
        'MessageDisplay-h.stdout': json({
          decision: 'block',
          reason: 'no',
          hookSpecificOutput: { hookEventName: 'MessageDisplay', additionalContext: 'MD-CTX' },
        }),
      },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    await session.end()
    expect(result.status).toBe('completed')
    expect(h.calls('MessageDisplay')[0]!.payload).toMatchObject({ index: 0, final: true, delta: 'FINAL reply' })
    expect(JSON.stringify(session.messages)).not.toContain('MD-CTX')
  })

  it('66. Each run is logged as `hook/run` with its dialect, event, handler, decision, exit code and duration', async () => {
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [rec('PreToolUse')] }] },
      responses: { 'PreToolUse-h.stdout': json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }) },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const [run] = hookRuns(session.transcriptPath)
    expect(run).toMatchObject({
      type: 'hook/run',
      dialect: 'claude-code',
      event: 'PreToolUse',
      hookName: 'PreToolUse:Bash',
      handlerType: 'command',
      command: `${RECORDER} PreToolUse h`,
      key: `${h.project}/.claude/settings.json:PreToolUse:0:0`,
      source: 'project',
      decision: 'allow',
      exitCode: 0,
      outcome: 'success',
      toolUseId: 'toolu_1',
    })
    expect(typeof run!.durationMs).toBe('number')
  })
})
