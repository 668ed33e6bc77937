/**
 * codex-hooks.md §11, "Outputs" (items 57–74), end to end: one representative per rule, with real hook processes
 * replying through the recorder and the effect read from the model's requests, the tool results and the session log.
 * Every label and event combination is pinned by io-parse-output.test.ts; this checks the wiring of each rule.
 */
import { definePlugin, type KernelApi, type Message, textOf } from '@harness-kernel/kernel'
import type { ScriptStep } from '@harness-kernel/scripted-model'
import { describe, expect, it } from 'vitest'
import { codexHarnessPerTest, hookRuns, rec } from './codex-harness.js'

const setup = codexHarnessPerTest()
const signal = new AbortController().signal

const shellCall = (command: string) => ({ tool_calls: [{ name: 'shell', input: { command } }] })
const toolOutputs = (messages: readonly Message[]) =>
  messages.flatMap((message) => message.content).flatMap((block) => (block.type === 'tool_result' ? [block.output] : []))
const texts = (messages: readonly Message[]) => messages.map((message) => `${message.role}:${textOf(message)}`)
const json = (value: unknown) => JSON.stringify(value)
const pre = (specific: Record<string, unknown>, rest: Record<string, unknown> = {}) =>
  json({ ...rest, hookSpecificOutput: { hookEventName: 'PreToolUse', ...specific } })
const deny = pre({ permissionDecision: 'deny', permissionDecisionReason: 'denied by hook' })
const runSummary = (path: string) => hookRuns(path).map((run) => ({ status: run.status, entries: run.entries }))
const failed = (text: string) => ({ status: 'failed', entries: [{ kind: 'error', text }] })

/** One PreToolUse handler replying `responses`; returns the tool result and the runs. */
async function preToolUse(responses: Record<string, string>, extraHooks: Record<string, unknown> = {}) {
  const h = setup({
    script: [shellCall('echo ran'), { text: 'done' }],
    hooks: { PreToolUse: [{ hooks: [rec('PreToolUse')] }], ...extraHooks },
    responses: Object.fromEntries(Object.entries(responses).map(([ext, content]) => [`PreToolUse-h.${ext}`, content])),
  })
  const session = await h.kernel.startSession()
  const result = await session.run('go')
  return { h, session, outputs: toolOutputs(result.messages), runs: runSummary(session.transcriptPath) }
}

