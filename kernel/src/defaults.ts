import type { Approvals, Clock, Logger } from './services.js'

export const systemClock: Clock = { now: () => Date.now() }

/** Writes to stderr (stdout stays free for machine-readable output). `HARNESS_LOG=debug` shows debug lines. */
export function createStderrLogger(prefix = 'harness'): Logger {
  const write = (level: string, message: string) => process.stderr.write(`[${prefix}] ${level}: ${message}\n`)
  return {
    debug: (message) => {
      if (process.env.HARNESS_LOG === 'debug') write('debug', message)
    },
    info: (message) => write('info', message),
    warn: (message) => write('warn', message),
    error: (message) => write('error', message),
  }
}

/** Without an approver, a call that policy left at `ask` is denied, and the model is told why. */
export const denyWithoutApprover: Approvals = {
  async request({ call, reason }) {
    const why = reason ? ` (${reason})` : ''
    return {
      kind: 'deny',
      reason: `The call to ${call.name} needs approval${why}, and no approver is configured, so it was not run.`,
    }
  },
}
