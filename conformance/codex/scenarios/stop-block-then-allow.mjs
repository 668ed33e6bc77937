import { cmd, json, recordEvents } from '../lib/kit.mjs'

export default {
  description:
    'Stop blocks once: a <hook_prompt> user message and another request in the same turn (no UserPromptSubmit); the second Stop has stop_hook_active true.',
  prompt: 'run the tool',
  plan: [
    { kind: 'tool', cmd: 'echo hello-from-tool' },
    { kind: 'message', text: 'First answer.' },
    { kind: 'message', text: 'Second answer.' },
  ],
  hooks: {
    ...recordEvents(['UserPromptSubmit', 'SessionEnd']),
    Stop: [{ hooks: [cmd('Stop')] }],
  },
  handlers: { 'Stop.1.stdout': json({ decision: 'block', reason: 'keep going <now> & "then" stop' }) },
  expect: {
    // run ids number handlers in the fixed event order across the file: SessionEnd 0, UserPromptSubmit 1, Stop 2
    contains: ['<hook_prompt hook_run_id="stop:2:<CODEX_HOME>/hooks.json">keep going &lt;now&gt; &amp; "then" stop</hook_prompt>'],
    hooks: ['UserPromptSubmit/h', 'Stop/h', 'Stop/h', 'SessionEnd/h'],
  },
}