describe('exit 0 (items 57–61, 65, 68)', () => {
  it('57: empty stdout: completed, no entries, no effect', async () => {
    const { outputs, runs, h } = await preToolUse({ stdout: '  \n\t' })
    expect(outputs).toEqual(['ran'])
    expect(runs).toEqual([{ status: 'completed', entries: [] }])
    expect(h.model.requests[1]!.messages.some((message) => message.role === 'developer')).toBe(false)
  })

  it('58: JSON padded with whitespace is parsed', async () => {
    const { outputs, runs } = await preToolUse({ stdout: `\n\n   ${deny}   \n` })
    expect(outputs).toEqual(['Command blocked by PreToolUse hook: denied by hook. Command: echo ran'])
    expect(runs).toEqual([{ status: 'blocked', entries: [{ kind: 'feedback', text: 'denied by hook' }] }])
  })

  it('59: an unknown key invalidates the whole output: `hook returned invalid pre-tool-use JSON output`, fail-open', async () => {
    const { outputs, runs } = await preToolUse({
      stdout: pre({ permissionDecision: 'deny', permissionDecisionReason: 'no' }, { bogus: 1 }),
    })
    expect(outputs).toEqual(['ran'])
    expect(runs).toEqual([failed('hook returned invalid pre-tool-use JSON output')])
  })

  it('60: a JSON array on UserPromptSubmit is invalid; the prompt goes through', async () => {
    const h = setup({
      script: [{ text: 'ok' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }] },
      responses: { 'UserPromptSubmit-h.stdout': '[{"decision":"block","reason":"x"}]' },
    })
    const session = await h.kernel.startSession()
    expect((await session.run('go')).status).toBe('completed')
    expect(texts(h.model.requests[0]!.messages)).toEqual(['user:go'])
    expect(runSummary(session.transcriptPath)).toEqual([failed('hook returned invalid user prompt submit JSON output')])
  })

  it('61: plain text is trimmed context on UserPromptSubmit, ignored on Pre/PostToolUse, a failure on Stop', async () => {
    const h = setup({
      script: [shellCall('echo ran'), { text: 'done' }],
      hooks: {
        UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }],
        PreToolUse: [{ hooks: [rec('PreToolUse')] }],
        PostToolUse: [{ hooks: [rec('PostToolUse')] }],
        Stop: [{ hooks: [rec('Stop')] }],
      },
      responses: {
        'UserPromptSubmit-h.stdout': '\n  plain context  \n',
        'PreToolUse-h.stdout': 'plain pre text',
        'PostToolUse-h.stdout': 'plain post text',
        'Stop-h.stdout': 'keep going',
      },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    expect(h.model.calls).toBe(2)
    expect(toolOutputs(result.messages)).toEqual(['ran'])
    expect(texts(h.model.requests[1]!.messages)).toEqual(['user:go', 'developer:plain context', 'assistant:', 'tool:'])
    expect(hookRuns(session.transcriptPath).map((run) => [run.event, run.status, run.entries])).toEqual([
      ['UserPromptSubmit', 'completed', [{ kind: 'context', text: 'plain context' }]],
      ['PreToolUse', 'completed', []],
      ['PostToolUse', 'completed', []],
      ['Stop', 'failed', [{ kind: 'error', text: 'hook returned invalid stop hook JSON output' }]],
    ])
  })

  it('65: stderr on exit 0 is ignored; systemMessage is only a warning entry', async () => {
    const h = setup({
      script: [{ text: 'ok' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', 'plain'), rec('UserPromptSubmit', 'sys')] }] },
      responses: {
        'UserPromptSubmit-plain.stdout': 'ctx from stdout',
        'UserPromptSubmit-plain.stderr': 'noise on stderr',
        'UserPromptSubmit-sys.stdout': json({ systemMessage: 'note for the user' }),
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(texts(h.model.requests[0]!.messages)).toEqual(['user:go', 'developer:ctx from stdout'])
    expect(runSummary(session.transcriptPath)).toEqual([
      { status: 'completed', entries: [{ kind: 'context', text: 'ctx from stdout' }] },
      { status: 'completed', entries: [{ kind: 'warning', text: 'note for the user' }] },
    ])
  })

  it('68: a hookSpecificOutput naming another event is accepted', async () => {
    const h = setup({
      script: [{ text: 'ok' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }] },
      responses: {
        'UserPromptSubmit-h.stdout': json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'mismatched' } }),
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(texts(h.model.requests[0]!.messages)).toEqual(['user:go', 'developer:mismatched'])
  })
})

describe('exit codes (items 62–64)', () => {
  it('62: exit 2 blocks with the trimmed stderr; stdout JSON (an allow with updatedInput) is ignored', async () => {
    const { outputs, runs } = await preToolUse({
      stdout: pre({ permissionDecision: 'allow', updatedInput: { command: 'echo rewritten' } }),
      stderr: '\n  blocked by exit2 hook  \n',
      exit: '2',
    })
    expect(outputs).toEqual(['Command blocked by PreToolUse hook: blocked by exit2 hook. Command: echo ran'])
    expect(runs).toEqual([{ status: 'blocked', entries: [{ kind: 'feedback', text: 'blocked by exit2 hook' }] }])
  })

  it('63: PreToolUse exit 2 with empty stderr fails with the exact text; the tool runs', async () => {
    const { outputs, runs } = await preToolUse({ stderr: ' \n', exit: '2' })
    expect(outputs).toEqual(['ran'])
    expect(runs).toEqual([failed('PreToolUse hook exited with code 2 but did not write a blocking reason to stderr')])
  })

  it('64: exit 1 or 3 fails with `hook exited with code N`, even with a deny on stdout; the tool runs', async () => {
    for (const code of ['1', '3']) {
      const { outputs, runs } = await preToolUse({ stdout: deny, stderr: 'boom', exit: code })
      expect(outputs).toEqual(['ran'])
      expect(runs).toEqual([failed(`hook exited with code ${code}`)])
    }
  })
})

describe('PreToolUse and PostToolUse (items 66, 67, 69)', () => {
  it('66: the five PreToolUse failure texts are exact, and the tool runs', async () => {
    const replies = [
      pre({ permissionDecision: 'deny', permissionDecisionReason: '  ' }),
      pre({ permissionDecision: 'allow' }),
      pre({ permissionDecision: 'ask', permissionDecisionReason: 'ask me' }),
      pre({ updatedInput: { command: 'echo rewritten' } }),
      json({ continue: false }),
    ]
    const h = setup({
      script: [shellCall('echo ran'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: replies.map((_, index) => rec('PreToolUse', `f${index}`)) }] },
      responses: Object.fromEntries(replies.map((reply, index) => [`PreToolUse-f${index}.stdout`, reply])),
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolOutputs(result.messages)).toEqual(['ran'])
    expect(runSummary(session.transcriptPath)).toEqual([
      failed('PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason'),
      failed('PreToolUse hook returned unsupported permissionDecision:allow'),
      failed('PreToolUse hook returned unsupported permissionDecision:ask'),
      failed('PreToolUse hook returned updatedInput without permissionDecision:allow'),
      failed('PreToolUse hook returned unsupported continue:false'),
    ])
  })

  it('67: a legacy decision:block blocks, and a blocked call runs no PostToolUse', async () => {
    const { outputs, runs, h } = await preToolUse(
      { stdout: json({ decision: 'block', reason: 'legacy no' }) },
      { PostToolUse: [{ hooks: [rec('PostToolUse')] }] },
    )
    expect(outputs).toEqual(['Command blocked by PreToolUse hook: legacy no. Command: echo ran'])
    expect(runs).toEqual([{ status: 'blocked', entries: [{ kind: 'feedback', text: 'legacy no' }] }])
    expect(h.calls('PostToolUse')).toEqual([])
  })

  it('69: PostToolUse `reason` without `decision` fails with the exact text; the output is unchanged', async () => {
    const h = setup({
      script: [shellCall('echo ran'), { text: 'done' }],
      hooks: { PostToolUse: [{ hooks: [rec('PostToolUse')] }] },
      responses: { 'PostToolUse-h.stdout': json({ reason: 'no decision' }) },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolOutputs(result.messages)).toEqual(['ran'])
    expect(runSummary(session.transcriptPath)).toEqual([failed('PostToolUse hook returned reason without decision')])
  })
})

describe('UserPromptSubmit, SessionStart, Stop (items 70–72)', () => {
  it('70: exit 2 or continue:false drops the prompt: no request, absent from this and the next turn', async () => {
    for (const [responses, status, run] of [
      [
        { 'UserPromptSubmit-h.1.stderr': 'not this one', 'UserPromptSubmit-h.1.exit': '2' },
        'blocked',
        { status: 'blocked', entries: [{ kind: 'feedback', text: 'not this one' }] },
      ],
      [
        { 'UserPromptSubmit-h.1.stdout': json({ continue: false, stopReason: 'stopped here' }) },
        'halted',
        { status: 'stopped', entries: [{ kind: 'stop', text: 'stopped here' }] },
      ],
    ] as const) {
      const h = setup({ script: [{ text: 'answer' }], hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }] }, responses })
      const session = await h.kernel.startSession()
      const dropped = await session.run('forbidden prompt')
      expect(dropped.status).toBe(status)
      expect(h.model.calls).toBe(0)
      await session.run('allowed prompt')
      expect(texts(h.model.requests[0]!.messages)).toEqual(['user:allowed prompt'])
      expect(session.messages.some((message) => textOf(message) === 'forbidden prompt')).toBe(false)
      expect(runSummary(session.transcriptPath)[0]).toEqual(run)
    }
  })

  it('71: a `decision` key on SessionStart is invalid (failed, no effect); the turn goes on', async () => {
    const h = setup({
      script: [{ text: 'ok' }],
      hooks: { SessionStart: [{ hooks: [rec('SessionStart')] }], UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }] },
      responses: { 'SessionStart-h.stdout': json({ decision: 'block', reason: 'no' }) },
    })
    const session = await h.kernel.startSession()
    expect((await session.run('go')).status).toBe('completed')
    expect(h.calls().map((call) => call.event)).toEqual(['SessionStart', 'UserPromptSubmit'])
    expect(h.model.calls).toBe(1)
    expect(runSummary(session.transcriptPath)[0]).toEqual(failed('hook returned invalid session start JSON output'))
  })

  it('72: Stop decision:block without a reason fails with the exact text; no continuation', async () => {
    const h = setup({
      script: [{ text: 'only' }, { text: 'never' }],
      hooks: { Stop: [{ hooks: [rec('Stop')] }] },
      responses: { 'Stop-h.stdout': json({ decision: 'block' }) },
    })
    const session = await h.kernel.startSession()
    expect((await session.run('go')).status).toBe('completed')
    expect(h.model.calls).toBe(1)
    expect(runSummary(session.transcriptPath)).toEqual([failed('Stop hook returned decision:block without a non-empty reason')])
  })
})

