import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { claudeCodeHooks } from '@harness-kernel/claude-code'
import { gate, type RecordedRequest, type Reply, waitUntil } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { type DriverHarness, driverHarness, toolDirective } from '../support/driver-harness.js'
import { GOLDEN_DIR } from '../support/golden-hook-call.js'
import { hookRecorded, recordedCalls, recorderHook } from '../support/hook-recorder.js'

// A user's Interrupt hook on the Claude Code driver: the real Claude Code 2.1.336 runs the turn, the kernel's Claude
// Code dialect runs the hook at `agent/interrupt`, with the bytes the real program gives its own Interrupt hook for an
// SDK program's interrupt() (golden Interrupt.json, real-claude-interrupt-hook.test.ts).
let current: DriverHarness | undefined
let dir: string | undefined
afterEach(async () => {
  await current?.dispose()
  if (dir) rmSync(dir, { recursive: true, force: true })
  current = undefined
  dir = undefined
})

const EVENTS = ['UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'Interrupt']

/** A driver harness whose kernel runs the user's Claude Code hooks (a `--settings` file) through the dialect. */
async function withInterruptHook(first: Reply | undefined): Promise<{ harness: DriverHarness; out: string }> {
  dir = mkdtempSync(join(tmpdir(), 'hk-cc-interrupt-'))
  const out = join(dir, 'hook-out')
  mkdirSync(out)
  // The dialect's hooks inherit the kernel's environment: the recorder writes where HOOK_OUT says.
  process.env.HOOK_OUT = out
  process.env.HOOK_RESP = join(dir, 'no-replies')
  const settings = join(dir, 'user-settings.json')
  writeFileSync(settings, JSON.stringify({ hooks: Object.fromEntries(EVENTS.map((event) => [event, [{ hooks: [recorderHook(event)] }]])) }))
  const harness = await driverHarness({
    dir,
    driver: { permissionMode: 'bypassPermissions' },
    server: { script: (request: RecordedRequest) => (request.n === 0 ? first : undefined) },
    plugins: [
      claudeCodeHooks({
        settings: [settings],
        settingSources: [],
        managedSettingsPath: false,
        effort: 'medium',
        permissionMode: 'bypassPermissions',
      }),
    ],
  })
  return { harness, out }
}

describe('the Claude Code driver runs a user’s Interrupt hook when a host interrupts a turn', () => {
  it('once, with the payload the real Claude Code gives, when session.interrupt() lands while Claude Code’s answer streams', {
    timeout: 90_000,
  }, async () => {
    const answer = gate()
    const { harness, out } = await withInterruptHook({ text: ['part one, ', 'part two'], heldUntil: answer.opened })
    current = harness
    const session = await harness.kernel.startSession()
    const running = session.run('FIRST prompt')
    await (await harness.server.waitForRequest(0)).held
    session.interrupt()
    expect((await running).status).toBe('interrupted')
    await waitUntil(() => hookRecorded(out, 'Interrupt'), 'the Interrupt hook to run', { boundMs: 30_000 })
    answer.open()
    await session.end()

    const [call, ...more] = recordedCalls(out, 'Interrupt')
    expect(more).toEqual([])
    const golden = JSON.parse(readFileSync(join(GOLDEN_DIR, 'Interrupt.json'), 'utf8')) as { stdin: string }
    expect(call?.stdin).toBe(
      golden.stdin
        .replace('<SESSION_ID>', session.id)
        .replace('<TRANSCRIPT>', session.transcriptPath)
        .replace('<PROJECT>', harness.dir)
        .replace('<PROMPT_ID>', String(recordedCalls(out, 'UserPromptSubmit')[0]?.payload.prompt_id)),
    )
    expect(call?.env).toMatchObject({ CLAUDE_EFFORT: 'medium', CLAUDE_PROJECT_DIR: harness.dir })
    expect(recordedCalls(out, 'Stop')).toEqual([])
  })

  it('once when it lands while a kernel tool runs inside Claude Code; no PostToolUse or Stop follows', { timeout: 90_000 }, async () => {
    const { harness, out } = await withInterruptHook(undefined)
    current = harness
    const started = join(harness.dir, 'tool-started')
    const session = await harness.kernel.startSession()
    const running = session.run(`Run it ${toolDirective('shell', { command: `touch ${started} && sleep 30` })}`)
    await waitUntil(() => existsSync(started), 'the tool to start', { boundMs: 30_000 })
    session.interrupt()
    expect((await running).status).toBe('interrupted')
    await waitUntil(() => hookRecorded(out, 'Interrupt'), 'the Interrupt hook to run', { boundMs: 30_000 })
    await session.end()
    expect(recordedCalls(out, 'Interrupt').map((call) => call.payload)).toMatchObject([{ source: 'user', reason: 'stop', via: 'client' }])
    for (const event of ['PostToolUse', 'PostToolUseFailure', 'Stop']) expect(recordedCalls(out, event)).toEqual([])
  })
})
