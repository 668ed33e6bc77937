// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${path}` here is hook configuration text, never a template.
/**
 * `mcp_tool` handlers, run through a real `mcp()` plugin and a real stdio MCP server (fixtures/mcp/hook-server.mjs,
 * which appends each call's arguments to $HOOK_CALLS_FILE), in a real kernel session. No MCP mocks.
 *
 * What the real Claude Code 2.1.332 does (`claude -p` against the fake Messages API, `--mcp-config` naming the same
 * fixture server; runs A1–A2, B1–B2, C1–C2, D1–D2, each setting run twice with the same results):
 * - The tool gets the handler's `input`, not the payload: each `${path}` in a string value (at any depth) is replaced by
 *   that payload path (objects as compact JSON, missing as ''; `${tool_input.command.length}` is ''); `${1x}`,
 *   `${ tool_name }` and `$tool_name` stay literal; numbers, booleans and null pass through; no `input` sends `{}`.
 * - Text blocks joined by '\n' (an image as `[image]`) are read like a command's stdout: a PreToolUse deny JSON gave
 *   `PreToolUse:Bash hook error: <reason>`, a PostToolUse additionalContext `PostToolUse:Bash hook additional context:
 *   …`, a PostToolUse `decision:block` `PostToolUse:Bash hook blocking error from command: "hooksrv/reply": <reason>`.
 *   Plain text reached nobody, not even on UserPromptSubmit (a command's plain stdout there did).
 * - `isError` (and an unknown tool) is a non-blocking error, exit code 1, its text the error; an unknown server is
 *   `MCP server 'nosuchserver' not connected` (exit code 1, non-blocking); on SessionStart (startup) every mcp_tool
 *   handler fails: `mcp_tool hooks are not available for the 'SessionStart' hook event (no MCP client context)`.
 * - A `timeout` (seconds) ends the call with no decision; identical server/tool/input handlers ran once.
 * - `onFailure: "block"` on an unknown server gave the tool result `PreToolUse:Bash hook error: [nosuchserver/record]:
 *   failed; blocking because onFailure is "block" … work around it.\nMCP server 'nosuchserver' not connected`.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { definePlugin, type Message, type NoticePayload } from '@harness-kernel/kernel'
import { mcp } from '@harness-kernel/mcp'
import { describe, expect, it } from 'vitest'
import { bash, claudeHarnessPerTest, hookRuns, type RecordedCall, rec } from './claude-harness.js'

const SERVER = fileURLToPath(new URL('./fixtures/mcp/hook-server.mjs', import.meta.url))
const harness = claudeHarnessPerTest()
const json = (value: unknown) => JSON.stringify(value)

/** The fixture server as `hooksrv`, recording its calls to a new file. */
function hookServer() {
  const calls = join(mkdtempSync(join(tmpdir(), 'hk-mcp-hook-')), 'calls.jsonl')
  const plugin = mcp({ servers: { hooksrv: { command: process.execPath, args: [SERVER], env: { HOOK_CALLS_FILE: calls } } } })
  const received = (): { tool: string; arguments: Record<string, unknown> }[] => {
    if (!existsSync(calls)) return []
    return readFileSync(calls, 'utf8')
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line))
  }
  return { plugin, received }
}

function noticeRecorder() {
  const seen: NoticePayload[] = []
  const plugin = definePlugin({
    name: 'notice-recorder',
    setup(kernel) {
      kernel.hooks.notice.tap('notice-recorder', (payload) => {
        seen.push(payload)
      })
    },
  })
  return { plugin, texts: () => seen.map((notice) => notice.text) }
}

function toolResult(messages: readonly Message[], callId = 'toolu_1') {
  for (const message of messages)
    for (const block of message.content) if (block.type === 'tool_result' && block.callId === callId) return block
  return undefined
}

const mcpTool = (tool: string, input?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'mcp_tool',
  server: 'hooksrv',
  tool,
  ...(input === undefined ? {} : { input }),
  ...extra,
})

/** Input that sends every field of a payload, each as `${field}`: what a command handler gets on stdin, field by field. */
const everyField = (fields: readonly string[]) => Object.fromEntries(fields.map((field) => [field, `\${${field}}`]))

/** A command payload's fields as `${path}` interpolation renders them (objects as compact JSON). */
const asInterpolated = (payload: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(payload).map(([key, value]) => [key, typeof value === 'object' ? json(value) : String(value)]))

const PRE_FIELDS = [
  'session_id',
  'transcript_path',
  'cwd',
  'prompt_id',
  'permission_mode',
  'hook_event_name',
  'tool_name',
  'tool_input',
  'tool_use_id',
]
const POST_FIELDS = [...PRE_FIELDS, 'tool_response', 'duration_ms']

