import { constants } from 'node:os'

const WATCHED = ['SIGINT', 'SIGTERM'] as const

export interface SignalWatch {
  /** The first signal received, if any. */
  readonly received: NodeJS.Signals | undefined
  stop(): void
}

/** 128 + the signal's number, the shell's convention (SIGINT → 130). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 1)
}

/**
 * Calls `onFirst` on the first SIGINT/SIGTERM so the caller can wind down cleanly; a second one
 * exits at once without cleanup.
 */
export function watchSignals(onFirst: (signal: NodeJS.Signals) => void, stderr: NodeJS.WritableStream): SignalWatch {
  let received: NodeJS.Signals | undefined
  const handler = (signal: NodeJS.Signals) => {
    if (received !== undefined) {
      stderr.write(`harness: ${signal} again, exiting without cleanup\n`)
      process.exit(signalExitCode(signal))
    }
    received = signal
    onFirst(signal)
  }
  for (const signal of WATCHED) process.on(signal, handler)
  return {
    get received() {
      return received
    },
    stop() {
      for (const signal of WATCHED) process.off(signal, handler)
    },
  }
}
