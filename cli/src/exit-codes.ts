import type { TurnStatus } from '@harness-kernel/kernel'

export const EXIT = {
  ok: 0,
  failed: 1,
  /** Bad flags or arguments, a bad config, no model, an unknown session. */
  usage: 2,
  /** The turn was blocked or halted by a hook or plugin. */
  stopped: 3,
  interrupted: 130,
} as const

export function exitCodeForStatus(status: TurnStatus): number {
  switch (status) {
    case 'completed':
      return EXIT.ok
    case 'failed':
      return EXIT.failed
    case 'blocked':
    case 'halted':
      return EXIT.stopped
    case 'interrupted':
      return EXIT.interrupted
  }
}
