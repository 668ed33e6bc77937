import { cmd, json } from '../lib/kit.mjs'

export default {
  description: 'Two Stop handlers block (one JSON, one exit 2): one user message with one input_text per blocker, in display order.',
  prompt: 'run the tool',
  plan: [
    { kind: 'message', text: 'First answer.' },
    { kind: 'message', text: 'Second answer.' },
  ],
  hooks: { Stop: [{ hooks: [cmd('Stop', 'a')] }, { hooks: [cmd('Stop', 'b')] }] },
  handlers: {
    'Stop-a.1.sleep': '0.6',
    'Stop-a.1.stdout': json({ decision: 'block', reason: 'reason from A' }),
    'Stop-b.1.exit': '2',
    'Stop-b.1.stderr': 'reason from B\n',
  },
  expect: { contains: ['reason from A', 'reason from B'] },
}
