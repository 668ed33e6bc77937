import { bash, proxyGet, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    'sandbox.network.deniedDomains `blocked.test`, bypassPermissions: the GET through $HTTP_PROXY is refused as on the deny list (`(host is on the deny list)`).',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true, network: { deniedDomains: ['blocked.test'] } } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Fetch it. ${bash(proxyGet('http://blocked.test/'))}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PostToolUse'),
    requests: 2,
    contains: ['Connection blocked by network allowlist', 'deny network-outbound blocked.test:80 (host is on the deny list)'],
    outcome: 'completed',
  },
}
