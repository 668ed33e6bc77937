import { cmd } from '../lib/kit.mjs'

const MCP_HOOKS = (event) => [{ matcher: 'mcp__fx__.*', hooks: [cmd(event)] }]

/*
 * Observed with Claude Code 2.1.332 (recorded twice, the same result):
 *   * PreToolUse/PostToolUse/PostToolUseFailure of an MCP tool carry `mcp_server: {name, source}` last;
 *   * tool_response is the result's content blocks (an array); a failing tool (isError) fires
 *     PostToolUseFailure with `error` = its text; the model sees the text (is_error);
 *   * m02-mcp-structured: a result with structuredContent;
 *   * without ENABLE_TOOL_SEARCH=false the MCP tools are deferred behind ToolSearch and a failing call's
 *     text gets Claude's "This tool's input schema was not in your prompt…" note appended.
 */
export default {
  description:
    'MCP tools of a project .mcp.json server (approved with enableAllProjectMcpServers): echo and a failing tool; PreToolUse/PostToolUse/PostToolUseFailure with matcher `mcp__fx__.*`.',
  prompt: 'Call them. [[tool:mcp__fx__echo:{"text":"hi"}]] [[tool:mcp__fx__fail:{}]]',
  mcpJson: { mcpServers: { fx: { command: 'node', args: ['@MCP_SERVER@'] } } },
  settingsExtra: { enableAllProjectMcpServers: true },
  hooks: {
    SessionStart: [{ hooks: [cmd('SessionStart')] }],
    PreToolUse: MCP_HOOKS('PreToolUse'),
    PostToolUse: MCP_HOOKS('PostToolUse'),
    PostToolUseFailure: MCP_HOOKS('PostToolUseFailure'),
    Stop: [{ hooks: [cmd('Stop')] }],
  },
  // MCP tools in the tool list, not deferred behind ToolSearch (no effect on the kernel)
  env: { ENABLE_TOOL_SEARCH: 'false' },
  expect: {
    hooks: ['SessionStart/main', 'PreToolUse/main', 'PostToolUse/main', 'PreToolUse/main', 'PostToolUseFailure/main', 'Stop/main'],
    requests: 3,
    contains: ['echo: hi', 'it broke'],
    outcome: 'completed',
  },
}
