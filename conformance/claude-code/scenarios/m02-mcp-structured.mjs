import { cmd } from '../lib/kit.mjs'

/*
 * Observed with Claude Code 2.1.332 (recorded twice, the same result): a result with both a text block and
 * structuredContent gives PostToolUse `tool_response` = the structuredContent's JSON as a string, and the model sees
 * that JSON, not the text block. `mcp_server: {name, source: "project"}` ends the payloads (see m01-mcp-tools).
 */
export default {
  description: 'An MCP tool whose result has structuredContent and a text block: tool_response, and which of the two the model sees.',
  prompt: 'Call it. [[tool:mcp__fx__weather:{}]]',
  mcpJson: { mcpServers: { fx: { command: 'node', args: ['@MCP_SERVER@'] } } },
  settingsExtra: { enableAllProjectMcpServers: true },
  hooks: {
    PreToolUse: [{ matcher: 'mcp__fx__.*', hooks: [cmd('PreToolUse')] }],
    PostToolUse: [{ matcher: 'mcp__fx__.*', hooks: [cmd('PostToolUse')] }],
  },
  // MCP tools in the tool list, not deferred behind ToolSearch (no effect on the kernel)
  env: { ENABLE_TOOL_SEARCH: 'false' },
  expect: {
    hooks: ['PreToolUse/main', 'PostToolUse/main'],
    requests: 2,
    contains: ['{"temperature":21.5,"unit":"C"}'],
    outcome: 'completed',
  },
}
