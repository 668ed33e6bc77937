import { ALL_EVENTS, AUTO, recordEvents } from '../lib/kit.mjs'

/*
 * Observed with Codex 0.169.0 (app-server, thread/compact/start between two turns; recorded twice, the same result).
 * Kernel side: session.compact() between the two turns.
 */
export default {
  description:
    'Manual compaction between two turns (app-server thread/compact/start; kernel: session.compact()): PreCompact/PostCompact (manual), SessionStart (compact), their order and turn ids.',
  turns: ['run the tool', { compact: true }, 'second turn'],
  plan: { compaction: [{ kind: 'message', text: 'SUMMARY-OF-EARLIER-WORK' }], root: AUTO },
  hooks: recordEvents(ALL_EVENTS),
  expect: { contains: ['SUMMARY-OF-EARLIER-WORK'] },
}
