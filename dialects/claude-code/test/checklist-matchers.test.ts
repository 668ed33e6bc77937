/**
 * claude-code-hooks.md §9, "Matchers" (items 8–14), end to end: each matcher selects (or not) a real hook process for
 * a real kernel tool call, under the Claude tool names; the pattern semantics themselves are pinned by
 * dialects/protocol/test/compile-matcher.test.ts.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { definePlugin, defineTool, type SessionEvent } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { bash, claudeHarnessPerTest, type RecordedCall, rec } from './claude-harness.js'

const harness = claudeHarnessPerTest()

/** `<tag>:<tool_name>` per recorded call, sorted (handlers of one invocation start together, in no fixed order). */
const ran = (calls: RecordedCall[]) => calls.map((call) => `${call.tag}:${call.payload.tool_name}`).sort()
const tagsOf = (calls: RecordedCall[]) => calls.map((call) => call.tag).sort()
const call = (id: string, name: string, input: unknown) => ({ id, name, input })

/** Tools the built-in set lacks, named as Claude Code (or an MCP server) names them; each answers `<name> ok`. */
function fakeTools(...names: string[]) {
  return definePlugin({
    name: 'fake-tools',
    setup(kernel) {
      for (const name of names) {
        kernel.registerTool(
          defineTool({
            name,
            description: `fake ${name}`,
            inputSchema: z.looseObject({}),
            execute: async () => ({ output: `${name} ok`, isError: false }),
          }),
        )
      }
    },
  })
}

function pluginNotices(path: string): string[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
    .flatMap((event) => (event.type === 'notice' && event.source === 'claude-code-hooks' ? [event.text] : []))
}

