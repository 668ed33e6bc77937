import { type BwrapLocation, type FindBwrapOptions, findBwrap } from './find-bwrap.js'
import { probeBwrap } from './probe-bwrap.js'

export type BwrapAvailability = { bwrap: string; unavailable?: undefined } | { bwrap?: undefined; unavailable: string }

const WAYS_OUT =
  'install bubblewrap (apt-get install bubblewrap, or npm install @openai/codex, which ships one) or opt out explicitly with the sandbox mode danger-full-access'

/**
 * The bubblewrap to sandbox with, once found and probed; else the one sentence saying why commands cannot be
 * sandboxed here and the two ways out.
 */
export function bwrapAvailability(options: FindBwrapOptions = {}): BwrapAvailability {
  if (process.platform !== 'linux') {
    return {
      unavailable: `Commands cannot be sandboxed on ${process.platform}: the sandbox needs Linux and bubblewrap; run on Linux and ${WAYS_OUT}.`,
    }
  }
  const location = findBwrap(options)
  if (location === undefined) {
    const where = `HARNESS_BWRAP is not set, there is no bwrap on PATH and no @openai/codex-linux-${process.arch} package`
    return { unavailable: `Commands cannot be sandboxed: no bubblewrap was found (${where}); ${WAYS_OUT}.` }
  }
  const failure = probeBwrap(location.path)
  if (failure === undefined) return { bwrap: location.path }
  return { unavailable: `Commands cannot be sandboxed: the bubblewrap ${describeBwrap(location)} ${failure}; ${WAYS_OUT}.` }
}

export function describeBwrap(location: BwrapLocation): string {
  const from = location.source === 'option' ? 'the bwrap option' : location.source
  return `${location.path} (from ${from})`
}
