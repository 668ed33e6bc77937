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
import { untilExited, waitForExit, waitForPids } from './waits.js'

const harness = claudeHarnessPerTest()
const sh = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra })

function writeJson(path: string, value: unknown): string {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, JSON.stringify(value).replaceAll('@REC@', RECORDER))
  return path
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
  it('26. three handlers in two groups run at once: every one starts before the first one ends', async () => {
    // Each finishes only once the other two have started (their pid files): run one at a time, the first would time out.
    const tags = ['a', 'b', 'c']
    const others = (tag: string) => tags.filter((other) => other !== tag).map((other) => `PreToolUse-${other}.pid`)
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          { hooks: [rec('PreToolUse', 'a', { timeout: 10 }), rec('PreToolUse', 'b', { timeout: 10 })] },
          { matcher: 'Bash', hooks: [rec('PreToolUse', 'c', { timeout: 10 })] },
        ],
      },
      responses: Object.fromEntries(tags.map((tag) => [`PreToolUse-${tag}.waitfor`, others(tag).join(' ')])),
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
    await waitForExit(await waitForPids(join(h.out, 'slow.shell'), join(h.out, 'slow.child')), 'the timed-out hook and its child')
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
            // The second outlives the first, which its 1 s default timeout kills.
            hooks: [
              sh(lingering('untimed')),
              sh(`${untilExited('$HOOK_OUT/untimed.shell')}; echo own-timeout-finished > "$HOOK_OUT/own"`, { timeout: 10 }),
            ],
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
    await waitForExit(await waitForPids(join(h.out, 'untimed.shell'), join(h.out, 'untimed.child')), 'the timed-out hook and its child')
  })

  it('29. with the default (600 s), an untimed handler that outlives 1 s is not killed', async () => {
    // The untimed handler finishes after the other one, which its own `timeout: 1` kills.
    const h = harness({
      script: [bash('echo ran'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          {
            hooks: [
              sh(lingering('second'), { timeout: 1 }),
              sh(`${untilExited('$HOOK_OUT/second.shell')}; echo finished > "$HOOK_OUT/untimed"`),
            ],
          },
        ],
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(readFileSync(join(h.out, 'untimed'), 'utf8')).toBe('finished\n')
    expect(hookRuns(session.transcriptPath).map((run) => [run.outcome, run.timedOut])).toEqual([
      ['timeout', true],
      ['success', false],
    ])
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
    const pids = await waitForPids(join(h.out, 'pre.shell'), join(h.out, 'pre.child'))
    session.interrupt()
    const result = await running
    expect(result.status).toBe('interrupted')
    await waitForExit(pids, 'the interrupted hook and its child')
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
    await waitForPids(join(h.project, 'tool.pid'))
    session.interrupt()
    const result = await running
    expect(result.status).toBe('interrupted')
    expect(h.calls().map((call) => call.event)).toEqual(['PreToolUse'])
    expect(h.requests()).toHaveLength(1)
  })
})
