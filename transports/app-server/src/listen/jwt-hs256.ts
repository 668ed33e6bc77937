import { createHmac, timingSafeEqual } from 'node:crypto'

export interface Hs256Expectations {
  secret: Buffer
  /** `iss` must equal it when given. */
  issuer?: string
  /** `aud` (a string or a list) must hold it when given. */
  audience?: string
  /** How far `exp` and `nbf` may be off. */
  maxClockSkewSeconds: number
  /** Now, in seconds since the epoch; default the clock. */
  nowSeconds?: number
}

export type Hs256Verdict =
  | { valid: true; claims: Record<string, unknown> }
  | { valid: false; reason: 'malformed' | 'signature' | 'expired' | 'notYetValid' | 'issuer' | 'audience' }

const BASE64URL = /^[A-Za-z0-9_-]+$/

/**
 * Verifies a compact HS256 JWT as Codex 0.171.0's signed bearer tokens are (observed): the signature first, then `exp`
 * (required, an integer), `nbf` (when present), `iss` and `aud`. `typ`, `kid` and `iat` are not looked at.
 */
export function verifyHs256Jwt(token: string, expected: Hs256Expectations): Hs256Verdict {
  const parts = token.split('.')
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return { valid: false, reason: 'malformed' }
  const [header, payload, signature] = parts as [string, string, string]
  const headerJson = decodeJsonObject(header)
  if (headerJson?.alg !== 'HS256') return { valid: false, reason: 'malformed' }
  const computed = createHmac('sha256', expected.secret).update(`${header}.${payload}`).digest()
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== computed.length || !timingSafeEqual(given, computed)) return { valid: false, reason: 'signature' }
  const claims = decodeJsonObject(payload)
  if (!claims || !wellTyped(claims)) return { valid: false, reason: 'malformed' }
  const now = expected.nowSeconds ?? Math.floor(Date.now() / 1000)
  const skew = expected.maxClockSkewSeconds
  if ((claims.exp as number) < now - skew) return { valid: false, reason: 'expired' }
  if (claims.nbf !== undefined && (claims.nbf as number) > now + skew) return { valid: false, reason: 'notYetValid' }
  if (expected.issuer !== undefined && claims.iss !== expected.issuer) return { valid: false, reason: 'issuer' }
  if (expected.audience !== undefined && !audiences(claims.aud).includes(expected.audience)) return { valid: false, reason: 'audience' }
  return { valid: true, claims }
}

function decodeJsonObject(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** Codex refuses a token whose registered claims have the wrong type, whether or not it checks them. */
function wellTyped(claims: Record<string, unknown>): boolean {
  const aud = claims.aud
  return (
    Number.isInteger(claims.exp) &&
    (claims.nbf === undefined || Number.isInteger(claims.nbf)) &&
    (claims.iss === undefined || typeof claims.iss === 'string') &&
    (aud === undefined || typeof aud === 'string' || (Array.isArray(aud) && aud.every((entry) => typeof entry === 'string')))
  )
}

function audiences(aud: unknown): unknown[] {
  return Array.isArray(aud) ? aud : [aud]
}