describe('PermissionRequest and compaction (items 73–74)', () => {
  const ask = definePlugin({
    name: 'ask',
    setup: (kernel: KernelApi) => kernel.hooks.toolPreExecute.tap('ask', () => ({ kind: 'ask', reason: 'need to write a file' })),
  })
  const permission = async (responses: Record<string, string>, call: ScriptStep = shellCall('echo ran')) => {
    const h = setup({
      script: [call, { text: 'done' }],
      hooks: { PermissionRequest: [{ hooks: [rec('PermissionRequest')] }] },
      responses: Object.fromEntries(Object.entries(responses).map(([ext, content]) => [`PermissionRequest-h.${ext}`, content])),
      plugins: [ask],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    return { outputs: toolOutputs(result.messages), runs: runSummary(session.transcriptPath) }
  }

  it('73: exit 2 denies with the stderr as the message', async () => {
    const { outputs, runs } = await permission({ stderr: 'not on my watch', exit: '2' })
    expect(outputs).toEqual(['shell failed: CreateProcess { message: "Rejected(\\"not on my watch\\")" }'])
    expect(runs).toEqual([{ status: 'blocked', entries: [{ kind: 'feedback', text: 'not on my watch' }] }])
  })

  it('73: interrupt:true fails with the exact text and falls back to the normal approval request', async () => {
    const { outputs, runs } = await permission({
      stdout: json({
        hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'x', interrupt: true } },
      }),
    })
    expect(outputs).toEqual([expect.stringMatching(/needs approval \(need to write a file\), and no approver is configured/)])
    expect(runs).toEqual([failed('PermissionRequest hook returned unsupported interrupt:true')])
  })

  it('73: a deny of a kernel tool other than the shell names that tool (its model-facing name), not exec_command', async () => {
    const { outputs } = await permission(
      { stdout: json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'nope' } } }) },
      { tool_calls: [{ name: 'write_file', input: { path: 'f.txt', content: 'x' } }] },
    )
    expect(outputs).toEqual(['write_file failed: CreateProcess { message: "Rejected(\\"nope\\")" }'])
  })

  it('74: PreCompact exit 2 is a failure carrying stderr, and the compaction still happens', async () => {
    const h = setup({
      script: [],
      hooks: { PreCompact: [{ hooks: [rec('PreCompact')] }] },
      responses: { 'PreCompact-h.stderr': ' please do not \n', 'PreCompact-h.exit': '2' },
    })
    const session = await h.kernel.startSession()
    const decision = await h.kernel.hooks.preCompact.promise(
      { kind: 'proceed' },
      { session, trigger: 'manual', turn: { id: 't', number: 1 }, signal },
    )
    expect(decision).toEqual({ kind: 'proceed' })
    expect(runSummary(session.transcriptPath)).toEqual([failed('please do not')])
  })
})