function regexError(pattern: string): string {
  try {
    new RegExp(pattern)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error(`${pattern} is a valid RegExp`)
}

/** write_file (Write), edit_file (Edit) and a NotebookEdit tool, in one assistant message. */
const fileCalls = {
  tool_calls: [
    call('toolu_w', 'write_file', { path: 'f.txt', content: 'a' }),
    call('toolu_e', 'edit_file', { path: 'f.txt', old_string: 'a', new_string: 'b' }),
    call('toolu_n', 'NotebookEdit', { notebook_path: 'n.ipynb', new_source: 'x' }),
  ],
}

describe('checklist: matchers (claude-code-hooks.md §9, 8–14)', () => {
  it('8. `*`, `""` and an absent matcher all match; `bash` does not match `Bash`', async () => {
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          { matcher: '*', hooks: [rec('PreToolUse', 'star')] },
          { matcher: '', hooks: [rec('PreToolUse', 'empty')] },
          { hooks: [rec('PreToolUse', 'absent')] },
          { matcher: 'bash', hooks: [rec('PreToolUse', 'lower')] },
          { matcher: 'Bash', hooks: [rec('PreToolUse', 'exact')] },
        ],
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(ran(h.calls('PreToolUse'))).toEqual(['absent:Bash', 'empty:Bash', 'exact:Bash', 'star:Bash'])
  })

  it('9. `Edit|Write`, `Edit,Write` and `Edit, Write` match Edit and Write, not NotebookEdit', async () => {
    const h = harness({
      script: [fileCalls, { text: 'done' }],
      hooks: {
        PreToolUse: [
          { matcher: 'Edit|Write', hooks: [rec('PreToolUse', 'pipe')] },
          { matcher: 'Edit,Write', hooks: [rec('PreToolUse', 'comma')] },
          { matcher: 'Edit, Write', hooks: [rec('PreToolUse', 'spaced')] },
          { matcher: 'NotebookEdit', hooks: [rec('PreToolUse', 'notebook')] },
        ],
      },
      plugins: [fakeTools('NotebookEdit')],
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(ran(h.calls('PreToolUse'))).toEqual([
      'comma:Edit',
      'comma:Write',
      'notebook:NotebookEdit',
      'pipe:Edit',
      'pipe:Write',
      'spaced:Edit',
      'spaced:Write',
    ])
  })

  it('10. `Edit.*` (a regex, unanchored) matches Edit and NotebookEdit; `^Edit$` matches Edit only', async () => {
    const h = harness({
      script: [fileCalls, { text: 'done' }],
      hooks: {
        PreToolUse: [
          { matcher: 'Edit.*', hooks: [rec('PreToolUse', 'prefix')] },
          { matcher: '^Edit$', hooks: [rec('PreToolUse', 'anchored')] },
        ],
      },
      plugins: [fakeTools('NotebookEdit')],
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(ran(h.calls('PreToolUse'))).toEqual(['anchored:Edit', 'prefix:Edit', 'prefix:NotebookEdit'])
  })

  it('11. `mcp__memory__.*` matches every tool of the memory server; `mcp__memory` (an exact name) matches nothing', async () => {
    const h = harness({
      script: [
        {
          tool_calls: [
            call('toolu_1', 'mcp__memory__create_entities', { entities: [] }),
            call('toolu_2', 'mcp__memory__read_graph', {}),
            call('toolu_3', 'mcp__other__read_graph', {}),
          ],
        },
        { text: 'done' },
      ],
      hooks: {
        PreToolUse: [
          { matcher: 'mcp__memory__.*', hooks: [rec('PreToolUse', 'server')] },
          { matcher: 'mcp__memory', hooks: [rec('PreToolUse', 'bare')] },
          { hooks: [rec('PreToolUse', 'all')] },
        ],
      },
      plugins: [fakeTools('mcp__memory__create_entities', 'mcp__memory__read_graph', 'mcp__other__read_graph')],
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(ran(h.calls('PreToolUse'))).toEqual([
      'all:mcp__memory__create_entities',
      'all:mcp__memory__read_graph',
      'all:mcp__other__read_graph',
      'server:mcp__memory__create_entities',
      'server:mcp__memory__read_graph',
    ])
  })

  it('12. a matcher on UserPromptSubmit, Stop or PostToolBatch is ignored (the hooks run)', async () => {
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: {
        UserPromptSubmit: [{ matcher: 'Bash', hooks: [rec('UserPromptSubmit', 'ups')] }],
        PostToolBatch: [{ matcher: 'Edit', hooks: [rec('PostToolBatch', 'batch')] }],
        Stop: [{ matcher: 'no-such-subject', hooks: [rec('Stop', 'stop')] }],
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(h.calls().map((recorded) => `${recorded.event}-${recorded.tag}`)).toEqual([
      'UserPromptSubmit-ups',
      'PostToolBatch-batch',
      'Stop-stop',
    ])
  })

  it('12. SessionStart matches its source: `startup` at startup, `resume` on resume, `compact` never (divergence: the kernel’s loop never compacts, so `compact` does not run at startup or resume)', async () => {
    const h = harness({
      script: [{ text: 'one' }, { text: 'two' }],
      hooks: {
        SessionStart: [
          { matcher: 'startup', hooks: [rec('SessionStart', 'startup')] },
          { matcher: 'compact', hooks: [rec('SessionStart', 'compact')] },
          { matcher: 'resume', hooks: [rec('SessionStart', 'resume')] },
          { matcher: 'startup|resume', hooks: [rec('SessionStart', 'either')] },
        ],
      },
    })
    const session = await h.kernel.startSession()
    await session.run('first')
    expect(tagsOf(h.calls('SessionStart'))).toEqual(['either', 'startup'])
    expect(h.calls('SessionStart').map((recorded) => recorded.payload.source)).toEqual(['startup', 'startup'])
    await session.end()
    const resumed = await h.kernel.resumeSession(session.id)
    await resumed.run('again')
    const later = h.calls('SessionStart').slice(2)
    expect(tagsOf(later)).toEqual(['either', 'resume'])
    expect(later.map((recorded) => [recorded.payload.session_id, recorded.payload.source])).toEqual([
      [session.id, 'resume'],
      [session.id, 'resume'],
    ])
  })

  it('13. the kernel’s `shell` matches `Bash` (not `shell`) and appears as `tool_name:"Bash"` on PreToolUse, PostToolUse and PostToolBatch', async () => {
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [rec('PreToolUse', 'bash')] },
          { matcher: 'shell', hooks: [rec('PreToolUse', 'shell')] },
        ],
        PostToolUse: [{ matcher: '^Bash$', hooks: [rec('PostToolUse', 'bash')] }],
        PostToolBatch: [{ hooks: [rec('PostToolBatch', 'batch')] }],
      },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(h.calls().map((recorded) => `${recorded.event}-${recorded.tag}`)).toEqual([
      'PreToolUse-bash',
      'PostToolUse-bash',
      'PostToolBatch-batch',
    ])
    const [pre, post, batch] = h.calls().map((recorded) => recorded.payload)
    expect([pre!.tool_name, post!.tool_name]).toEqual(['Bash', 'Bash'])
    expect((batch!.tool_calls as { tool_name: string }[]).map((item) => item.tool_name)).toEqual(['Bash'])
  })

  it('14. an invalid regex matches nothing and warns once per handler, however often its event fires; the other groups still run', async () => {
    const h = harness({
      script: [bash('echo one', 'toolu_1'), bash('echo two', 'toolu_2'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          { matcher: '[', hooks: [rec('PreToolUse', 'bracket')] },
          { matcher: '(Bash', hooks: [rec('PreToolUse', 'paren')] },
          { matcher: 'Bash', hooks: [rec('PreToolUse', 'valid')] },
        ],
      },
    })
    const session = await h.kernel.startSession()
    expect((await session.run('go')).status).toBe('completed')
    expect(ran(h.calls('PreToolUse'))).toEqual(['valid:Bash', 'valid:Bash'])
    const path = join(h.project, '.claude', 'settings.json')
    expect(pluginNotices(session.transcriptPath)).toEqual([
      `hook ${path}:PreToolUse:0:0: invalid matcher "[" matches nothing: ${regexError('[')}`,
      `hook ${path}:PreToolUse:1:0: invalid matcher "(Bash" matches nothing: ${regexError('(Bash')}`,
    ])
  })
})
