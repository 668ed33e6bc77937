import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { definePlugin, defineTool, type Message, type ModelRequest, type NoticePayload, type Session } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { bash, claudeHarnessPerTest, hookRuns, RECORDER, rec } from './claude-harness.js'

const harness = claudeHarnessPerTest()
const cmd = (event: string, tag = 'h') => `${RECORDER} ${event} ${tag}`
const json = (value: unknown) => JSON.stringify(value)
const pre = (decision: string, extra: Record<string, unknown> = {}) =>
  json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, ...extra } })

function toolResult(messages: readonly Message[], callId = 'toolu_1') {
  for (const message of messages)
    for (const block of message.content) if (block.type === 'tool_result' && block.callId === callId) return block
  return undefined
}

/** Every text the model was sent, tool results included. */
function modelTexts(requests: readonly ModelRequest[]): string {
  return JSON.stringify(requests.map((request) => request.messages))
}

function notices(): { plugin: ReturnType<typeof definePlugin>; seen: NoticePayload[] } {
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

/** A guard that asks for approval of every call, as a kernel permission policy would. */
const askPolicy = definePlugin({
  name: 'ask-policy',
  setup(kernel) {
    kernel.hooks.toolPreExecute.tap({ name: 'ask-policy', stage: -100 }, () => ({ kind: 'ask', reason: 'policy asks' }))
  },
})

describe('checklist: exit codes and decisions (claude-code-hooks.md §9, 31–48)', () => {
  it('31. PreToolUse exit 2: the tool does not run; the error is `PreToolUse:Bash hook error: [<cmd>]: <stderr>`', async () => {
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'done' }],
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [rec('PreToolUse')] }] },
      responses: { 'PreToolUse-h.exit': '2', 'PreToolUse-h.stderr': 'BLOCKED: not allowed\n' },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(false)
    expect(toolResult(result.messages)).toEqual({
      type: 'tool_result',
      callId: 'toolu_1',
      output: `PreToolUse:Bash hook error: [${cmd('PreToolUse')}]: BLOCKED: not allowed\n`,
      isError: true,
    })
    expect(h.calls('PostToolUse')).toHaveLength(0)
  })

  it('32. PreToolUse exit 2 with `allow` JSON on stdout still blocks', async () => {
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse')] }] },
      responses: { 'PreToolUse-h.exit': '2', 'PreToolUse-h.stderr': 'no', 'PreToolUse-h.stdout': pre('allow') },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(false)
    expect(toolResult(result.messages)?.output).toBe(`PreToolUse:Bash hook error: [${cmd('PreToolUse')}]: no`)
  })

  it('33. PreToolUse exit 1: the tool runs, the model sees nothing, the outcome is `error`', async () => {
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse')] }] },
      responses: { 'PreToolUse-h.exit': '1', 'PreToolUse-h.stderr': 'PRE-EXIT1-stderr', 'PreToolUse-h.stdout': 'PRE-EXIT1-stdout' },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(true)
    expect(toolResult(result.messages)).toMatchObject({ isError: false })
    expect(modelTexts(h.requests())).not.toContain('PRE-EXIT1')
    const run = hookRuns(session.transcriptPath).find((record) => record.event === 'PreToolUse')
    expect(run).toMatchObject({ outcome: 'error', exitCode: 1, status: 'failed' })
  })

  it('34. PostToolUse exit 2: the model gets the blocking-error text with `[<cmd>]: <stderr>`', async () => {
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: { PostToolUse: [{ hooks: [rec('PostToolUse')] }] },
      responses: { 'PostToolUse-h.exit': '2', 'PostToolUse-h.stderr': 'POST-EXIT2-stderr\n' },
      options: { rendering: 'classic' },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const second = h.requests()[1]!
    expect(toolResult(second.messages)?.output).toBe(
      `hi\n\n<system-reminder>\nPostToolUse:Bash hook blocking error from command: "${cmd('PostToolUse')}": [${cmd('PostToolUse')}]: POST-EXIT2-stderr\n\n</system-reminder>`,
    )
  })

  it('35. UserPromptSubmit exit 2 on the first prompt: no request, no Stop, the turn is `blocked`, the warning is exact', async () => {
    const { plugin, seen } = notices()
    const h = harness({
      script: [{ text: 'never' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }], Stop: [{ hooks: [rec('Stop')] }] },
      responses: { 'UserPromptSubmit-h.exit': '2', 'UserPromptSubmit-h.stderr': 'UPS-EXIT2-stderr\n' },
      plugins: [plugin],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('Please run it.')
    const warning = `UserPromptSubmit operation blocked by hook:\n[${cmd('UserPromptSubmit')}]: UPS-EXIT2-stderr\n\n\nOriginal prompt: Please run it.` // stderr keeps its newline [obs]
    expect(result.status).toBe('blocked')
    expect(result.reason).toBe(warning)
    expect(h.requests()).toHaveLength(0)
    expect(h.calls('Stop')).toHaveLength(0)
    expect(seen.map((notice) => notice.text)).toContain(warning)
    expect(session.messages.filter((message) => message.role === 'user')).toHaveLength(0)
  })

  it('36. UserPromptSubmit exit 2 on a steer: only that item is dropped, its claim accepted; the turn continues', async () => {
    let session: Session | undefined
    let receipt: ReturnType<Session['steer']> | undefined
    const steerer = definePlugin({
      name: 'steerer',
      setup(kernel) {
        kernel.registerTool(
          defineTool({
            name: 'steer_me',
            description: 'steers the running turn',
            inputSchema: z.object({}),
            async execute() {
              receipt = session!.steer('STEERED-MESSAGE')
              return { output: 'steered', isError: false }
            },
          }),
        )
      },
    })
    const h = harness({
      script: [{ tool_calls: [{ id: 'toolu_1', name: 'steer_me', input: {} }] }, { text: 'done' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }], Stop: [{ hooks: [rec('Stop')] }] },
      responses: { 'UserPromptSubmit-h.2.exit': '2', 'UserPromptSubmit-h.2.stderr': 'no steering\n' },
      plugins: [steerer],
    })
    session = await h.kernel.startSession()
    const result = await session.run('first')
    expect(result.status).toBe('completed')
    expect(h.calls('UserPromptSubmit').map((call) => call.payload.prompt)).toEqual(['first', 'STEERED-MESSAGE'])
    expect(await receipt!).toMatchObject({ state: 'dropped' })
    expect(modelTexts(h.requests())).not.toContain('STEERED-MESSAGE')
    expect(h.requests()).toHaveLength(2)
    expect(h.calls('Stop')).toHaveLength(1)
    const blocked = hookRuns(session.transcriptPath).find((run) => run.event === 'UserPromptSubmit' && run.outcome === 'blocking')
    expect(blocked).toMatchObject({ prompt: 'STEERED-MESSAGE', exitCode: 2 })
  })

  it('37. UserPromptSubmit plain stdout becomes `UserPromptSubmit hook success: <stdout>`', async () => {
    const h = harness({
      script: [{ text: 'done' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }] },
      responses: { 'UserPromptSubmit-h.stdout': 'UPS-PLAIN-STDOUT\n' },
      options: { rendering: 'classic' },
    })
    const session = await h.kernel.startSession()
    await session.run('Please run it.')
    expect(h.requests()[0]!.messages[0]!.content).toEqual([
      { type: 'text', text: '<system-reminder>\nUserPromptSubmit hook success: UPS-PLAIN-STDOUT\n</system-reminder>' },
      { type: 'text', text: 'Please run it.' },
    ])
  })

  it('38. PreToolUse and PostToolUse plain stdout is never model-visible', async () => {
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse')] }], PostToolUse: [{ hooks: [rec('PostToolUse')] }] },
      responses: { 'PreToolUse-h.stdout': 'PRE-PLAIN\n', 'PostToolUse-h.stdout': 'POST-PLAIN\n' },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(modelTexts(h.requests())).not.toMatch(/PRE-PLAIN|POST-PLAIN/)
    expect(toolResult(h.requests()[1]!.messages)?.output).toBe('hi')
  })

  it('39. `deny` gives `PreToolUse:Bash hook error: <reason>`', async () => {
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse')] }] },
      responses: { 'PreToolUse-h.stdout': pre('deny', { permissionDecisionReason: 'DENY-REASON-xyz' }) },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(false)
    expect(toolResult(result.messages)).toMatchObject({ output: 'PreToolUse:Bash hook error: DENY-REASON-xyz', isError: true })
  })

  it('40. `allow` with `updatedInput` replaces the whole input; PostToolUse sees it; the model’s tool_use is unchanged', async () => {
    const h = harness({
      script: [bash('echo original'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse')] }], PostToolUse: [{ hooks: [rec('PostToolUse')] }] },
      responses: { 'PreToolUse-h.stdout': pre('allow', { updatedInput: { command: 'echo changed-by-hook' } }) },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResult(result.messages)?.output).toBe('changed-by-hook')
    expect(h.calls('PostToolUse')[0]!.payload.tool_input).toEqual({ command: 'echo changed-by-hook' })
    const assistant = h.requests()[1]!.messages.find((message) => message.role === 'assistant')!
    expect(assistant.content[0]).toMatchObject({ type: 'tool_call', input: { command: 'echo original', description: 'run echo original' } })
  })

  it('41. An `allow` reason never appears in a request', async () => {
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse')] }] },
      responses: { 'PreToolUse-h.stdout': pre('allow', { permissionDecisionReason: 'ALLOW-REASON-abc' }) },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(modelTexts(h.requests())).not.toContain('ALLOW-REASON-abc')
  })

  it('42a. Headless `ask`: the tool error is exactly the reason, and no PermissionRequest hook runs', async () => {
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse')] }], PermissionRequest: [{ hooks: [rec('PermissionRequest')] }] },
      responses: { 'PreToolUse-h.stdout': pre('ask', { permissionDecisionReason: 'ASK-REASON-777' }) },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResult(result.messages)).toMatchObject({ output: 'ASK-REASON-777', isError: true })
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(false)
    expect(h.calls('PermissionRequest')).toHaveLength(0)
  })

  it('42b. Interactive `ask` goes to the approver, which runs the tool', async () => {
    const asked: (string | undefined)[] = []
    const approver = definePlugin({
      name: 'approver',
      setup(kernel) {
        kernel.provide('approvals', {
          async request({ reason }) {
            asked.push(reason)
            return { kind: 'allow' }
          },
        })
      },
    })
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse')] }], PermissionRequest: [{ hooks: [rec('PermissionRequest')] }] },
      responses: { 'PreToolUse-h.stdout': pre('ask', { permissionDecisionReason: 'ASK-REASON-777' }) },
      plugins: [approver],
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(asked).toEqual(['ASK-REASON-777'])
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(true)
    expect(h.calls('PermissionRequest')).toHaveLength(0)
  })

  it.each([
    ['deny first', ['deny', 'allow']],
    ['allow first', ['allow', 'deny']],
  ])('43. `deny` beats `allow` in any configuration order (%s)', async (_name, order) => {
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse', 'a'), rec('PreToolUse', 'b')] }] },
      responses: {
        'PreToolUse-a.stdout': pre(order[0]!, { permissionDecisionReason: `R-${order[0]}` }),
        'PreToolUse-b.stdout': pre(order[1]!, { permissionDecisionReason: `R-${order[1]}` }),
      },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResult(result.messages)?.output).toBe('PreToolUse:Bash hook error: R-deny')
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(false)
  })

  it.each([
    ['a finishes last', 'a', 'b', 'from-a'],
    ['b finishes last', 'b', 'a', 'from-b'],
  ])('44. With two `updatedInput` handlers the last to finish wins (%s)', async (_name, last, first, winner) => {
    const h = harness({
      script: [bash('echo original'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse', 'a')] }, { hooks: [rec('PreToolUse', 'b')] }] },
      responses: {
        [`PreToolUse-${last}.after`]: `PreToolUse-${first}`,
        'PreToolUse-a.stdout': pre('allow', { updatedInput: { command: 'echo from-a' } }),
        'PreToolUse-b.stdout': pre('allow', { updatedInput: { command: 'echo from-b' } }),
      },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResult(result.messages)?.output).toBe(winner)
  })

  it('45. A second handler’s `additionalContext` is still delivered when the first denies (classic: its own block after the result)', async () => {
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse', 'a'), rec('PreToolUse', 'b')] }] },
      responses: {
        'PreToolUse-a.stdout': pre('deny', { permissionDecisionReason: 'NO' }),
        'PreToolUse-b.stdout': pre('allow', { additionalContext: 'CTX-FROM-B' }),
      },
      options: { rendering: 'classic' },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const messages = h.requests()[1]!.messages
    expect(toolResult(messages)?.output).toBe('PreToolUse:Bash hook error: NO')
    expect(messages.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: '<system-reminder>\nPreToolUse:Bash hook additional context: CTX-FROM-B\n</system-reminder>' }],
    })
  })

  it('46a. PermissionRequest `allow` runs the tool', async () => {
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'done' }],
      hooks: { PermissionRequest: [{ matcher: 'Bash', hooks: [rec('PermissionRequest')] }] },
      responses: {
        'PermissionRequest-h.stdout': json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }),
      },
      plugins: [askPolicy],
      options: { permissionMode: 'default' },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(true)
    const payload = h.calls('PermissionRequest')[0]!.payload
    expect(Object.keys(payload)).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'prompt_id',
      'permission_mode',
      'hook_event_name',
      'tool_name',
      'tool_input',
      'permission_suggestions',
    ])
    expect(payload).toMatchObject({ permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'touch ran.txt' } })
  })

  it('46b. PermissionRequest `deny` makes `message` the tool error', async () => {
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'done' }],
      hooks: { PermissionRequest: [{ hooks: [rec('PermissionRequest')] }] },
      responses: {
        'PermissionRequest-h.stdout': json({
          hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'PERM-DENY-MSG' } },
        }),
      },
      plugins: [askPolicy],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(false)
    expect(toolResult(result.messages)).toMatchObject({ output: 'PERM-DENY-MSG', isError: true })
  })

  it('47. PostToolUse `decision:block` gives exactly one more request in the same turn', async () => {
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }, { text: 'never' }],
      hooks: { PostToolUse: [{ hooks: [rec('PostToolUse')] }] },
      responses: { 'PostToolUse-h.stdout': json({ decision: 'block', reason: 'POST-BLOCK-REASON-777' }) },
      options: { rendering: 'system' },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    expect(h.requests()).toHaveLength(2)
    const last = h.requests()[1]!.messages.at(-1)!
    expect(last).toMatchObject({
      role: 'developer',
      content: [
        { type: 'text', text: `PostToolUse:Bash hook blocking error from command: "${cmd('PostToolUse')}": POST-BLOCK-REASON-777` },
      ],
    })
  })

  it('48. `defer` halts the turn and records the call as deferred', async () => {
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'never' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse')] }] },
      responses: { 'PreToolUse-h.stdout': pre('defer') },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result).toMatchObject({ status: 'halted', reason: 'tool_deferred' })
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(false)
    expect(h.requests()).toHaveLength(1)
    expect(hookRuns(session.transcriptPath).find((run) => run.event === 'PreToolUse')).toMatchObject({ decision: 'defer' })
  })
})
