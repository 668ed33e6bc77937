/**
 * `mcp_server` on the tool events of an MCP server's tool, as Claude Code 2.1.332 sends it (conformance `m01-mcp-tools`,
 * `m02-mcp-structured`): PreToolUse, PermissionRequest, PostToolUse and PostToolUseFailure of `mcp__fx__*` end with
 * `"mcp_server":{"name":"fx","source":"project"}`; PostToolBatch's `tool_calls` entries and other tools have none.
 * Through a real `mcp()` plugin and the stdio fixture server (fixtures/mcp/hook-server.mjs).
 */
import { fileURLToPath } from 'node:url'
import { definePlugin } from '@harness-kernel/kernel'
import { mcp } from '@harness-kernel/mcp'
import { describe, expect, it } from 'vitest'
import { mcpServerField } from '../src/io/mcp-server.js'
import { bash, claudeHarnessPerTest, recordEvents } from './claude-harness.js'

const SERVER = fileURLToPath(new URL('./fixtures/mcp/hook-server.mjs', import.meta.url))
const harness = claudeHarnessPerTest()
const json = (value: unknown) => JSON.stringify(value)

const COMMON = ['session_id', 'transcript_path', 'cwd', 'prompt_id', 'permission_mode', 'hook_event_name']

/** Asks for approval of MCP calls only, so PermissionRequest runs for them. */
const askForMcp = definePlugin({
  name: 'ask-for-mcp',
  setup(kernel) {
    kernel.hooks.toolPreExecute.tap({ name: 'ask-for-mcp', stage: -100 }, (decision, { call }) =>
      call.name.startsWith('mcp__') ? { kind: 'ask', reason: 'policy asks' } : decision,
    )
  },
})

describe('mcp_server (Claude Code 2.1.332)', () => {
  it('ends the tool events of an MCP tool, with the server name and the source its config names; not PostToolBatch entries', async () => {
    const h = harness({
      script: [
        { tool_calls: [{ id: 'toolu_1', name: 'mcp__fx__reply', input: { text: 'hi' } }] },
        { tool_calls: [{ id: 'toolu_2', name: 'mcp__fx__fail', input: {} }] },
        bash('echo plain', 'toolu_3'),
        { text: 'done' },
      ],
      hooks: recordEvents(['PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch']),
      responses: {
        'PermissionRequest-h.stdout': json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }),
      },
      plugins: [mcp({ servers: { fx: { command: process.execPath, args: [SERVER], source: 'project' } } }), askForMcp],
      options: { permissionMode: 'default' },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const fx = { name: 'fx', source: 'project' }
    const [pre1, pre2, pre3] = h.calls('PreToolUse')
    expect(Object.keys(pre1!.payload)).toEqual([...COMMON, 'tool_name', 'tool_input', 'tool_use_id', 'mcp_server'])
    expect(pre1!.stdin).toContain(`"tool_use_id":"toolu_1","mcp_server":${json(fx)}}\n`)
    expect(pre2!.payload.mcp_server).toEqual(fx)
    expect(pre3!.payload).not.toHaveProperty('mcp_server')
    const permission = h.calls('PermissionRequest')
    expect(permission.map((call) => call.payload.tool_name)).toEqual(['mcp__fx__reply', 'mcp__fx__fail'])
    expect(Object.keys(permission[0]!.payload)).toEqual([...COMMON, 'tool_name', 'tool_input', 'permission_suggestions', 'mcp_server'])
    const [post1, post3] = h.calls('PostToolUse')
    expect(Object.keys(post1!.payload)).toEqual([
      ...COMMON,
      'tool_name',
      'tool_input',
      'tool_response',
      'tool_use_id',
      'duration_ms',
      'mcp_server',
    ])
    expect(post1!.payload.mcp_server).toEqual(fx)
    expect(post3!.payload.tool_name).toBe('Bash')
    expect(post3!.payload).not.toHaveProperty('mcp_server')
    const failure = h.calls('PostToolUseFailure')[0]!.payload
    expect(Object.keys(failure)).toEqual([
      ...COMMON,
      'tool_name',
      'tool_input',
      'tool_use_id',
      'error',
      'is_interrupt',
      'duration_ms',
      'mcp_server',
    ])
    expect(failure).toMatchObject({ error: 'it broke', mcp_server: fx })
    for (const batch of h.calls('PostToolBatch')) {
      expect(batch.payload).not.toHaveProperty('mcp_server')
      for (const entry of batch.payload.tool_calls as Record<string, unknown>[]) expect(entry).not.toHaveProperty('mcp_server')
    }
  })

  it('a server whose config names no source is `dynamic` (configured in code, as Claude Code names --mcp-config servers)', () => {
    expect(mcpServerField({ name: 'mcp__x__t', mcp: { server: 'x', tool: 't' } })).toEqual({ name: 'x', source: 'dynamic' })
    expect(mcpServerField({ name: 'mcp__x__t', mcp: { server: 'x', tool: 't', source: 'user' } })).toEqual({ name: 'x', source: 'user' })
    expect(mcpServerField({ name: 'shell' })).toBeUndefined()
    expect(mcpServerField(undefined)).toBeUndefined()
  })
})
