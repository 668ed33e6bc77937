import type { SessionEventBody } from '@harness-kernel/kernel'

/**
 * A model's `message` event whose JSONL line is about 300 bytes (the v/seq/at envelope included): the size of a short
 * answer, the most common event of a session.
 */
export const MESSAGE_EVENT: SessionEventBody = {
  type: 'message',
  turnId: 'turn-1',
  message: {
    role: 'assistant',
    content: [{ type: 'text', text: 'The tests pass now: the lease is renewed every third of its length. '.repeat(2) }],
    source: { kind: 'model' },
  },
}
