import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Message } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { codexHarnessPerTest, hookRuns, rec } from './codex-harness.js'

const setup = codexHarnessPerTest()
const shellCall = (command: string) => ({ tool_calls: [{ name: 'shell', input: { command } }] })
const toolResults = (messages: readonly Message[]) =>
  messages.flatMap((message) => message.content).filter((block) => block.type === 'tool_result')

describe('PreToolUse', () => {
  it('presents the shell as Bash with {command}, runs with /bin/bash -c in the session cwd, exact stdin, unchanged env', async () => {
    const h = setup({
      script: [shellCall('echo hello-from-tool'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [rec('PreToolUse'), { type: 'command', command: 'printf "%s %s %s" "$0" "$-" "$#" > "$HOOK_OUT/shell.txt"' }],
          },
        ],
      },
    })
    const session = await h.kernel.startSession()
    await session.run('run the tool')
    expect(readFileSync(join(h.out, 'shell.txt'), 'utf8')).toBe('/bin/bash hBc 0')
    const [call] = h.calls('PreToolUse')
    expect(call).toBeDefined()
    const payload = JSON.parse(call!.stdin)
    expect(Object.keys(payload)).toEqual([
      'session_id',
      'turn_id',
      'transcript_path',
      'cwd',
      'hook_event_name',
      'model',
      'permission_mode',
      'tool_name',
      'tool_input',
      'tool_use_id',
    ])
    expect(payload).toMatchObject({
      session_id: session.id,
      transcript_path: session.transcriptPath,
      cwd: h.cwd,
      hook_event_name: 'PreToolUse',
      model: 'scripted',
      permission_mode: 'bypassPermissions',
      tool_name: 'Bash',
      tool_input: { command: 'echo hello-from-tool' },
    })
    expect(call!.stdin.endsWith('}')).toBe(true)
    expect(call!.stdin).toBe(JSON.stringify(payload))
    expect(call!.meta).toMatchObject({ cwd: h.cwd })
    const hookEnv = call!.env.filter((line) => line !== '' && !/^(PWD|SHLVL|_|OLDPWD)=/.test(line))
    const ownEnv = Object.entries(process.env)
      .filter(([key]) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(key))
      .map(([key, value]) => `${key}=${value}`)
    expect(hookEnv.filter((line) => !ownEnv.includes(line)).filter((line) => !line.includes('\n'))).toEqual([])
  })

  it('a block denies the call with Codex’s exact text; the first blocker in display order wins; no PostToolUse', async () => {
    const h = setup({
      script: [shellCall('echo hello-from-tool'), { text: 'done' }],
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [rec('PreToolUse', 'a'), rec('PreToolUse', 'b')] }],
        PostToolUse: [{ hooks: [rec('PostToolUse')] }],
      },
      responses: {
        // a finishes after b, yet blocks first: display order decides.
        'PreToolUse-a.after': 'PreToolUse-b',
        'PreToolUse-a.stderr': 'blocked by exit2 hook',
        'PreToolUse-a.exit': '2',
        'PreToolUse-b.stdout': JSON.stringify({
          hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'second' },
        }),
      },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResults(result.messages)[0]).toMatchObject({
      output: 'Command blocked by PreToolUse hook: blocked by exit2 hook. Command: echo hello-from-tool',
      isError: true,
    })
    expect(h.calls('PostToolUse')).toEqual([])
    const runs = hookRuns(session.transcriptPath).filter((run) => run.event === 'PreToolUse')
    expect(runs.map((run) => run.status)).toEqual(['blocked', 'blocked'])
    expect(runs[0]!.id).toBe(`pre-tool-use:0:${h.codexHome}/hooks.json:call_1`)
  })

  it('the opt-in redactBlockedCommand fix drops the command from the block text', async () => {
    const h = setup({
      script: [shellCall('echo secret-token'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse')] }] },
      responses: { 'PreToolUse-h.stderr': 'no', 'PreToolUse-h.exit': '2' },
      options: { fixes: { redactBlockedCommand: true } },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResults(result.messages)[0]).toMatchObject({ output: 'Command blocked by PreToolUse hook: no' })
  })

  it('updatedInput from the handler that finished last rewrites the command; PostToolUse sees the rewritten input', async () => {
    const allow = (command: string) =>
      JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command } } })
    const h = setup({
      script: [shellCall('echo original'), { text: 'done' }],
      hooks: {
        PreToolUse: [{ hooks: [rec('PreToolUse', 'slow'), rec('PreToolUse', 'fast')] }],
        PostToolUse: [{ hooks: [rec('PostToolUse')] }],
      },
      responses: {
        'PreToolUse-slow.after': 'PreToolUse-fast',
        'PreToolUse-slow.stdout': allow('echo from-slow'),
        'PreToolUse-fast.stdout': allow('echo from-fast'),
      },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResults(result.messages)[0]).toMatchObject({ output: 'from-slow' })
    expect(JSON.parse(h.calls('PostToolUse')[0]!.stdin).tool_input).toEqual({ command: 'echo from-slow' })
    expect(result.messages[1]!.content[0]).toMatchObject({ input: { command: 'echo original' } })
  })

  it('updatedInput is dropped when another handler blocks', async () => {
    const h = setup({
      script: [shellCall('echo original'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse', 'rewrite'), rec('PreToolUse', 'block')] }] },
      responses: {
        'PreToolUse-rewrite.stdout': JSON.stringify({
          hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo rewritten' } },
        }),
        'PreToolUse-block.stdout': JSON.stringify({ decision: 'block', reason: 'legacy block' }),
      },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResults(result.messages)[0]).toMatchObject({
      output: 'Command blocked by PreToolUse hook: legacy block. Command: echo original',
    })
  })

  it('handlers of one event start at once across groups and are reported in display order', async () => {
    // a finishes only after b and c have started, b after c has exited: started one at a time, a would time out.
    const h = setup({
      script: [shellCall('true'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          { hooks: [rec('PreToolUse', 'a', { timeout: 10 }), rec('PreToolUse', 'b', { timeout: 10 })] },
          { matcher: 'Bash', hooks: [rec('PreToolUse', 'c', { timeout: 10 })] },
        ],
      },
      responses: {
        'PreToolUse-a.waitfor': 'PreToolUse-b.pid PreToolUse-c.pid',
        'PreToolUse-a.after': 'PreToolUse-b',
        'PreToolUse-b.after': 'PreToolUse-c',
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const runs = hookRuns(session.transcriptPath).filter((run) => run.event === 'PreToolUse')
    expect(runs.map((run) => [run.displayOrder, run.status])).toEqual([
      [0, 'completed'],
      [1, 'completed'],
      [2, 'completed'],
    ])
  })

  it('a hook that outlives its timeout is killed and fails open: the tool runs', async () => {
    const h = setup({
      script: [shellCall('echo ran'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [rec('PreToolUse', 'h', { timeout: 1 })] }] },
      responses: { 'PreToolUse-h.sleep': '1000', 'PreToolUse-h.stdout': JSON.stringify({ decision: 'block', reason: 'too late' }) },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResults(result.messages)[0]).toMatchObject({ output: 'ran' })
    const [run] = hookRuns(session.transcriptPath)
    expect(run).toMatchObject({ status: 'failed', timedOut: true, entries: [{ kind: 'error', text: 'hook timed out after 1s' }] })
  })

  it('non-matching matchers do not run', async () => {
    const h = setup({
      script: [shellCall('true'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          { matcher: 'exec_command', hooks: [rec('PreToolUse', 'x')] },
          { matcher: '^Ba', hooks: [rec('PreToolUse', 'y')] },
        ],
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(h.calls('PreToolUse').map((call) => call.tag)).toEqual(['y'])
  })
})

describe('PostToolUse', () => {
  it('a block replaces the output; two blockers are joined with a blank line; contexts are developer messages', async () => {
    const h = setup({
      script: [shellCall('echo out'), { text: 'done' }],
      hooks: { PostToolUse: [{ hooks: [rec('PostToolUse', 'a'), rec('PostToolUse', 'b')] }] },
      responses: {
        'PostToolUse-a.stdout': JSON.stringify({
          decision: 'block',
          reason: 'post reason A',
          hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'ctx A' },
        }),
        'PostToolUse-b.stderr': 'post reason B',
        'PostToolUse-b.exit': '2',
      },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResults(result.messages)[0]).toMatchObject({ output: 'post reason A\n\npost reason B' })
    const context = result.messages.find((message) => message.role === 'developer')
    expect(context).toMatchObject({ content: [{ type: 'text', text: 'ctx A' }], source: { kind: 'plugin', plugin: 'codex-hooks' } })
    const payload = JSON.parse(h.calls('PostToolUse')[0]!.stdin)
    expect(Object.keys(payload).slice(-4)).toEqual(['tool_name', 'tool_input', 'tool_response', 'tool_use_id'])
    expect(payload.tool_response).toBe('out\n')
    // The log keeps the kernel's order; the request puts the context between the call and its result, as Codex does.
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'developer', 'assistant'])
    expect(h.model.requests[1]!.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'developer', 'tool'])
  })

  it('toolContextOrder "kernel" leaves contexts after the results in requests too', async () => {
    const h = setup({
      script: [shellCall('echo out'), { text: 'done' }],
      hooks: { PostToolUse: [{ hooks: [rec('PostToolUse')] }] },
      responses: {
        'PostToolUse-h.stdout': JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'ctx' } }),
      },
      options: { toolContextOrder: 'kernel' },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(h.model.requests[1]!.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'developer'])
  })

  it('continue:false replaces the output with stopReason and the turn goes on', async () => {
    const h = setup({
      script: [shellCall('echo out'), { text: 'after' }],
      hooks: { PostToolUse: [{ hooks: [rec('PostToolUse')] }] },
      responses: { 'PostToolUse-h.stdout': JSON.stringify({ continue: false, stopReason: 'stop reason here' }) },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResults(result.messages)[0]).toMatchObject({ output: 'stop reason here' })
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'after' })
  })
})

describe('PermissionRequest', () => {
  const ask = {
    name: 'ask',
    setup: (kernel: import('@harness-kernel/kernel').KernelApi) =>
      kernel.hooks.toolPreExecute.tap('ask', () => ({ kind: 'ask', reason: 'need to write a file' })),
  }

  it('allow runs the tool without asking the approver; deny gives Codex’s rejection text', async () => {
    for (const [reply, expected] of [
      [{ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }, 'ran'],
      [
        { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'nope' } } },
        'shell failed: CreateProcess { message: "Rejected(\\"nope\\")" }',
      ],
    ] as const) {
      const h = setup({
        script: [shellCall('echo ran'), { text: 'done' }],
        hooks: { PermissionRequest: [{ matcher: 'Bash', hooks: [rec('PermissionRequest')] }] },
        responses: { 'PermissionRequest-h.stdout': JSON.stringify(reply) },
        plugins: [(await import('@harness-kernel/kernel')).definePlugin(ask)],
      })
      const session = await h.kernel.startSession()
      const result = await session.run('go')
      expect(toolResults(result.messages)[0]).toMatchObject({ output: expected })
      const payload = JSON.parse(h.calls('PermissionRequest')[0]!.stdin)
      expect(payload.tool_input).toEqual({ command: 'echo ran', description: 'need to write a file' })
      expect('tool_use_id' in payload).toBe(false)
    }
  })

  it('no verdict falls back to the approvals service', async () => {
    const h = setup({
      script: [shellCall('echo ran'), { text: 'done' }],
      hooks: { PermissionRequest: [{ hooks: [rec('PermissionRequest')] }] },
      plugins: [(await import('@harness-kernel/kernel')).definePlugin(ask)],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect((toolResults(result.messages)[0] as { output: string }).output).toMatch(/needs approval/)
  })
})

describe('PermissionRequest under the guardrails', () => {
  // Observed with Codex 0.169.0 (App Server differential suite, 5 runs): the hook fires for an escalation under
  // on-request, before the approval request, with permission_mode "default"; under never it does not fire.
  it('fires when the guardrails ask, with permission_mode from the approval policy, and its allow runs the call', async () => {
    const escalate = {
      tool_calls: [
        { name: 'shell', input: { command: 'echo escalated-ok', sandbox_permissions: 'require_escalated', justification: 'need it' } },
      ],
    }
    const hooks = { PermissionRequest: [{ matcher: 'Bash', hooks: [rec('PermissionRequest')] }] }
    const allow = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } })
    const onRequest = setup({
      script: [escalate, { text: 'done' }],
      hooks,
      responses: { 'PermissionRequest-h.stdout': allow },
      guardrails: { approvals: 'on-request' },
    })
    const session = await onRequest.kernel.startSession()
    const turn = await session.run('escalate')
    const [call] = onRequest.calls('PermissionRequest')
    expect(JSON.parse(call!.stdin)).toMatchObject({
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: 'echo escalated-ok' },
    })
    expect(toolResults(turn.messages)[0]).toMatchObject({ output: 'escalated-ok', isError: false })

    const never = setup({ script: [escalate, { text: 'done' }], hooks, guardrails: { approvals: 'never' } })
    const neverTurn = await (await never.kernel.startSession()).run('escalate')
    expect(never.calls('PermissionRequest')).toEqual([])
    expect(toolResults(neverTurn.messages)[0]).toMatchObject({ isError: true })
  })
})
