/** Read once: `performance.timeOrigin` is a call into the runtime on every read. */
const ORIGIN = performance.timeOrigin

/**
 * Milliseconds since the epoch, from the monotonic clock: every span's start and end come from here, so spans compare
 * to the sub-millisecond (the SDK's own default mixes `Date.now()`, a millisecond apart between spans, with it).
 */
export function epochNow(): number {
  return ORIGIN + performance.now()
}
