/**
 * codex-hooks.md §11, "Process" (items 33–44) and the timeout rules of items 11–12, end to end with real hook
 * processes: shell, stdin, cwd, env, timeouts and process-group kills, concurrency, merge order, async handlers.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { definePlugin, defineTool, type Message, textOf } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { codexHooks } from '../src/index.js'
import { codexHarnessPerTest, hookRuns, rec } from './codex-harness.js'
import { waitForAsyncRuns, waitForExit, waitForPids } from './waits.js'

const setup = codexHarnessPerTest()

const shellCall = (command: string) => ({ tool_calls: [{ name: 'shell', input: { command } }] })
const toolOutputs = (messages: readonly Message[]) =>
  messages.flatMap((message) => message.content).flatMap((block) => (block.type === 'tool_result' ? [block.output] : []))
const texts = (messages: readonly Message[]) => messages.map((message) => `${message.role}:${textOf(message)}`)
const sh = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra })
/** Shell text that writes a pid to $HOOK_OUT/<name> whole (the file appears with its line complete). */
const writePid = (pid: string, name: string) => `echo ${pid} > "$HOOK_OUT/${name}.tmp"; mv "$HOOK_OUT/${name}.tmp" "$HOOK_OUT/${name}"`

/**
 * A tool that returns once `count` detached hook runs are in the session log: they finish mid-turn. With
 * `releaseAfterFirst`, it creates that file under $HOOK_OUT once the first run is recorded, so a run waiting for it
 * completes second as the kernel sees it.
 */
const awaitAsyncRuns = (count: number, releaseAfterFirst?: { out: string; file: string }) =>
  definePlugin({
    name: 'await-async-runs',
    setup(kernel) {
      kernel.registerTool(
        defineTool({
          name: 'await_async_runs',
          description: 'Returns once the detached hook runs are in the log.',
          inputSchema: z.object({}),
          async execute(_input, { session }) {
            if (releaseAfterFirst) {
              await waitForAsyncRuns(session, 1)
              writeFileSync(join(releaseAfterFirst.out, releaseAfterFirst.file), '')
            }
            await waitForAsyncRuns(session, count)
            return { output: 'ready', isError: false }
          },
        }),
      )
    },
  })

