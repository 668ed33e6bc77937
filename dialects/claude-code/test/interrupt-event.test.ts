import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { definePlugin, type NoticePayload } from '@harness-kernel/kernel'
import { subagents } from '@harness-kernel/subagents'
import { describe, expect, it } from 'vitest'
import { bash, claudeHarnessPerTest, hookRuns, rec, recordEvents } from './claude-harness.js'
import { waitForPids, waitUntil } from './waits.js'

/**
 * Interrupt on the kernel's `agent/interrupt`, in the native loop, against what the real Claude Code 2.1.336 does
 * (drivers/claude-code/test/real-claude-interrupt-hook.test.ts, and the golden payloads it captured): once per
 * interrupted turn of the main session, matched on `source`, detached (the next turn does not wait for it), its output
 * ignored.
 */
const harness = claudeHarnessPerTest()
const golden = (name: string) =>
  (JSON.parse(readFileSync(new URL(`./fixtures/golden/${name}`, import.meta.url), 'utf8')) as { stdin: string }).stdin
const OBSERVED = ['UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop', 'SessionEnd']
const hooks = (interrupt: unknown[] = [{ hooks: [rec('Interrupt')] }]) => ({ ...recordEvents(OBSERVED), Interrupt: interrupt })
const matcherGroups = (matchers: Record<string, string | undefined>) =>
  Object.entries(matchers).map(([tag, matcher]) => ({ ...(matcher === undefined ? {} : { matcher }), hooks: [rec('Interrupt', tag)] }))
/** A Bash call that writes its pid (so a test knows it runs), then runs until it is killed. */
const longTool = (id?: string) => bash('echo $$ > tool.pid.tmp && mv tool.pid.tmp tool.pid && sleep 30', id)

const askPolicy = definePlugin({
  name: 'ask-policy',
  setup(kernel) {
    kernel.hooks.toolPreExecute.tap({ name: 'ask-policy', stage: -100 }, () => ({ kind: 'ask', reason: 'policy asks' }))
  },
})

