import { BASIC_SEQUENCE, without } from '../lib/kit.mjs'

const seq = without(BASIC_SEQUENCE, 'PostToolUse/dup', 'PostToolUse/main').flatMap((k) =>
  k === 'PreToolUse/main' ? [k, 'PermissionRequest/main'] : [k],
)

export default {
  description: 'Default permission mode: the PermissionRequest hook denies with a message, which becomes the tool error.',
  bypass: false,
  prompt: 'Write a file. [[bash:echo hi > f.txt]]',
  mode: 'r22-perm-deny',
  expect: { hooks: seq, requests: 2, contains: ['PERMREQ-DENY-MSG'], outcome: 'completed' },
}
