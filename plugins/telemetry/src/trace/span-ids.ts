import { randomFillSync } from 'node:crypto'

/** A span's W3C ids, as lowercase hex. */
export interface SpanIds {
  traceId: string
  spanId: string
}

const pool = Buffer.alloc(4096)
let used = pool.length

/** Random ids, from a pool filled 4 KB at a time: a session's ids are chosen where the session runs. */
export function randomIds(traceId?: string): SpanIds {
  return { traceId: traceId ?? randomHex(16), spanId: randomHex(8) }
}

function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool)
    used = 0
  }
  const hex = pool.toString('hex', used, used + bytes)
  used += bytes
  // All zeros is the invalid id; one in 2^64 at worst, and then the next draw.
  return /^0+$/.test(hex) ? randomHex(bytes) : hex
}