describe('Interrupt runs on agent/interrupt as Claude Code 2.1.336 runs it', () => {
  it('a host’s session.interrupt() while a tool runs: one Interrupt, the real program’s bytes; no Stop; the next turn does not wait for it', async () => {
    const h = harness({
      script: [longTool(), { text: 'SECOND' }],
      hooks: hooks(matcherGroups({ h: undefined, star: '*', user: 'user', system: 'system', stop: 'stop', client: 'client' })),
      responses: { 'Interrupt-h.waitfor': 'release' },
      options: { effort: 'medium', permissionMode: 'bypassPermissions' },
    })
    const session = await h.kernel.startSession()
    const running = session.run('go')
    await waitForPids(join(h.project, 'tool.pid'))
    session.interrupt()
    expect((await running).status).toBe('interrupted')
    await waitUntil(() => existsSync(join(h.out, 'Interrupt-h.pid')), 'the Interrupt hook to run')
    expect((await session.run('again')).status).toBe('completed')
    // The second turn ended while the Interrupt hook still waited for `release`.
    expect(h.calls('Interrupt').find((call) => call.tag === 'h')?.meta.ended).toBeUndefined()
    writeFileSync(join(h.out, 'release'), '')
    await session.end()

    const interrupts = h.calls('Interrupt')
    expect(interrupts.map((call) => call.tag).sort()).toEqual(['h', 'star', 'user'])
    const call = interrupts.find((each) => each.tag === 'h')!
    const [prompt, secondPrompt] = h.calls('UserPromptSubmit')
    const expected = golden('Interrupt.json')
      .replace('<SESSION_ID>', session.id)
      .replace('<TRANSCRIPT>', session.transcriptPath)
      .replace('<PROJECT>', h.project)
      .replace('<PROMPT_ID>', String(prompt?.payload.prompt_id))
    expect(call.stdin).toBe(expected)
    expect(call.env).toMatchObject({ CLAUDE_EFFORT: 'medium', CLAUDE_PROJECT_DIR: h.project, CLAUDE_CODE_SESSION_ID: session.id })
    expect(call.meta.cwd).toBe(h.project)
    expect(h.calls('Stop').map((stop) => stop.payload.prompt_id)).toEqual([secondPrompt?.payload.prompt_id])
    expect(h.calls('PostToolUse')).toEqual([])
    expect(h.calls('PostToolUseFailure')).toEqual([])
    expect(hookRuns(session.transcriptPath).filter((run) => run.event === 'Interrupt')).toHaveLength(3)
  })

  it('no turn running: session.interrupt() before a turn and after one runs none', async () => {
    const h = harness({ script: [{ text: 'ONE' }], hooks: hooks() })
    const session = await h.kernel.startSession()
    session.interrupt()
    await session.run('go')
    session.interrupt()
    await session.end()
    expect(h.calls('Stop')).toHaveLength(1)
    expect(h.calls('Interrupt')).toEqual([])
  })

  it('a subagent interrupted with its parent: one Interrupt, the main session’s, and no SubagentStop', async () => {
    const agentCall = {
      tool_calls: [
        {
          name: 'Agent',
          id: 'toolu_1',
          input: { description: 'sub job', prompt: 'sub task', subagent_type: 'general-purpose', run_in_background: false },
        },
      ],
    }
    const h = harness({ script: [agentCall, longTool('toolu_2')], hooks: hooks(), plugins: [subagents()] })
    const session = await h.kernel.startSession()
    const running = session.run('Delegate.')
    await waitForPids(join(h.project, 'tool.pid'))
    session.interrupt()
    expect((await running).status).toBe('interrupted')
    await session.end()
    const interrupts = h.calls('Interrupt')
    expect(interrupts).toHaveLength(1)
    expect(interrupts[0]?.payload).toMatchObject({ session_id: session.id, source: 'user', reason: 'stop', via: 'client' })
    expect(interrupts[0]?.payload).not.toHaveProperty('agent_id')
    expect(h.calls('SubagentStop')).toEqual([])
  })

  it('a PermissionRequest hook’s deny with interrupt: source system, reason permission_denied, no via (the real program’s bytes)', async () => {
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'never' }],
      hooks: {
        ...hooks(matcherGroups({ h: undefined, user: 'user', system: 'system' })),
        PermissionRequest: [{ hooks: [rec('PermissionRequest')] }],
      },
      responses: {
        'PermissionRequest-h.stdout': JSON.stringify({
          hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'NO', interrupt: true } },
        }),
      },
      plugins: [askPolicy],
      options: { effort: 'medium', permissionMode: 'default' },
    })
    const session = await h.kernel.startSession()
    expect((await session.run('go')).status).toBe('interrupted')
    await session.end()
    const interrupts = h.calls('Interrupt')
    expect(interrupts.map((call) => call.tag).sort()).toEqual(['h', 'system'])
    const expected = golden('Interrupt.permission-denied.json')
      .replace('<SESSION_ID>', session.id)
      .replace('<TRANSCRIPT>', session.transcriptPath)
      .replace('<PROJECT>', h.project)
      .replace('<PROMPT_ID>', String(h.calls('UserPromptSubmit')[0]?.payload.prompt_id))
    expect(interrupts.find((call) => call.tag === 'h')?.stdin).toBe(expected)
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(false)
  })

  it('its output is ignored: exit 2, a block, continue:false, a context and a systemMessage reach neither the model nor the user', async () => {
    const notices: NoticePayload[] = []
    const h = harness({
      script: [longTool(), { text: 'SECOND' }],
      hooks: hooks([{ hooks: [rec('Interrupt'), rec('Interrupt', 'json')] }]),
      responses: {
        'Interrupt-h.stderr': 'INT-EXIT2',
        'Interrupt-h.exit': '2',
        'Interrupt-json.stdout': JSON.stringify({
          continue: false,
          stopReason: 'INT-STOP',
          systemMessage: 'INT-SYSTEM',
          decision: 'block',
          reason: 'INT-BLOCK',
          hookSpecificOutput: { hookEventName: 'Interrupt', additionalContext: 'INT-CONTEXT' },
        }),
      },
      plugins: [
        definePlugin({ name: 'notices', setup: (kernel) => kernel.hooks.notice.tap('notices', (notice) => void notices.push(notice)) }),
      ],
    })
    const session = await h.kernel.startSession()
    const running = session.run('go')
    await waitForPids(join(h.project, 'tool.pid'))
    session.interrupt()
    await running
    await waitUntil(() => hookRuns(session.transcriptPath).filter((run) => run.event === 'Interrupt').length === 2, 'both Interrupt runs')
    const second = await session.run('again')
    await session.end()
    expect(second.status).toBe('completed')
    const seen = JSON.stringify([h.requests(), notices.map((notice) => notice.text)])
    for (const text of ['INT-EXIT2', 'INT-STOP', 'INT-SYSTEM', 'INT-BLOCK', 'INT-CONTEXT']) expect(seen).not.toContain(text)
  })
})
