import { BASIC_SEQUENCE } from '../lib/kit.mjs'

const seq = BASIC_SEQUENCE.flatMap((k) => (k === 'PreToolUse/main' ? [k, 'PermissionRequest/main'] : [k]))

export default {
  description:
    'Default permission mode (no bypass): a Bash call that writes a file in the project asks for permission; the PermissionRequest hook allows it and the tool runs.',
  bypass: false,
  prompt: 'Write a file. [[bash:echo hi > f.txt]]',
  mode: 'r21-perm-allow',
  expect: { hooks: seq, requests: 2, outcome: 'completed' },
}