describe('the hook process (items 33–36)', () => {
  it('33: /bin/bash -c, $0=/bin/bash, flags hBc, no arguments, not a login shell, even with SHELL=/bin/sh', async () => {
    const saved = process.env.SHELL
    process.env.SHELL = '/bin/sh'
    try {
      const h = setup({
        script: [{ text: 'ok' }],
        hooks: {
          UserPromptSubmit: [
            {
              hooks: [
                sh('printf "%s|%s|%s|%s" "$0" "$-" "$#" "$(shopt -q login_shell && echo login || echo not-login)" > "$HOOK_OUT/shell.txt"'),
              ],
            },
          ],
        },
      })
      const session = await h.kernel.startSession()
      await session.run('go')
      expect(readFileSync(join(h.out, 'shell.txt'), 'utf8')).toBe('/bin/bash|hBc|0|not-login')
    } finally {
      if (saved === undefined) delete process.env.SHELL
      else process.env.SHELL = saved
    }
  })

  it('34: stdin is the compact payload, last byte `}`, then EOF (a reader that waits for EOF finishes at once)', async () => {
    const h = setup({
      script: [{ text: 'ok' }],
      hooks: { UserPromptSubmit: [{ hooks: [sh('cat > "$HOOK_OUT/stdin.bin"; echo eof > "$HOOK_OUT/eof"', { timeout: 2 })] }] },
    })
    const session = await h.kernel.startSession()
    await session.run('ünïcode "prompt"\nline 2')
    const bytes = readFileSync(join(h.out, 'stdin.bin'))
    expect(bytes.at(-1)).toBe('}'.charCodeAt(0))
    const text = bytes.toString('utf8')
    expect(text).toBe(JSON.stringify(JSON.parse(text)))
    expect(JSON.parse(text).prompt).toBe('ünïcode "prompt"\nline 2')
    expect(existsSync(join(h.out, 'eof'))).toBe(true)
    expect(hookRuns(session.transcriptPath)[0]).toMatchObject({ status: 'completed', timedOut: false })
  })

  it('35: the process cwd equals the payload cwd, the session’s cwd', async () => {
    const h = setup({ script: [{ text: 'ok' }], hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }] } })
    const session = await h.kernel.startSession({ cwd: h.out })
    await session.run('go')
    const [call] = h.calls()
    expect(call!.meta.cwd).toBe(h.out)
    expect(JSON.parse(call!.stdin).cwd).toBe(h.out)
  })

  it('36: the environment is the harness’s, unchanged: nothing added (no CODEX_*, no event name), nothing removed', async () => {
    const h = setup({ script: [{ text: 'ok' }], hooks: { UserPromptSubmit: [{ hooks: [sh('env -0 > "$HOOK_OUT/env0"')] }] } })
    const session = await h.kernel.startSession()
    await session.run('go')
    const shellOwn = new Set(['PWD', 'OLDPWD', 'SHLVL', '_'])
    const seen = new Map(
      readFileSync(join(h.out, 'env0'), 'utf8')
        .split('\0')
        .filter((entry) => entry !== '')
        .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)] as const)
        .filter(([key]) => !shellOwn.has(key)),
    )
    const own = new Map(Object.entries(process.env).filter(([key]) => !shellOwn.has(key)))
    expect([...seen.keys()].filter((key) => !own.has(key))).toEqual([])
    expect([...own.keys()].filter((key) => !seen.has(key))).toEqual([])
    for (const [key, value] of own) expect(seen.get(key), key).toBe(value)
  })

  it('opt-in `hookEnvironment`: the shell policy filters what hooks inherit (no *_TOKEN by default), the rest as before', async () => {
    process.env.HK_HOOK_TEST_TOKEN = 'not-for-hooks'
    process.env.HK_HOOK_TEST_PLAIN = 'for-hooks'
    try {
      const hooks = { UserPromptSubmit: [{ hooks: [sh('env > "$HOOK_OUT/env-$HK_HOOK_TEST_PLAIN"')] }] }
      const filtered = setup({ script: [{ text: 'ok' }], hooks, options: { hookEnvironment: { set: { HK_HOOK_TEST_SET: 'set' } } } })
      await (await filtered.kernel.startSession()).run('go')
      const seen = readFileSync(join(filtered.out, 'env-for-hooks'), 'utf8')
      expect(seen).not.toContain('HK_HOOK_TEST_TOKEN')
      expect(seen).toContain('HK_HOOK_TEST_SET=set\n')
      expect(seen).toContain(`HOOK_OUT=${filtered.out}\n`)

      const plain = setup({ script: [{ text: 'ok' }], hooks })
      await (await plain.kernel.startSession()).run('go')
      expect(readFileSync(join(plain.out, 'env-for-hooks'), 'utf8')).toContain('HK_HOOK_TEST_TOKEN=not-for-hooks\n')
      expect(() => codexHooks({ hookEnvironment: { inherit: 'some' as 'all' } })).toThrow(
        'codexHooks: hookEnvironment.inherit must be one of all, core, none; got "some"',
      )
    } finally {
      delete process.env.HK_HOOK_TEST_TOKEN
      delete process.env.HK_HOOK_TEST_PLAIN
    }
  })
})

