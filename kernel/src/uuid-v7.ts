import { randomBytes } from 'node:crypto'

/** A UUIDv7 (RFC 9562): the time in milliseconds, then random bits, so ids sort by creation time. Turn ids are these. */
export function uuidv7(now = Date.now()): string {
  const bytes = randomBytes(16)
  let ms = now
  for (let index = 5; index >= 0; index--) {
    bytes[index] = ms % 256
    ms = Math.floor(ms / 256)
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
