/**
 * codex-hooks.md §11, "Matchers" (items 23–32), end to end: the matcher semantics themselves are pinned by
 * dialects/protocol/test/compile-matcher.test.ts; here every pattern selects (or not) a real hook process for a real
 * kernel tool call, and invalid ones surface as notices while the other groups still run.
 */
import { readFileSync } from 'node:fs'
import type { SessionEvent } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { codexHarnessPerTest, hookRuns, interrupter, rec } from './codex-harness.js'

const setup = codexHarnessPerTest()

const shellCall = (command: string) => ({ tool_calls: [{ name: 'shell', input: { command } }] })
const warnings = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
    .flatMap((event) => (event.type === 'notice' && event.source === 'codex-hooks' ? [event.text] : []))
    .filter((text) => !text.startsWith('Codex hook trust is bypassed'))

describe('matchers select real hook processes (items 23–28)', () => {
  const matching = ['', '*', 'Bash', 'Edit|Bash', 'Bash|Ba', '^Bash$', '^Ba', 'B.*', '.*sh', 'Bas?h', 'a.h', 'B.s', 'Bash$', '(Bash)']
  const rustOnly = ['(?i)bash', '(?P<n>Bash)', '\\ABash\\z']
  const notMatching = ['Ba', 'bash', 'exec_command', 'shell', 'Bash ', 'Edit,Bash', '\\ABa\\z']
  const invalid = ['[', '(?=Bash)', '(a)\\1']

  it('23–28: absent, "", "*", exact lists and Rust regexes pick the shell (as Bash); the others do not; invalid groups are skipped with notices', async () => {
    const patterns = [...matching, ...rustOnly, ...notMatching, ...invalid]
    const h = setup({
      script: [shellCall('echo ran'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          { hooks: [rec('PreToolUse', 'absent')] },
          ...patterns.map((matcher, index) => ({ matcher, hooks: [rec('PreToolUse', `m${index}`)] })),
        ],
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const ran = new Set(h.calls('PreToolUse').map((call) => call.tag))
    const expected = ['absent', ...[...matching, ...rustOnly].map((_, index) => `m${index}`)]
    expect([...ran].sort()).toEqual(expected.sort())
    expect(h.calls('PreToolUse').map((call) => JSON.parse(call.stdin).tool_name)).toEqual(expected.map(() => 'Bash'))
    const path = `${h.codexHome}/hooks.json`
    expect(warnings(session.transcriptPath)).toEqual([
      `invalid matcher "[" in ${path}: regex parse error:\n    [\n    ^\nerror: unclosed character class`,
      `invalid matcher "(?=Bash)" in ${path}: regex parse error:\n    (?=Bash)\n    ^^^\nerror: look-around, including look-ahead and look-behind, is not supported`,
      `invalid matcher "(a)\\\\1" in ${path}: regex parse error:\n    (a)\\1\n       ^^\nerror: backreferences are not supported`,
    ])
    // Display numbers: the skipped invalid groups take none, so the runs are numbered 0…n-1 without gaps.
    expect(hookRuns(session.transcriptPath).map((run) => run.displayOrder)).toEqual(expected.map((_, index) => index))
  })
})

describe('matcher subjects per event (items 29–32)', () => {
  it('29: UserPromptSubmit, Stop and Interrupt ignore their matchers, even invalid ones, without a warning', async () => {
    const h = setup({
      script: [{ text: 'done' }, { tool_calls: [{ name: 'interrupt_me', input: {} }] }],
      hooks: {
        UserPromptSubmit: [{ matcher: '[', hooks: [rec('UserPromptSubmit')] }],
        Stop: [{ matcher: 'nomatch', hooks: [rec('Stop')] }],
        Interrupt: [{ matcher: '(?=x)', hooks: [rec('Interrupt')] }],
      },
      plugins: [interrupter],
    })
    const session = await h.kernel.startSession()
    expect((await session.run('first')).status).toBe('completed')
    expect((await session.run('second')).status).toBe('interrupted')
    expect(h.calls().map((call) => call.event)).toEqual(['UserPromptSubmit', 'Stop', 'UserPromptSubmit', 'Interrupt'])
    expect(warnings(session.transcriptPath)).toEqual([])
  })

  it('30: SessionStart matches its source: `startup` on a new session, `resume` on a resumed one', async () => {
    const h = setup({
      script: [{ text: 'one' }, { text: 'two' }],
      hooks: {
        SessionStart: [
          { matcher: 'startup', hooks: [rec('SessionStart', 'startup')] },
          { matcher: 'resume', hooks: [rec('SessionStart', 'resume')] },
          { matcher: 'startup|resume', hooks: [rec('SessionStart', 'both')] },
        ],
      },
    })
    const session = await h.kernel.startSession()
    await session.run('first')
    expect(
      h
        .calls()
        .map((call) => call.tag)
        .sort(),
    ).toEqual(['both', 'startup'])
    await session.end()
    const resumed = await h.kernel.resumeSession(session.id)
    expect(h.calls()).toHaveLength(2)
    await resumed.run('again')
    const later = h.calls().slice(2)
    expect(later.map((call) => call.tag).sort()).toEqual(['both', 'resume'])
    expect(later.map((call) => JSON.parse(call.stdin))).toEqual([
      expect.objectContaining({ session_id: session.id, source: 'resume' }),
      expect.objectContaining({ session_id: session.id, source: 'resume' }),
    ])
  })

  it('31: two identical commands both run, in one group and across groups, each with its own display number', async () => {
    const same = rec('UserPromptSubmit', 'same')
    const h = setup({
      script: [{ text: 'ok' }],
      hooks: { UserPromptSubmit: [{ hooks: [same, same] }, { hooks: [same] }] },
      responses: { 'UserPromptSubmit-same.stdout': 'same context' },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(h.calls('UserPromptSubmit')).toHaveLength(3)
    expect(hookRuns(session.transcriptPath).map((run) => run.displayOrder)).toEqual([0, 1, 2])
    const contexts = h.model.requests[0]!.messages.filter((message) => message.role === 'developer')
    expect(contexts).toHaveLength(3)
  })

  it('32: the kernel shell is matched and reported as Bash, on PreToolUse and PostToolUse; write_file also answers to Write', async () => {
    const h = setup({
      script: [
        { tool_calls: [{ name: 'shell', input: { command: 'echo hi' } }] },
        { tool_calls: [{ name: 'write_file', input: { path: 'f.txt', content: 'x' } }] },
        { text: 'done' },
      ],
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [rec('PreToolUse', 'bash')] },
          { matcher: 'shell', hooks: [rec('PreToolUse', 'shell')] },
          { matcher: 'Write', hooks: [rec('PreToolUse', 'write')] },
        ],
        PostToolUse: [{ matcher: '^Bash$', hooks: [rec('PostToolUse', 'bash')] }],
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(h.calls().map((call) => `${call.event}-${call.tag}`)).toEqual(['PreToolUse-bash', 'PostToolUse-bash', 'PreToolUse-write'])
    const [pre, post, write] = h.calls().map((call) => JSON.parse(call.stdin))
    expect([pre.tool_name, post.tool_name, write.tool_name]).toEqual(['Bash', 'Bash', 'write_file'])
    expect(pre.tool_input).toEqual({ command: 'echo hi' })
  })
})
