/**
 * claude-code-hooks.md §9, "Concurrency, dedup, timeouts" (items 26–30), end to end with real hook processes. No
 * assertion is about elapsed time: concurrency is read from the recorded start and end timestamps, and kills from
 * whether the processes still exist.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { definePlugin, type Message, type NoticePayload } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { bash, claudeHarnessPerTest, hookRuns, RECORDER, rec } from './claude-harness.js'

const harness = claudeHarnessPerTest()
const sh = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra })

function writeJson(path: string, value: unknown): string {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, JSON.stringify(value).replaceAll('@REC@', RECORDER))
  return path
}

async function waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 10_000
  for (;;) {
    try {
      const value = probe()
      if (value !== undefined) return value
    } catch {
      // not there yet
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A live process: it exists and is not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** Waits (bounded) for every pid to be gone, then reports which are still alive. */
async function survivors(pids: number[]): Promise<number[]> {
  const deadline = Date.now() + 5000
  while (pids.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25))
  return pids.filter(alive)
}

const pidIn = (file: string) => {
  const text = readFileSync(file, 'utf8')
  return /^\d+\n$/.test(text) ? Number(text) : undefined
}

function toolResults(messages: readonly Message[]) {
  return messages
    .flatMap((message) => message.content)
    .flatMap((block) => (block.type === 'tool_result' ? [[block.callId, block.output, block.isError]] : []))
}

function noticeTap(): { plugin: ReturnType<typeof definePlugin>; seen: NoticePayload[] } {
  const seen: NoticePayload[] = []
  const plugin = definePlugin({
    name: 'notice-tap',
    setup(kernel) {
      kernel.hooks.notice.tap('notice-tap', (payload) => {
        seen.push(payload)
      })
    },
  })
  return { plugin, seen }
}

/**
 * A handler that starts a long background child, records its own pid and the child's (the pid files appear whole),
 * and waits. Killing only the shell would leave the child running.
 */
const lingering = (name: string) =>
  `sleep 30 & echo $! > "$HOOK_OUT/${name}.child.tmp"; mv "$HOOK_OUT/${name}.child.tmp" "$HOOK_OUT/${name}.child"; ` +
  `echo $$ > "$HOOK_OUT/${name}.shell.tmp"; mv "$HOOK_OUT/${name}.shell.tmp" "$HOOK_OUT/${name}.shell"; wait`

describe('checklist: concurrency and dedup (claude-code-hooks.md §9, 26–27)', () => {
  it('26. three 1 s handlers in two groups run at once: every one starts before the first one ends', async () => {
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: {
        PreToolUse: [{ hooks: [rec('PreToolUse', 'a'), rec('PreToolUse', 'b')] }, { matcher: 'Bash', hooks: [rec('PreToolUse', 'c')] }],
      },
      responses: { 'PreToolUse-a.sleep': '1', 'PreToolUse-b.sleep': '1', 'PreToolUse-c.sleep': '1' },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const calls = h.calls('PreToolUse')
    expect(calls.map((call) => call.tag).sort()).toEqual(['a', 'b', 'c'])
    const byValue = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0)
    const started = calls.map((call) => BigInt(call.meta.started!)).sort(byValue)
    const ended = calls.map((call) => BigInt(call.meta.ended!)).sort(byValue)
    const lastStart = started.at(-1)!
    const firstEnd = ended[0]!
    expect(lastStart < firstEnd).toBe(true)
  })

  it('27. one command string in two groups, twice in one group and in three sources (project, user, --settings) runs once; with an extra space it runs again; a plugin’s copy stays separate', async () => {
    const same = rec('Stop', 'same')
    const spaced = { type: 'command', command: `${RECORDER}  Stop same` }
    const pluginDir = join(mkdtempSync(join(tmpdir(), 'hk-claude-plugins-')), 'kit')
    writeJson(join(pluginDir, 'hooks', 'hooks.json'), { hooks: { Stop: [{ hooks: [same] }] } })
    const h = harness({
      script: [{ text: 'done' }],
      hooks: { Stop: [{ hooks: [same, same] }, { hooks: [same, spaced] }] },
      options: { plugins: [pluginDir], settings: [JSON.stringify({ hooks: { Stop: [{ hooks: [same] }] } }).replaceAll('@REC@', RECORDER)] },
    })
    writeJson(join(h.configDir, 'settings.json'), { hooks: { Stop: [{ hooks: [same] }] } })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(h.calls('Stop')).toHaveLength(3)
    const project = join(h.project, '.claude', 'settings.json')
    expect(hookRuns(session.transcriptPath).map((run) => [run.key, run.command])).toEqual([
      // The first in load order (managed, --settings, local, project, user, plugins) is the one that runs.
      [`<--settings #1>:Stop:0:0`, `${RECORDER} Stop same`],
      [`${project}:Stop:1:1`, `${RECORDER}  Stop same`],
      [`${join(pluginDir, 'hooks', 'hooks.json')}:Stop:0:0`, `${RECORDER} Stop same`],
    ])
  })
})

