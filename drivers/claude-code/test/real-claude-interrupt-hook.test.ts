import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gate, type RecordedRequest, type Reply, waitUntil } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { ClaudeHooksSession } from './support/claude-hooks-session.js'
import { committedGolden, goldenOf } from './support/golden-hook-call.js'
import { recorderHook } from './support/hook-recorder.js'

/**
 * What the real Claude Code 2.1.336 (Agent SDK 0.3.336) does with a user's `Interrupt` command hook, observed through
 * the SDK with the hook in the project's settings: the facts the Claude Code dialect's Interrupt stands on (its README,
 * "Interrupt"). Before these cases, 13 runs by hand showed the same (an answer held 6 times: matchers, exit 2, JSON,
 * plain stdout, a slow hook before the next turn and before the end; a running tool, no turn, a subagent, 1 each; a
 * PermissionRequest deny with and without interrupt, a canUseTool deny, a PreToolUse continue:false). The
 * `Interrupt*.json` golden payloads come from the first and the sixth case (HARNESS_CAPTURE_GOLDEN=1 rewrites them).
 */

const OBSERVED = ['UserPromptSubmit', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop', 'SessionEnd']
const hooks = (interrupt: unknown[] = [{ hooks: [recorderHook('Interrupt')] }]) => ({
  ...Object.fromEntries(OBSERVED.map((event) => [event, [{ hooks: [recorderHook(event)] }]])),
  Interrupt: interrupt,
})
/** One Interrupt group per matcher, each recording under its own tag. */
const matcherGroups = (matchers: Record<string, string | undefined>) =>
  Object.entries(matchers).map(([tag, matcher]) => ({
    ...(matcher === undefined ? {} : { matcher }),
    hooks: [recorderHook('Interrupt', tag)],
  }))

const bash = (command: string): Reply => ({ toolCalls: [{ name: 'Bash', input: { command, description: 'run it' } }] })
/** The first request answered by `first`; the others by the fake server's `FINAL reply to request #n`. */
const firstAnswer = (first: Reply) => ({ script: (request: RecordedRequest) => (request.n === 0 ? first : undefined) })

let session: ClaudeHooksSession | undefined
afterEach(async () => {
  await session?.close()
  session?.remove()
  session = undefined
})

const tagsOf = (calls: { tag: string }[]) => calls.map((call) => call.tag).sort()
const interruptKeys = [
  'session_id',
  'transcript_path',
  'cwd',
  'prompt_id',
  'permission_mode',
  'effort',
  'hook_event_name',
  'source',
  'reason',
]

describe('the real Claude Code runs an Interrupt hook', () => {
  it('once when an interrupt() ends the turn while the answer streams: source user, reason stop, via client; matched on source; neither the result nor the next turn waits for it', {
    timeout: 90_000,
  }, async () => {
    const answer = gate()
    session = await ClaudeHooksSession.start({
      server: firstAnswer({ text: ['part one, ', 'part two'], heldUntil: answer.opened }),
      hooks: hooks(matcherGroups({ main: undefined, star: '*', user: 'user', system: 'system', stop: 'stop', client: 'client' })),
      responses: { 'Interrupt-main.waitfor': 'release' },
    })
    session.send('FIRST prompt')
    await (await session.server.waitForRequest(0)).held
    await session.interrupt()
    expect(await session.result(1)).toMatchObject({ subtype: 'error_during_execution', is_error: true })
    await session.hookCalled('Interrupt')
    answer.open()
    session.send('SECOND prompt')
    expect(await session.result(2)).toMatchObject({ subtype: 'success' })
    // The next turn ran to its end while the Interrupt hook still waited.
    expect(session.calls('Interrupt').find((call) => call.tag === 'main')?.ended).toBe(false)
    writeFileSync(join(session.out, 'release'), '')
    await session.close()

    const interrupts = session.calls('Interrupt')
    expect(tagsOf(interrupts)).toEqual(['main', 'star', 'user'])
    const call = interrupts.find((each) => each.tag === 'main')!
    const [prompt] = session.calls('UserPromptSubmit')
    expect(Object.keys(call.payload)).toEqual([...interruptKeys, 'via'])
    expect(call.payload).toEqual({
      session_id: prompt?.payload.session_id,
      transcript_path: prompt?.payload.transcript_path,
      cwd: session.project,
      prompt_id: prompt?.payload.prompt_id,
      permission_mode: 'bypassPermissions',
      effort: { level: 'medium' },
      hook_event_name: 'Interrupt',
      source: 'user',
      reason: 'stop',
      via: 'client',
    })
    expect(call.env.CLAUDE_EFFORT).toBe('medium')
    expect(call.cwd).toBe(session.project)
    // No Stop for the interrupted turn: the one Stop is the second turn's.
    expect(session.calls('Stop').map((stop) => stop.payload.prompt_id)).toEqual([session.calls('UserPromptSubmit')[1]?.payload.prompt_id])
    const golden = goldenOf(
      call,
      'Claude Code 2.1.336, the Agent SDK’s interrupt() while the answer streams (real-claude-interrupt-hook.test.ts)',
    )
    expect(committedGolden('Interrupt.json', golden)).toEqual(golden)
  })

  it('once when an interrupt() ends the turn while a tool runs; no PostToolUse, PostToolUseFailure or Stop follows', {
    timeout: 90_000,
  }, async () => {
    session = await ClaudeHooksSession.start({ server: {}, hooks: hooks(), tools: ['Bash'] })
    const started = join(session.dir, 'tool-started')
    session.server.reply(bash(`touch ${started} && sleep 30`))
    session.send('FIRST prompt')
    await waitUntil(() => existsSync(started), 'the Bash call to start', { boundMs: 30_000 })
    await session.interrupt()
    expect(await session.result(1)).toMatchObject({ subtype: 'error_during_execution' })
    await session.hookCalled('Interrupt')
    await session.close()
    expect(session.calls('Interrupt').map((call) => [call.payload.source, call.payload.reason, call.payload.via])).toEqual([
      ['user', 'stop', 'client'],
    ])
    for (const event of ['PostToolUse', 'PostToolUseFailure', 'Stop']) expect(session.calls(event)).toEqual([])
  })

  it('never when no turn runs: an interrupt() before the first prompt or after a finished turn runs none', {
    timeout: 90_000,
  }, async () => {
    session = await ClaudeHooksSession.start({ server: {}, hooks: hooks() })
    await session.interrupt()
    session.send('FIRST prompt')
    await session.result(1)
    await session.interrupt()
    session.send('SECOND prompt')
    expect(await session.result(2)).toMatchObject({ subtype: 'success' })
    await session.close()
    expect(session.calls('SessionEnd')).toHaveLength(1)
    expect(session.calls('Stop')).toHaveLength(2)
    expect(session.calls('Interrupt')).toEqual([])
  })

  it('once, for the main session, when the interrupt() lands while a subagent works; no SubagentStop', { timeout: 90_000 }, async () => {
    const subagentAnswer = gate()
    const agentCall: Reply = {
      toolCalls: [
        {
          name: 'Agent',
          input: { description: 'sub job', prompt: 'sub task', subagent_type: 'general-purpose', run_in_background: false },
        },
      ],
    }
    session = await ClaudeHooksSession.start({
      server: {
        script: (request) =>
          request.n === 0 ? agentCall : request.n === 1 ? { text: 'sub', heldUntil: subagentAnswer.opened } : undefined,
      },
      hooks: hooks(),
      tools: ['Agent', 'Bash'],
    })
    session.send('FIRST prompt')
    await (await session.server.waitForRequest(1)).held
    await session.interrupt()
    await session.result(1)
    await session.hookCalled('Interrupt')
    subagentAnswer.open()
    await session.close()
    const [call] = session.calls('Interrupt')
    expect(session.calls('Interrupt')).toHaveLength(1)
    expect(Object.keys(call!.payload)).toEqual([...interruptKeys, 'via'])
    expect(call!.payload.prompt_id).toBe(session.calls('UserPromptSubmit')[0]?.payload.prompt_id)
    expect(session.calls('SubagentStop')).toEqual([])
  })

  it('its output is ignored: exit 2, a block, continue:false, a context or a systemMessage reach neither the model nor the SDK', {
    timeout: 90_000,
  }, async () => {
    const answer = gate()
    const json = {
      continue: false,
      stopReason: 'INT-STOP',
      systemMessage: 'INT-SYSTEM',
      decision: 'block',
      reason: 'INT-BLOCK',
      hookSpecificOutput: { hookEventName: 'Interrupt', additionalContext: 'INT-CONTEXT' },
    }
    session = await ClaudeHooksSession.start({
      server: firstAnswer({ text: 'held', heldUntil: answer.opened }),
      hooks: hooks([{ hooks: [recorderHook('Interrupt'), recorderHook('Interrupt', 'json')] }]),
      responses: { 'Interrupt-main.stderr': 'INT-EXIT2', 'Interrupt-main.exit': '2', 'Interrupt-json.stdout': JSON.stringify(json) },
    })
    session.send('FIRST prompt')
    await (await session.server.waitForRequest(0)).held
    await session.interrupt()
    await session.result(1)
    await waitUntil(() => session!.calls('Interrupt').filter((call) => call.ended).length === 2, 'both Interrupt hooks to end', {
      boundMs: 30_000,
    })
    answer.open()
    session.send('SECOND prompt')
    expect(await session.result(2)).toMatchObject({ subtype: 'success' })
    await session.close()
    const seen = JSON.stringify([session.server.requests[1]?.body, session.messages])
    for (const text of ['INT-EXIT2', 'INT-STOP', 'INT-SYSTEM', 'INT-BLOCK', 'INT-CONTEXT']) expect(seen).not.toContain(text)
  })
})

describe('the real Claude Code, a permission denial that ends the turn', () => {
  const denyJson = (interrupt: boolean) =>
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'NO', ...(interrupt ? { interrupt } : {}) },
      },
    })

  it('a PermissionRequest hook’s deny with interrupt: source system, reason permission_denied, no via', { timeout: 90_000 }, async () => {
    session = await ClaudeHooksSession.start({
      server: firstAnswer(bash('touch made.txt')),
      hooks: hooks(matcherGroups({ main: undefined, user: 'user', system: 'system' })),
      responses: { 'PermissionRequest-main.stdout': denyJson(true) },
      tools: ['Bash'],
      permissionMode: 'default',
    })
    session.send('FIRST prompt')
    expect(await session.result(1)).toMatchObject({ subtype: 'error_during_execution' })
    await session.hookCalled('Interrupt')
    await session.close()
    const interrupts = session.calls('Interrupt')
    expect(tagsOf(interrupts)).toEqual(['main', 'system'])
    const call = interrupts.find((each) => each.tag === 'main')!
    expect(Object.keys(call.payload)).toEqual(interruptKeys)
    expect(call.payload).toMatchObject({ permission_mode: 'default', source: 'system', reason: 'permission_denied' })
    const golden = goldenOf(
      call,
      'Claude Code 2.1.336, a PermissionRequest hook’s deny with interrupt:true (real-claude-interrupt-hook.test.ts)',
    )
    expect(committedGolden('Interrupt.permission-denied.json', golden)).toEqual(golden)
  })

  it('an SDK canUseTool deny with interrupt: source user, reason permission_denied, via client', { timeout: 90_000 }, async () => {
    session = await ClaudeHooksSession.start({
      server: firstAnswer(bash('touch made.txt')),
      hooks: hooks(),
      tools: ['Bash'],
      permissionMode: 'default',
      canUseTool: async () => ({ behavior: 'deny', message: 'NO', interrupt: true }),
    })
    session.send('FIRST prompt')
    await session.result(1)
    await session.hookCalled('Interrupt')
    await session.close()
    expect(session.calls('Interrupt').map((call) => call.payload)).toMatchObject([
      { source: 'user', reason: 'permission_denied', via: 'client' },
    ])
  })

  it('a deny without interrupt does not end the turn and runs no Interrupt', { timeout: 90_000 }, async () => {
    session = await ClaudeHooksSession.start({
      server: firstAnswer(bash('touch made.txt')),
      hooks: hooks(),
      responses: { 'PermissionRequest-main.stdout': denyJson(false) },
      tools: ['Bash'],
      permissionMode: 'default',
    })
    session.send('FIRST prompt')
    expect(await session.result(1)).toMatchObject({ subtype: 'success' })
    await session.close()
    expect(session.calls('Stop')).toHaveLength(1)
    expect(session.calls('Interrupt')).toEqual([])
  })
})
