import { cmd, recordEvents } from '../lib/kit.mjs'

const mcpCall = (name, args = {}) => ({ kind: 'call', namespace: 'mcp__fx', name, args })

/*
 * Observed with Codex 0.169.0 (recorded twice, the same result):
 *   * the model gets the server's tools as a `namespace` tool `mcp__fx` holding `echo`, `fail`, `weather`, and calls
 *     them as function_call {namespace:"mcp__fx", name:"echo"}; hooks see tool_name `mcp__fx__echo`;
 *   * Codex does not wait for MCP servers before its first request: under load the first request had no `mcp__fx`
 *     tools and a call then failed with `unsupported call: mcp__fxecho`, so the plan runs a shell command first;
 *   * PostToolUse tool_response is the CallToolResult object ({content, structuredContent?}); a result with isError
 *     fires no PostToolUse at all;
 *   * the model sees `Wall time: <s> seconds\nOutput:\n<text>` (normalized to <text>); for a result with isError a
 *     list of input_text items, the header first (normalized to the texts);
 *   * scenario mcp-structured: a result with structuredContent.
 */
export default {
  description:
    'MCP tools of a [mcp_servers.fx] stdio server (config.toml): echo and a failing tool; PreToolUse/PostToolUse with matcher `mcp__fx__.*`.',
  prompt: 'run the tool',
  configExtra: '[mcp_servers.fx]\ncommand = "node"\nargs = ["@MCP_SERVER@"]',
  plan: [
    { kind: 'tool', cmd: 'echo hello-from-tool' },
    mcpCall('echo', { text: 'hi' }),
    mcpCall('fail'),
    { kind: 'message', text: 'All done.' },
  ],
  hooks: {
    ...recordEvents(['SessionStart', 'Stop']),
    PreToolUse: [{ matcher: 'mcp__fx__.*', hooks: [cmd('PreToolUse')] }],
    PostToolUse: [{ matcher: 'mcp__fx__.*', hooks: [cmd('PostToolUse')] }],
  },
  expect: {
    hooks: ['SessionStart/h', 'PreToolUse/h', 'PostToolUse/h', 'PreToolUse/h', 'Stop/h'],
    contains: ['echo: hi', 'it broke'],
    requests: 4,
  },
}
