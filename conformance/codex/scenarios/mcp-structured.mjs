import { cmd, recordEvents } from '../lib/kit.mjs'

/*
 * Observed with Codex 0.169.0 (recorded twice, the same result): a result with both a text block and
 * structuredContent gives PostToolUse `tool_response: {content, structuredContent}`, and the model sees the
 * structuredContent's JSON (`Wall time: <s> seconds\nOutput:\n{"temperature":21.5,"unit":"C"}`), not the text block.
 * A shell command runs first so that the MCP server is up (see mcp-tools).
 */
export default {
  description: 'An MCP tool whose result has structuredContent and a text block: tool_response, and which of the two the model sees.',
  prompt: 'run the tool',
  configExtra: '[mcp_servers.fx]\ncommand = "node"\nargs = ["@MCP_SERVER@"]',
  plan: [
    { kind: 'tool', cmd: 'echo hello-from-tool' },
    { kind: 'call', namespace: 'mcp__fx', name: 'weather', args: {} },
    { kind: 'message', text: 'All done.' },
  ],
  hooks: {
    ...recordEvents(['Stop']),
    PreToolUse: [{ matcher: 'mcp__fx__.*', hooks: [cmd('PreToolUse')] }],
    PostToolUse: [{ matcher: 'mcp__fx__.*', hooks: [cmd('PostToolUse')] }],
  },
  expect: {
    hooks: ['PreToolUse/h', 'PostToolUse/h', 'Stop/h'],
    contains: ['{"temperature":21.5,"unit":"C"}'],
    requests: 3,
  },
}
