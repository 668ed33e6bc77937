import { bash, proxyGet, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    'Held-out variation: network.allowedDomains `allowed.test`, default mode + autoAllow: a GET of another host (`blocked.test`) is refused (user denied).',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true, autoAllowBashIfSandboxed: true, network: { allowedDomains: ['allowed.test'] } } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'default',
  prompt: `Fetch it. ${bash(proxyGet('http://blocked.test/'))}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PostToolUse'),
    requests: 2,
    contains: ['deny network-outbound blocked.test:80 (user denied)'],
    outcome: 'completed',
  },
}