describe('timeouts (items 11, 12, 37)', () => {
  it('37, 11: `timeout: 0` is 1 s: the whole process group is killed, `hook timed out after 1s`, the tool runs; `timeoutSec` alone is ignored', async () => {
    const h = setup({
      script: [shellCall('echo ran'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          {
            hooks: [
              // It never finishes by itself; its background child would outlive a kill of the shell alone.
              sh(
                `sleep 1000 & ${writePid('$!', 'orphan.pid')}; ${writePid('$$', 'timed.pid')}; sleep 1000; echo '{"decision":"block","reason":"too late"}'`,
                { timeout: 0 },
              ),
              // timeoutSec is ignored (600 s): this one outlives the first, killed by its 1 s timeout, and allows.
              sh(
                'until [ -s "$HOOK_OUT/timed.pid" ] && ! kill -0 "$(cat "$HOOK_OUT/timed.pid")" 2>/dev/null; do sleep 0.02; done; touch "$HOOK_OUT/slow-finished"',
                { timeoutSec: 1 },
              ),
            ],
          },
        ],
      },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolOutputs(result.messages)).toEqual(['ran'])
    expect(existsSync(join(h.out, 'slow-finished'))).toBe(true)
    const runs = hookRuns(session.transcriptPath)
    expect(runs.map((run) => [run.status, run.timedOut, run.entries])).toEqual([
      ['failed', true, [{ kind: 'error', text: 'hook timed out after 1s' }]],
      ['completed', false, []],
    ])
    await waitForExit(await waitForPids(join(h.out, 'timed.pid'), join(h.out, 'orphan.pid')), 'the timed-out hook and its background child')
  })

  it('12: SessionEnd defaults to 1 s; `timeout: 10` is clamped to 3 s, with the warning', async () => {
    // Neither handler finishes by itself: each ends when its timeout's group kill reaches it.
    const h = setup({
      script: [{ text: 'ok' }],
      hooks: { SessionEnd: [{ hooks: [sh('sleep 1000 & wait'), sh('sleep 1000 & wait', { timeout: 10 })] }] },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    await session.end()
    const runs = hookRuns(session.transcriptPath)
    expect(runs.map((run) => [run.event, run.timedOut, run.entries])).toEqual([
      ['SessionEnd', true, [{ kind: 'error', text: 'hook timed out after 1s' }]],
      ['SessionEnd', true, [{ kind: 'error', text: 'hook timed out after 3s' }]],
    ])
    // A timer never fires early, so the lower bounds hold on any machine; the last bound tells 3 s from 10 s.
    const [byDefault, clamped] = runs.map((run) => run.durationMs!)
    expect(byDefault).toBeGreaterThanOrEqual(900)
    expect(clamped).toBeGreaterThanOrEqual(2900)
    expect(byDefault).toBeLessThan(clamped!)
    expect(clamped).toBeLessThan(10_000)
    const log = readFileSync(session.transcriptPath, 'utf8')
    expect(log).toContain(JSON.stringify(`clamping SessionEnd hook timeout to 3s in ${h.codexHome}/hooks.json`))
  })
})

describe('concurrency and merge order (items 38–42)', () => {
  it('38: three handlers in two groups start at once: every one starts before any finishes', async () => {
    // Each one finishes only once the other two have started (their pid files): run one after another, the first
    // would wait until its 10 s timeout.
    const others = (tag: string) => ['a', 'b', 'c'].filter((other) => other !== tag).map((other) => `PreToolUse-${other}.pid`)
    const h = setup({
      script: [shellCall('true'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          { hooks: [rec('PreToolUse', 'a', { timeout: 10 }), rec('PreToolUse', 'b', { timeout: 10 })] },
          { matcher: 'Bash', hooks: [rec('PreToolUse', 'c', { timeout: 10 })] },
        ],
      },
      responses: Object.fromEntries(['a', 'b', 'c'].map((tag) => [`PreToolUse-${tag}.waitfor`, others(tag).join(' ')])),
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(h.calls('PreToolUse')).toHaveLength(3)
    const runs = hookRuns(session.transcriptPath).filter((run) => run.event === 'PreToolUse')
    expect(runs.map((run) => [run.status, run.timedOut])).toEqual([
      ['completed', false],
      ['completed', false],
      ['completed', false],
    ])
    // The records are in whole seconds (Codex's format), hence "at or before".
    expect(Math.max(...runs.map((run) => run.startedAt!))).toBeLessThanOrEqual(Math.min(...runs.map((run) => run.completedAt!)))
  })

  it('39: contexts and reports follow display order whatever the finish order', async () => {
    const h = setup({
      script: [shellCall('echo out'), { text: 'done' }],
      hooks: {
        UserPromptSubmit: [
          { hooks: [rec('UserPromptSubmit', 'a'), rec('UserPromptSubmit', 'b')] },
          { hooks: [rec('UserPromptSubmit', 'c')] },
        ],
        PostToolUse: [{ hooks: [rec('PostToolUse', 'a'), rec('PostToolUse', 'b')] }],
      },
      responses: {
        // Finish order c, b, a: each waits for the one before it to exit.
        'UserPromptSubmit-a.after': 'UserPromptSubmit-b',
        'UserPromptSubmit-a.stdout': 'ctx a',
        'UserPromptSubmit-b.after': 'UserPromptSubmit-c',
        'UserPromptSubmit-b.stdout': 'ctx b',
        'UserPromptSubmit-c.stdout': 'ctx c',
        'PostToolUse-a.after': 'PostToolUse-b',
        'PostToolUse-a.stdout': JSON.stringify({ decision: 'block', reason: 'post reason A' }),
        'PostToolUse-b.stderr': 'post reason B',
        'PostToolUse-b.exit': '2',
      },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    // Finish order was c, b, a; the recorder's calls are ordered by start.
    expect(texts(h.model.requests[0]!.messages)).toEqual(['user:go', 'developer:ctx a', 'developer:ctx b', 'developer:ctx c'])
    expect(toolOutputs(result.messages)).toEqual(['post reason A\n\npost reason B'])
    const runs = hookRuns(session.transcriptPath)
    // PostToolUse comes before UserPromptSubmit in Codex's event order, so it holds display numbers 0 and 1.
    expect(runs.map((run) => `${run.event}:${run.displayOrder}`)).toEqual([
      'UserPromptSubmit:2',
      'UserPromptSubmit:3',
      'UserPromptSubmit:4',
      'PostToolUse:0',
      'PostToolUse:1',
    ])
  })

  it('40: the runs of one event are reported only once all its handlers have finished', async () => {
    const appended: { id: string; released: boolean }[] = []
    const h = setup({
      script: [{ text: 'ok' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', 'fast'), rec('UserPromptSubmit', 'slow')] }] },
      // The slow handler finishes only once the test releases it, after the fast one has exited.
      responses: { 'UserPromptSubmit-slow.waitfor': 'release' },
      plugins: [
        definePlugin({
          name: 'observe-runs',
          setup(kernel) {
            kernel.hooks.sessionEvent.tap('observe', ({ event }) => {
              if (event.type === 'hook/run') appended.push({ id: event.id, released: existsSync(join(h.out, 'release')) })
            })
          },
        }),
      ],
    })
    const session = await h.kernel.startSession()
    const running = session.run('go')
    await waitForExit(await waitForPids(join(h.out, 'UserPromptSubmit-fast.pid')), 'the fast handler')
    expect(appended).toEqual([])
    writeFileSync(join(h.out, 'release'), '')
    await running
    expect(appended.map((run) => run.released)).toEqual([true, true])
  })

  it('41: of two updatedInput rewrites, the one that finished last wins; swapping the delays swaps the winner', async () => {
    const allow = (command: string) =>
      JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command } } })
    for (const [slow, winner] of [
      ['x', 'from-x'],
      ['y', 'from-y'],
    ] as const) {
      const h = setup({
        script: [shellCall('echo original'), { text: 'done' }],
        hooks: { PreToolUse: [{ hooks: [rec('PreToolUse', 'x'), rec('PreToolUse', 'y')] }] },
        responses: {
          [`PreToolUse-${slow}.after`]: `PreToolUse-${slow === 'x' ? 'y' : 'x'}`,
          'PreToolUse-x.stdout': allow('echo from-x'),
          'PreToolUse-y.stdout': allow('echo from-y'),
        },
      })
      const session = await h.kernel.startSession()
      const result = await session.run('go')
      expect(toolOutputs(result.messages)).toEqual([winner])
    }
  })
})

describe('async handlers (items 43–44)', () => {
  it('43: an async handler runs detached with the same stdin; its deny and its exit 2 are ignored; it is logged as async', async () => {
    const h = setup({
      script: [shellCall('echo ran'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          {
            hooks: [rec('PreToolUse', 'deny', { async: true }), rec('PreToolUse', 'exit2', { async: true }), rec('PreToolUse', 'sync')],
          },
        ],
      },
      responses: {
        'PreToolUse-deny.stdout': JSON.stringify({
          hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'async deny' },
        }),
        'PreToolUse-exit2.stderr': 'async exit 2',
        'PreToolUse-exit2.exit': '2',
      },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolOutputs(result.messages)).toEqual(['ran'])
    await waitForAsyncRuns(session, 2)
    const calls = h.calls('PreToolUse')
    expect(calls.map((call) => call.tag).sort()).toEqual(['deny', 'exit2', 'sync'])
    expect(new Set(calls.map((call) => call.stdin)).size).toBe(1)
    const runs = hookRuns(session.transcriptPath)
    expect(runs.filter((run) => run.executionMode === 'sync').map((run) => run.status)).toEqual(['completed'])
    expect(
      runs
        .filter((run) => run.executionMode === 'async')
        .map((run) => run.status)
        .sort(),
    ).toEqual(['blocked', 'blocked'])
    expect(JSON.stringify(h.model.requests)).not.toContain('async deny')
  })

  it('43 (§4.4): detached async runs are cancelled when the session ends', async () => {
    const h = setup({
      script: [{ text: 'ok' }],
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              sh(`${writePid('$$', 'bg.pid')}; sleep 1000 & ${writePid('$!', 'bg-child.pid')}; wait; touch "$HOOK_OUT/bg-finished"`, {
                async: true,
              }),
            ],
          },
        ],
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const pids = await waitForPids(join(h.out, 'bg.pid'), join(h.out, 'bg-child.pid'))
    await session.end()
    await waitForExit(pids, 'the cancelled async hook and its child')
    expect(existsSync(join(h.out, 'bg-finished'))).toBe(false)
  })

  it('44: async contexts become separate developer messages just before the next prompt, in completion order; never mid-turn, never waking the session', async () => {
    const context = (text: string) => JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: text } })
    // Completion order by events, not by sleeps: `first` finishes only after the kernel has recorded `second`'s run (a
    // file `second` wrote itself could let the kernel see `first` exit before `second` on a loaded machine).
    const release = { out: '', file: 'second-recorded' }
    const h = setup({
      script: [{ tool_calls: [{ name: 'await_async_runs', input: {} }] }, { text: 'one' }, { text: 'two' }],
      plugins: [awaitAsyncRuns(2, release)],
      hooks: {
        UserPromptSubmit: [
          { hooks: [rec('UserPromptSubmit', 'first', { async: true }), rec('UserPromptSubmit', 'second', { async: true })] },
        ],
      },
      responses: {
        'UserPromptSubmit-first.1.waitfor': 'second-recorded',
        'UserPromptSubmit-first.1.stdout': context('finished second'),
        'UserPromptSubmit-second.1.stdout': context('finished first'),
      },
    })
    release.out = h.out
    const session = await h.kernel.startSession()
    await session.run('first prompt')
    // Both were ready during the tool call: the turn's second request does not carry them.
    expect(JSON.stringify(h.model.requests[1])).not.toContain('finished')
    expect(h.model.calls).toBe(2)
    await session.run('second prompt')
    // One model call for the second prompt and none between the turns: finishing woke nothing.
    expect(h.model.calls).toBe(3)
    expect(texts(h.model.requests[2]!.messages).slice(-3)).toEqual([
      'developer:finished first',
      'developer:finished second',
      'user:second prompt',
    ])
  })
})
