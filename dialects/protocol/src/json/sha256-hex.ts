import { createHash } from 'node:crypto'

/** Lowercase hex SHA-256 of a string (as UTF-8) or of bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}
