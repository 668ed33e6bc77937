import { bash, proxyGet, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    'sandbox network, default mode + autoAllowBashIfSandboxed: an HTTP GET of an unlisted host through $HTTP_PROXY is refused (`Connection blocked by network allowlist`) and `<sandbox_violations>` (user denied) is appended; no hook for the network ask.',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true, autoAllowBashIfSandboxed: true } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'default',
  prompt: `Fetch it. ${bash(proxyGet('http://blocked.test/'))}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PostToolUse'),
    requests: 2,
    contains: [
      'Connection blocked by network allowlist',
      '<sandbox_violations>\ndeny network-outbound blocked.test:80 (user denied)\n</sandbox_violations>',
    ],
    outcome: 'completed',
  },
}