describe('mcp_tool handlers (Claude Code 2.1.332)', () => {
  it('PreToolUse: the tool gets the payload fields its input names, as a command gets them on stdin, and its deny JSON denies the call', async () => {
    const server = hookServer()
    const deny = json({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'DENIED-BY-MCP ${tool_input.command}',
      },
    })
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [rec('PreToolUse', 'cmd'), mcpTool('record', everyField(PRE_FIELDS)), mcpTool('reply', { text: deny })],
          },
        ],
      },
      plugins: [server.plugin],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(false)
    expect(toolResult(result.messages)).toMatchObject({ output: 'PreToolUse:Bash hook error: DENIED-BY-MCP touch ran.txt', isError: true })

    const [command] = h.calls('PreToolUse') as [RecordedCall]
    expect(Object.keys(command.payload).sort()).toEqual([...PRE_FIELDS].sort())
    const record = server.received().find((call) => call.tool === 'record')
    expect(record?.arguments).toEqual(asInterpolated(command.payload))
    expect(JSON.parse(record?.arguments.tool_input as string)).toEqual(command.payload.tool_input)

    const runs = hookRuns(session.transcriptPath).filter((run) => run.handlerType === 'mcp_tool')
    expect(runs.map((run) => [run.command, run.status, run.outcome, run.exitCode, run.decision])).toEqual([
      ['hooksrv/record', 'completed', 'success', 0, undefined],
      ['hooksrv/reply', 'completed', 'success', 0, 'deny'],
    ])
  })

  it('an allow lets the call run; PostToolUse gets tool_response like a command and its additionalContext reaches the model', async () => {
    const server = hookServer()
    const allow = json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } })
    const context = json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'CTX-FROM-MCP' } })
    const h = harness({
      script: [bash('echo hi > ran.txt; echo hi'), { text: 'done' }],
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [mcpTool('reply', { text: allow })] }],
        PostToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              rec('PostToolUse', 'cmd'),
              mcpTool('record', everyField(POST_FIELDS)),
              mcpTool('reply', { text: context, out: '${tool_response.stdout}' }),
            ],
          },
        ],
      },
      plugins: [server.plugin],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(true)
    const [command] = h.calls('PostToolUse') as [RecordedCall]
    const calls = server.received()
    const record = calls.find((call) => call.tool === 'record')
    expect(Object.keys(command.payload).sort()).toEqual([...POST_FIELDS].sort())
    // duration_ms is the call's own for each handler run; every other field is the same.
    const { duration_ms: _mcpDuration, ...received } = record?.arguments ?? {}
    const { duration_ms: _cmdDuration, ...expected } = asInterpolated(command.payload)
    expect(received).toEqual(expected)
    expect(calls.at(-1)?.arguments.out).toBe((command.payload.tool_response as { stdout: string }).stdout)
    expect(JSON.stringify(h.requests().at(-1)?.messages)).toContain('PostToolUse:Bash hook additional context: CTX-FROM-MCP')
    expect(result.status).toBe('completed')
  })

  it('fills ${path} placeholders as Claude Code does: at any depth, objects as JSON, missing as empty, the rest literal', async () => {
    const server = hookServer()
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              mcpTool('record', {
                all: '${tool_input}',
                cmd: '${tool_input.command}',
                missing: '${nope.x}',
                num: 5,
                bool: true,
                nul: null,
                nested: { s: '${hook_event_name}', deep: ['${tool_use_id}', 1] },
                mixed: 'a-${tool_name}-b',
                bad: '${1x}',
                sp: '${ tool_name }',
                dollar: '$tool_name',
                len: '${tool_input.command.length}',
              }),
              mcpTool('record'),
            ],
          },
        ],
      },
      plugins: [server.plugin],
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const calls = server.received()
    expect(calls.map((call) => call.arguments)).toEqual([
      {
        all: json({ command: 'echo hi', description: 'run echo hi' }),
        cmd: 'echo hi',
        missing: '',
        num: 5,
        bool: true,
        nul: null,
        nested: { s: 'PreToolUse', deep: ['toolu_1', 1] },
        mixed: 'a-Bash-b',
        bad: '${1x}',
        sp: '${ tool_name }',
        dollar: '$tool_name',
        len: '',
      },
      {},
    ])
  })

  it('plain text reaches nobody; isError is a non-blocking error; identical handlers run once; PostToolUse decision:block names <server>/<tool>', async () => {
    const server = hookServer()
    const notices = noticeRecorder()
    const h = harness({
      script: [bash('echo hi'), { text: 'done' }],
      hooks: {
        UserPromptSubmit: [{ hooks: [mcpTool('reply', { text: 'PLAIN-FROM-MCP' }), mcpTool('reply', { text: 'PLAIN-FROM-MCP' })] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [mcpTool('fail', { why: 'x' })] }],
        PostToolUse: [{ matcher: '*', hooks: [mcpTool('reply', { text: json({ decision: 'block', reason: 'POST-BLOCK-MCP' }) })] }],
      },
      plugins: [server.plugin, notices.plugin],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(server.received().filter((call) => call.tool === 'reply' && call.arguments.text === 'PLAIN-FROM-MCP')).toHaveLength(1)
    const sent = JSON.stringify(h.requests().map((request) => request.messages))
    expect(sent).not.toContain('PLAIN-FROM-MCP')
    // isError does not stop the call.
    expect(toolResult(result.messages)?.isError).toBe(false)
    expect(notices.texts()).toContain('PreToolUse:Bash hook hooksrv/fail failed: it broke')
    expect(sent).toContain('PostToolUse:Bash hook blocking error from command: \\"hooksrv/reply\\": POST-BLOCK-MCP')
    const failed = hookRuns(session.transcriptPath).find((run) => run.command === 'hooksrv/fail')
    expect(failed).toMatchObject({ handlerType: 'mcp_tool', status: 'failed', outcome: 'error', exitCode: 1, error: 'it broke' })
  })

  it('an unknown server fails with Claude Code\'s text and the call goes ahead; with onFailure "block" it is denied', async () => {
    const server = hookServer()
    const notices = noticeRecorder()
    const h = harness({
      script: [bash('echo one'), bash('touch two.txt', 'toolu_2'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'mcp_tool', server: 'nosuchserver', tool: 'record', input: { n: '${tool_input.command}' } }] },
          {
            matcher: 'Bash',
            hooks: [{ type: 'mcp_tool', server: 'nosuchserver', tool: 'record', if: 'Bash(touch *)', onFailure: 'block' }],
          },
        ],
      },
      plugins: [server.plugin, notices.plugin],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResult(result.messages)).toMatchObject({ output: 'one', isError: false })
    expect(notices.texts()).toContain("PreToolUse:Bash hook nosuchserver/record failed: MCP server 'nosuchserver' not connected")
    expect(existsSync(join(h.project, 'two.txt'))).toBe(false)
    expect(toolResult(result.messages, 'toolu_2')).toMatchObject({
      output:
        'PreToolUse:Bash hook error: [nosuchserver/record]: failed; blocking because onFailure is "block" and the hook got no usable answer from its MCP server. The user needs to fix the cause (in a session, /mcp shows the server\'s state) or ask whoever manages the hook; Claude should not change the hook or work around it.\n' +
        "MCP server 'nosuchserver' not connected",
      isError: true,
    })
    const runs = hookRuns(session.transcriptPath).filter((run) => run.handlerType === 'mcp_tool')
    expect(runs.map((run) => [run.command, run.status, run.outcome, run.error])).toEqual([
      ['nosuchserver/record', 'failed', 'error', "MCP server 'nosuchserver' not connected"],
      ['nosuchserver/record', 'failed', 'error', "MCP server 'nosuchserver' not connected"],
      ['nosuchserver/record', 'blocked', 'blocking', "MCP server 'nosuchserver' not connected"],
    ])
  })

  it('without an mcp() plugin every mcp_tool handler fails as an unknown server; on SessionStart they cannot run at all', async () => {
    const notices = noticeRecorder()
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'done' }],
      hooks: {
        SessionStart: [{ hooks: [mcpTool('record')] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [mcpTool('record')] }],
      },
      plugins: [notices.plugin],
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(true)
    expect(notices.texts()).toEqual(
      expect.arrayContaining([
        "SessionStart hook hooksrv/record failed: mcp_tool hooks are not available for the 'SessionStart' hook event (no MCP client context)",
        "PreToolUse:Bash hook hooksrv/record failed: MCP server 'hooksrv' not connected",
      ]),
    )
    expect(hookRuns(session.transcriptPath).map((run) => [run.event, run.handlerType, run.outcome, run.exitCode])).toEqual([
      ['SessionStart', 'mcp_tool', 'error', 1],
      ['PreToolUse', 'mcp_tool', 'error', 1],
    ])
  })

  it('a call past its timeout gives no decision', async () => {
    const server = hookServer()
    const deny = json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } })
    const h = harness({
      script: [bash('touch ran.txt'), { text: 'done' }],
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [mcpTool('slow', { ms: 3000, text: deny }, { timeout: 0.5 })] }] },
      plugins: [server.plugin],
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(existsSync(join(h.project, 'ran.txt'))).toBe(true)
    expect(hookRuns(session.transcriptPath).find((run) => run.handlerType === 'mcp_tool')).toMatchObject({
      outcome: 'timeout',
      timedOut: true,
      exitCode: null,
    })
  })
})
