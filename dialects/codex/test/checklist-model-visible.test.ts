/**
 * codex-hooks.md §11, "Model-visible" (items 75–89), end to end: what real hook processes make the model see, read
 * from the scripted model's requests. The spill format itself is pinned byte for byte by io-spill.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Message, textOf } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { codexHarnessPerTest, hookRuns, rec } from './codex-harness.js'

const setup = codexHarnessPerTest()

const shellCall = (command: string) => ({ tool_calls: [{ name: 'shell', input: { command } }] })
const texts = (messages: readonly Message[]) => messages.map((message) => `${message.role}:${textOf(message)}`)
const context = (event: string, text: string) => JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.txt$/

describe('contexts (items 76, 79)', () => {
  it('76: PreToolUse and PostToolUse contexts sit between the function_call and its output, in display order', async () => {
    const h = setup({
      script: [shellCall('echo out'), { text: 'done' }],
      hooks: {
        PreToolUse: [{ hooks: [rec('PreToolUse', 'a'), rec('PreToolUse', 'b')] }],
        PostToolUse: [{ hooks: [rec('PostToolUse', 'c')] }],
      },
      responses: {
        // a finishes after b: contexts still follow display order.
        'PreToolUse-a.after': 'PreToolUse-b',
        'PreToolUse-a.stdout': context('PreToolUse', 'pre a'),
        'PreToolUse-b.stdout': context('PreToolUse', 'pre b'),
        'PostToolUse-c.stdout': context('PostToolUse', 'post c'),
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(texts(h.model.requests[1]!.messages)).toEqual([
      'user:go',
      'assistant:',
      'developer:pre a',
      'developer:pre b',
      'developer:post c',
      'tool:',
    ])
    expect(h.model.requests[1]!.messages.at(-1)!.content[0]).toMatchObject({ type: 'tool_result', output: 'out' })
  })

  it('79: UserPromptSubmit contexts follow the prompt, one developer message per handler, on every turn', async () => {
    const h = setup({
      script: [{ text: 'one' }, { text: 'two' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', 'a')] }, { hooks: [rec('UserPromptSubmit', 'b')] }] },
      responses: { 'UserPromptSubmit-a.stdout': 'ctx a', 'UserPromptSubmit-b.stdout': context('UserPromptSubmit', 'ctx b') },
    })
    const session = await h.kernel.startSession()
    await session.run('first')
    await session.run('second')
    expect(texts(h.model.requests[1]!.messages)).toEqual([
      'user:first',
      'developer:ctx a',
      'developer:ctx b',
      'assistant:one',
      'user:second',
      'developer:ctx a',
      'developer:ctx b',
    ])
  })
})

describe('spill (items 87, 88)', () => {
  it('87: a 60,007-byte context reaches the model as Codex’s exact preview; the full text is under $TMPDIR/hook_outputs/<thread>/', async () => {
    const line = `${'x'.repeat(99)}\n`
    const full = line.repeat(600) + 'y'.repeat(7)
    expect(Buffer.byteLength(full)).toBe(60_007)
    const h = setup({
      script: [{ text: 'ok' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }] },
      responses: { 'UserPromptSubmit-h.stdout': context('UserPromptSubmit', full) },
      // No tmpDir option: the spill goes to $TMPDIR, as in Codex.
      options: { tmpDir: undefined },
    })
    const tmp = join(h.dir, 'tmpdir-env')
    // A thread id that makes the spill path 141 bytes, the length behind Codex's observed 4,914 + 4,914 preview.
    const threadId = 't'.repeat(141 - (`${tmp}/hook_outputs/`.length + 1 + 36 + '.txt'.length))
    const saved = process.env.TMPDIR
    process.env.TMPDIR = tmp
    try {
      const session = await h.kernel.startSession({ id: threadId })
      await session.run('go')
      const [prompt, preview] = h.model.requests[0]!.messages
      expect(textOf(prompt!)).toBe('go')
      const dir = join(tmp, 'hook_outputs', threadId)
      const [file] = readdirSync(dir)
      expect(file).toMatch(UUID_V4)
      const path = join(dir, file!)
      expect(path.length).toBe(141)
      expect(readFileSync(path, 'utf8')).toBe(full)
      expect(preview).toMatchObject({ role: 'developer' })
      expect(textOf(preview!)).toBe(
        'Warning: truncated output (original token count: 15002)\nTotal output lines: 601\n\n' +
          `${full.slice(0, 4914)}…12545 tokens truncated…${full.slice(-4914)}\n\nFull hook output saved to: ${path}`,
      )
      expect(hookRuns(session.transcriptPath)[0]!.entries).toEqual([{ kind: 'context', text: full }])
    } finally {
      if (saved === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = saved
    }
  })

  it('88: additionalContextLimit 0 never spills; 100 spills early; the run entries keep the full texts', async () => {
    const big = 'b'.repeat(60_007)
    const small = 's'.repeat(500)
    const h = setup({
      script: [{ text: 'ok' }],
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              rec('UserPromptSubmit', 'never', { additionalContextLimit: 0 }),
              rec('UserPromptSubmit', 'early', { additionalContextLimit: 100 }),
            ],
          },
        ],
      },
      responses: {
        'UserPromptSubmit-never.stdout': context('UserPromptSubmit', big),
        'UserPromptSubmit-early.stdout': context('UserPromptSubmit', small),
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const [, never, early] = h.model.requests[0]!.messages.map((message) => textOf(message))
    expect(never).toBe(big)
    expect(early).toMatch(
      /^Warning: truncated output \(original token count: 125\)\nTotal output lines: 1\n\ns+…\d+ tokens truncated…s+\n\nFull hook output saved to: /,
    )
    const path = early!.slice(early!.lastIndexOf(': ') + 2)
    expect(path.startsWith(join(h.dir, 'tmp', 'hook_outputs', session.id))).toBe(true)
    expect(readFileSync(path, 'utf8')).toBe(small)
    expect(hookRuns(session.transcriptPath).map((run) => run.entries)).toEqual([
      [{ kind: 'context', text: big }],
      [{ kind: 'context', text: small }],
    ])
  })
})

describe('what never reaches the model (item 89)', () => {
  it('89: systemMessage, statusMessage, stopReason and failure texts never reach a request', async () => {
    const h = setup({
      script: [shellCall('echo out'), { text: 'done' }],
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              rec('UserPromptSubmit', 'sys', { statusMessage: 'STATUS-MARK-1' }),
              rec('UserPromptSubmit', 'exit1', { statusMessage: 'STATUS-MARK-2' }),
            ],
          },
        ],
        PreToolUse: [{ hooks: [rec('PreToolUse', 'invalid', { statusMessage: 'STATUS-MARK-3' }), rec('PreToolUse', 'empty2')] }],
        PostToolUse: [{ hooks: [rec('PostToolUse', 'timeout', { timeout: 1 })] }],
        Stop: [{ hooks: [rec('Stop', 'stop')] }],
      },
      responses: {
        'UserPromptSubmit-sys.stdout': JSON.stringify({ systemMessage: 'SYSTEM-MARK' }),
        'UserPromptSubmit-exit1.stderr': 'STDERR-MARK',
        'UserPromptSubmit-exit1.exit': '1',
        'PreToolUse-invalid.stdout': JSON.stringify({ bogus: 'INVALID-MARK' }),
        'PreToolUse-empty2.exit': '2',
        'PostToolUse-timeout.sleep': '1000',
        'Stop-stop.stdout': JSON.stringify({ continue: false, stopReason: 'STOPREASON-MARK', systemMessage: 'SYSTEM-MARK-2' }),
      },
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    const runs = hookRuns(session.transcriptPath)
    expect(runs.map((run) => run.status)).toEqual(['completed', 'failed', 'failed', 'failed', 'failed', 'stopped'])
    const requests = JSON.stringify(h.model.requests)
    for (const mark of [
      'STATUS-MARK',
      'SYSTEM-MARK',
      'STDERR-MARK',
      'INVALID-MARK',
      'STOPREASON-MARK',
      'hook exited with code',
      'hook returned invalid',
      'did not write a blocking reason',
      'hook timed out',
    ]) {
      expect(requests, mark).not.toContain(mark)
    }
    expect(textOf(h.model.requests[1]!.messages.at(-1)!)).toBe('')
    expect(h.model.requests[1]!.messages.at(-1)!.content[0]).toMatchObject({ output: 'out' })
  })
})
