/** Socket errors of a server that is down, restarting or out of reach for now. */
const TRANSIENT_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
])

/**
 * SQLSTATEs worth another try: a shut down or restarting server (57P01-57P03), too many connections (53300), a
 * serialization failure or deadlock (40001, 40P01). Class 08 (connection exceptions) is matched by prefix.
 */
const TRANSIENT_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '40001', '40P01'])

/** What `pg` throws, without a code, when a connection dies or cannot be had in time. */
const TRANSIENT_MESSAGES = /connection terminated|connection timeout|timeout exceeded when trying to connect|is not queryable/i

/**
 * Whether an error says the database could not be reached or served the request for now (so the same request may
 * succeed later), rather than that it refused it. Looks through `cause`: this store wraps what `pg` throws.
 */
export function isTransientError(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && (TRANSIENT_SOCKET_CODES.has(code) || TRANSIENT_SQLSTATES.has(code) || /^08/.test(code))) return true
    if (TRANSIENT_MESSAGES.test(current.message)) return true
  }
  return false
}