describe('checklist: timeouts and interrupts (claude-code-hooks.md §9, 28–30)', () => {
  it('28. a timed-out hook: its whole process group is killed, it gives no decision (the deny it printed before timing out is ignored), and the tool runs', async () => {
    // The deny is printed at once, then the hook outlives its timeout: what a timed-out hook printed is never read.
    const lateDeny = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"late"}}'; ${lingering('slow')}`
    const { plugin, seen } = noticeTap()
    const h = harness({
      script: [bash('touch ran.txt && echo ran'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [sh(lateDeny, { timeout: 1 })] }] },
      plugins: [plugin],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResults(result.messages)).toEqual([['toolu_1', 'ran', false]])
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(true)
    const [run] = hookRuns(session.transcriptPath)
    expect(run).toMatchObject({ event: 'PreToolUse', outcome: 'timeout', status: 'failed', timedOut: true, exitCode: null })
    expect(run?.decision).toBeUndefined()
    const pids = [pidIn(join(h.out, 'slow.shell'))!, pidIn(join(h.out, 'slow.child'))!]
    expect(await survivors(pids)).toEqual([])
    expect(seen.filter((notice) => notice.source === 'claude-code-hooks').map((notice) => [notice.level, notice.text])).toEqual([
      ['warning', `PreToolUse:Bash hook ${lateDeny} failed: timed out after 1 s; no decision`],
    ])
  })

  it('29. the default timeout is configurable (defaultTimeoutSec; 600 s by default, 60 s for older Claude Code): at 1 s an untimed handler is killed, one with its own `timeout` is not', async () => {
    const h = harness({
      script: [bash('echo ran'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          {
            hooks: [sh(lingering('untimed')), sh('sleep 1.5; echo own-timeout-finished > "$HOOK_OUT/own"', { timeout: 10 })],
          },
        ],
      },
      options: { defaultTimeoutSec: 1 },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResults(result.messages)).toEqual([['toolu_1', 'ran', false]])
    expect(hookRuns(session.transcriptPath).map((run) => [run.outcome, run.timedOut])).toEqual([
      ['timeout', true],
      ['success', false],
    ])
    expect(readFileSync(join(h.out, 'own'), 'utf8')).toBe('own-timeout-finished\n')
    expect(await survivors([pidIn(join(h.out, 'untimed.shell'))!, pidIn(join(h.out, 'untimed.child'))!])).toEqual([])
  })

  it('29. with the default (600 s), an untimed handler that outlives 1 s is not killed', async () => {
    const h = harness({
      script: [bash('echo ran'), { text: 'done' }],
      hooks: { PreToolUse: [{ hooks: [sh('sleep 1.5; echo finished > "$HOOK_OUT/untimed"')] }] },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(readFileSync(join(h.out, 'untimed'), 'utf8')).toBe('finished\n')
    expect(hookRuns(session.transcriptPath).map((run) => [run.outcome, run.timedOut])).toEqual([['success', false]])
  })

  it('30. an interrupt kills running hooks (the whole group); the tool never runs; no PostToolUse, PostToolBatch or Stop follows', async () => {
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'never' }],
      hooks: {
        PreToolUse: [{ hooks: [sh(lingering('pre'))] }],
        PostToolUse: [{ hooks: [rec('PostToolUse')] }],
        PostToolUseFailure: [{ hooks: [rec('PostToolUseFailure')] }],
        PostToolBatch: [{ hooks: [rec('PostToolBatch')] }],
        Stop: [{ hooks: [rec('Stop')] }],
      },
    })
    const session = await h.kernel.startSession()
    const running = session.run('go')
    const shell = await waitFor(() => pidIn(join(h.out, 'pre.shell')), 'the PreToolUse hook to start')
    const child = pidIn(join(h.out, 'pre.child'))!
    session.interrupt()
    const result = await running
    expect(result.status).toBe('interrupted')
    expect(await survivors([shell, child])).toEqual([])
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(false)
    expect(h.calls()).toEqual([])
    expect(h.requests()).toHaveLength(1)
    expect(hookRuns(session.transcriptPath).map((run) => [run.event, run.outcome])).toEqual([['PreToolUse', 'cancelled']])
  })

  it('30. an interrupt while the tool runs: no PostToolUse, PostToolUseFailure, PostToolBatch or Stop hook runs', async () => {
    const h = harness({
      script: [bash('echo $$ > tool.pid.tmp && mv tool.pid.tmp tool.pid && sleep 30'), { text: 'never' }],
      hooks: {
        PreToolUse: [{ hooks: [rec('PreToolUse')] }],
        PostToolUse: [{ hooks: [rec('PostToolUse')] }],
        PostToolUseFailure: [{ hooks: [rec('PostToolUseFailure')] }],
        PostToolBatch: [{ hooks: [rec('PostToolBatch')] }],
        Stop: [{ hooks: [rec('Stop')] }],
      },
    })
    const session = await h.kernel.startSession()
    const running = session.run('go')
    await waitFor(() => pidIn(join(h.project, 'tool.pid')), 'the tool to start')
    session.interrupt()
    const result = await running
    expect(result.status).toBe('interrupted')
    expect(h.calls().map((call) => call.event)).toEqual(['PreToolUse'])
    expect(h.requests()).toHaveLength(1)
  })
})
