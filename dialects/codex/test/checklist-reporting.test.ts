/**
 * codex-hooks.md §11, "Reporting and defects" (items 86, 90–96), end to end: the `hook/run` records real hook
 * processes leave in the session log, run ids and display numbers, the Stop-loop default, and interrupts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { definePlugin, type KernelApi, type SessionEvent, textOf } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { CODEX_EVENTS } from '../src/index.js'
import { codexHarnessPerTest, hookRuns, rec } from './codex-harness.js'
import { waitForAsyncRuns, waitForExit, waitForPids } from './waits.js'

const setup = codexHarnessPerTest()
const signal = new AbortController().signal
const json = (value: unknown) => JSON.stringify(value)
const logEvents = (path: string): SessionEvent[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)

const allowPermission = definePlugin({
  name: 'ask-for-shell',
  setup: (kernel: KernelApi) =>
    kernel.hooks.toolPreExecute.tap('ask', (decision, { call }) => (call.name === 'shell' ? { kind: 'ask', reason: 'why' } : decision)),
})

describe('run reports (items 86, 90, 91)', () => {
  it('90, 86: run ids, camelCase names, scopes, statuses and entries per §9; one handler per event numbers them 0…9', async () => {
    const advisory = ['SessionEnd', 'Interrupt', 'PreModelRequest', 'PostModelRequest']
    const ten = CODEX_EVENTS.filter((event) => !advisory.includes(event))
    const h = setup({
      script: [{ tool_calls: [{ name: 'shell', input: { command: 'echo out' } }] }, { text: 'first' }, { text: 'second' }, { text: 'sub' }],
      hooks: Object.fromEntries(ten.map((event) => [event, [{ hooks: [rec(event)] }]])),
      responses: {
        'SessionStart-h.stdout': 'start ctx',
        'PreToolUse-h.stderr': 'boom',
        'PreToolUse-h.exit': '1',
        'PermissionRequest-h.stdout': json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }),
        'PostToolUse-h.stdout': json({
          decision: 'block',
          reason: 'replaced',
          hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'post ctx' },
        }),
        'Stop-h.1.stdout': json({ decision: 'block', reason: 'again' }),
        'PreCompact-h.stdout': json({ continue: false, stopReason: 'keep history' }),
        'SubagentStop-h.stdout': json({ decision: 'block', reason: 'finish the child task' }),
      },
      plugins: [allowPermission],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    const turn = { id: 'turn-2', number: 2 }
    const agent = { id: 'agent-1', type: 'default' }
    await h.kernel.hooks.preCompact.promise({ kind: 'proceed' }, { session, trigger: 'manual', turn, signal })
    await h.kernel.hooks.postCompact.promise({ session, trigger: 'manual', turn, signal })
    await h.kernel.hooks.subagentStart.promise({ session, turn, step: 1, signal, agent })
    const subStop = await h.kernel.hooks.subagentStop.promise(
      { kind: 'stop' },
      { session, turn, step: 1, signal, agent, stopHookActive: false, lastAssistantMessage: 'Sub done.' },
    )
    const path = `${h.codexHome}/hooks.json`
    expect(subStop).toMatchObject({
      kind: 'continue',
      messages: [
        { content: [{ type: 'text', text: `<hook_prompt hook_run_id="subagent-stop:8:${path}">finish the child task</hook_prompt>` }] },
      ],
    })
    expect(textOf(h.model.requests[2]!.messages.at(-1)!)).toBe(`<hook_prompt hook_run_id="stop:9:${path}">again</hook_prompt>`)
    const runs = hookRuns(session.transcriptPath)
    const call = runs.find((run) => run.event === 'PreToolUse')!.toolUseId
    expect(runs.map((run) => [run.id, run.eventName, run.scope, run.status, run.entries])).toEqual([
      [`session-start:5:${path}`, 'sessionStart', 'thread', 'completed', [{ kind: 'context', text: 'start ctx' }]],
      [`user-prompt-submit:6:${path}`, 'userPromptSubmit', 'turn', 'completed', []],
      [`pre-tool-use:0:${path}:${call}`, 'preToolUse', 'turn', 'failed', [{ kind: 'error', text: 'hook exited with code 1' }]],
      [`permission-request:1:${path}`, 'permissionRequest', 'turn', 'completed', []],
      [
        `post-tool-use:2:${path}:${call}`,
        'postToolUse',
        'turn',
        'blocked',
        [
          { kind: 'context', text: 'post ctx' },
          { kind: 'feedback', text: 'replaced' },
        ],
      ],
      [`stop:9:${path}`, 'stop', 'turn', 'blocked', [{ kind: 'feedback', text: 'again' }]],
      [`stop:9:${path}`, 'stop', 'turn', 'completed', []],
      [`pre-compact:3:${path}`, 'preCompact', 'turn', 'stopped', [{ kind: 'stop', text: 'keep history' }]],
      [`post-compact:4:${path}`, 'postCompact', 'turn', 'completed', []],
      [`subagent-start:7:${path}`, 'subagentStart', 'thread', 'completed', []],
      [`subagent-stop:8:${path}`, 'subagentStop', 'turn', 'blocked', [{ kind: 'feedback', text: 'finish the child task' }]],
    ])
    // turnId is set even on the thread-scoped SessionStart.
    expect(runs[0]!.turnId).toBe(result.turnId)
  })

  it('91: every run, sync and async, is in the session log with the §9 fields', async () => {
    const h = setup({
      script: [{ tool_calls: [{ name: 'shell', input: { command: 'true' } }] }, { text: 'done' }],
      hooks: {
        UserPromptSubmit: [
          { hooks: [rec('UserPromptSubmit', 'sync', { statusMessage: 'Checking' }), rec('UserPromptSubmit', 'bg', { async: true })] },
        ],
        PreToolUse: [{ matcher: 'Bash', hooks: [rec('PreToolUse')] }],
      },
      // The async handler outlives the turn: it finishes once the test releases it, after the turn's end.
      responses: { 'UserPromptSubmit-bg.waitfor': 'release', 'PreToolUse-h.stdout': 'ignored plain text' },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    writeFileSync(join(h.out, 'release'), '')
    await waitForAsyncRuns(session, 1)
    const runs = hookRuns(session.transcriptPath)
    expect(runs.map((run) => `${run.event}:${run.executionMode}`).sort()).toEqual([
      'PreToolUse:sync',
      'UserPromptSubmit:async',
      'UserPromptSubmit:sync',
    ])
    for (const run of runs) {
      expect(run).toMatchObject({
        dialect: 'codex',
        id: expect.any(String),
        event: expect.any(String),
        eventName: expect.any(String),
        key: expect.stringContaining(`${h.codexHome}/hooks.json:`),
        command: expect.stringContaining('recorder.sh'),
        source: 'user',
        sourcePath: `${h.codexHome}/hooks.json`,
        displayOrder: expect.any(Number),
        scope: 'turn',
        status: 'completed',
        entries: [],
        exitCode: 0,
        timedOut: false,
        durationMs: expect.any(Number),
        startedAt: expect.any(Number),
        completedAt: expect.any(Number),
        turnId: result.turnId,
      })
      expect(run.completedAt! - run.startedAt!).toBeGreaterThanOrEqual(0)
      expect(Math.abs(run.startedAt! - Date.now() / 1000)).toBeLessThan(60)
    }
    const pre = runs.find((run) => run.event === 'PreToolUse')!
    expect(pre.toolUseId).toEqual(expect.any(String))
    expect(pre.id).toBe(`pre-tool-use:0:${h.codexHome}/hooks.json:${pre.toolUseId}`)
    expect(runs.find((run) => run.executionMode === 'sync' && run.event === 'UserPromptSubmit')!.statusMessage).toBe('Checking')
    // Started before the PreToolUse run and finished after it: a measured duration, at least as long.
    expect(runs.find((run) => run.executionMode === 'async')!.durationMs).toBeGreaterThanOrEqual(pre.durationMs!)
  })

  it('91: SessionEnd runs are in the session log too (with their failures as notices)', async () => {
    const h = setup({
      script: [],
      hooks: { SessionEnd: [{ hooks: [rec('SessionEnd', 'ok'), rec('SessionEnd', 'bad')] }] },
      responses: { 'SessionEnd-bad.exit': '1' },
    })
    const session = await h.kernel.startSession()
    await session.end()
    expect(h.calls('SessionEnd')).toHaveLength(2)
    expect(hookRuns(session.transcriptPath).map((run) => [run.id, run.status])).toEqual([
      [`session-end:0:${h.codexHome}/hooks.json`, 'completed'],
      [`session-end:1:${h.codexHome}/hooks.json`, 'failed'],
    ])
    expect(
      logEvents(session.transcriptPath).some((event) => event.type === 'notice' && event.text.includes('hook exited with code 1')),
    ).toBe(true)
  })
})

describe('Stop loops and interrupts (items 94, 96)', () => {
  it('94: an always-blocking Stop hook with the kernel default ends after 8 continuations, with the kernel’s notice', async () => {
    const h = setup({
      script: Array.from({ length: 20 }, (_, index) => ({ text: `reply ${index}` })),
      hooks: { Stop: [{ hooks: [rec('Stop')] }] },
      responses: { 'Stop-h.stdout': json({ decision: 'block', reason: 'keep going' }) },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'reply 8' })
    expect(h.model.calls).toBe(9)
    expect(h.calls('Stop')).toHaveLength(9)
    expect(
      logEvents(session.transcriptPath)
        .filter((event) => event.type === 'notice' && event.source === 'kernel')
        .map((event) => event.type === 'notice' && event.text),
    ).toContain('turn stopped after 8 consecutive continuations by agent/turn-stopping (maxStopContinuations 8)')
  })

  /** A PreToolUse hook that outlives the interrupt (with a background child), then PostToolUse and Stop recorders. */
  const interruptedDuringPreToolUse = async () => {
    const h = setup({
      script: [{ tool_calls: [{ name: 'shell', input: { command: 'touch "$HOOK_OUT/tool-ran"' } }] }, { text: 'never' }],
      hooks: {
        PreToolUse: [
          {
            hooks: [
              {
                type: 'command',
                // It never finishes by itself; its background child would outlive a kill of the shell alone.
                command:
                  'sleep 1000 & echo $! > "$HOOK_OUT/orphan.tmp"; mv "$HOOK_OUT/orphan.tmp" "$HOOK_OUT/orphan.pid"; ' +
                  'echo $$ > "$HOOK_OUT/hook.tmp"; mv "$HOOK_OUT/hook.tmp" "$HOOK_OUT/hook.pid"; sleep 1000; touch "$HOOK_OUT/survived"',
              },
            ],
          },
        ],
        PostToolUse: [{ hooks: [rec('PostToolUse')] }],
        Stop: [{ hooks: [rec('Stop')] }],
      },
    })
    const session = await h.kernel.startSession()
    const running = session.run('go')
    const pids = await waitForPids(join(h.out, 'hook.pid'), join(h.out, 'orphan.pid'))
    session.interrupt('user pressed escape')
    const result = await running
    return { h, session, result, pids }
  }

  it('96: an interrupt kills the running hook group at once; no tool, PostToolUse or Stop process runs', async () => {
    // The hook cannot finish by itself: the turn ending at all shows the interrupt did not wait for it.
    const { h, result, pids } = await interruptedDuringPreToolUse()
    expect(result.status).toBe('interrupted')
    await waitForExit(pids, 'the interrupted hook and its background child')
    expect(existsSync(join(h.out, 'survived'))).toBe(false)
    expect(existsSync(join(h.out, 'tool-ran'))).toBe(false)
    expect(h.calls()).toEqual([])
    expect(h.model.calls).toBe(1)
  })

  it('96: after an interrupt during PreToolUse, no PostToolUse run is reported (nor a failure notice for it)', async () => {
    const { session } = await interruptedDuringPreToolUse()
    expect(hookRuns(session.transcriptPath).map((run) => [run.event, run.status])).toEqual([['PreToolUse', 'failed']])
    const notices = logEvents(session.transcriptPath).flatMap((event) => (event.type === 'notice' ? [event.text] : []))
    expect(notices.filter((text) => text.startsWith('PostToolUse hook'))).toEqual([])
  })
})
