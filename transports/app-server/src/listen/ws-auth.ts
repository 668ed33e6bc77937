import { createHash, timingSafeEqual } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { verifyHs256Jwt } from './jwt-hs256.js'

export const WS_AUTH_MODES = ['capability-token', 'signed-bearer-token'] as const

/** The `--ws-*` flags of `codex app-server`, as given. */
export interface WsAuthFlags {
  wsAuth?: (typeof WS_AUTH_MODES)[number]
  wsTokenFile?: string
  wsTokenSha256?: string
  wsSharedSecretFile?: string
  wsIssuer?: string
  wsAudience?: string
  wsMaxClockSkewSeconds?: number
}

/** How WebSocket clients prove who they are: a bearer token on the upgrade request. */
export type WsAuth =
  | { mode: 'capability-token'; tokenSha256: Buffer }
  | { mode: 'signed-bearer-token'; secret: Buffer; issuer?: string; audience?: string; maxClockSkewSeconds: number }

/** Bad `--ws-*` flags or an unreadable secret; the message is Codex's. */
export class WsAuthError extends Error {
  override readonly name: string = 'WsAuthError'
}

/** Codex's default for `--ws-max-clock-skew-seconds` (observed: a token 29 s past `exp` passes, 31 s does not). */
export const DEFAULT_MAX_CLOCK_SKEW_SECONDS = 30
const MIN_SECRET_BYTES = 32

/** Checks the combination of flags without reading any file, as Codex does whatever the transport. */
export function checkWsAuthFlags(flags: WsAuthFlags): void {
  const token = flags.wsTokenFile !== undefined || flags.wsTokenSha256 !== undefined
  const signed =
    flags.wsSharedSecretFile !== undefined ||
    flags.wsIssuer !== undefined ||
    flags.wsAudience !== undefined ||
    flags.wsMaxClockSkewSeconds !== undefined
  if (flags.wsAuth === undefined) {
    if (token || signed)
      throw new WsAuthError('websocket auth flags require `--ws-auth capability-token` or `--ws-auth signed-bearer-token`')
    return
  }
  if (flags.wsAuth === 'capability-token') {
    if (flags.wsTokenFile !== undefined && flags.wsTokenSha256 !== undefined)
      throw new WsAuthError('`--ws-token-file` and `--ws-token-sha256` are mutually exclusive')
    if (!token) throw new WsAuthError('`--ws-token-file` or `--ws-token-sha256` is required when `--ws-auth capability-token` is set')
    if (signed)
      throw new WsAuthError(
        '`--ws-shared-secret-file`, `--ws-issuer`, `--ws-audience`, and `--ws-max-clock-skew-seconds` require `--ws-auth signed-bearer-token`',
      )
    if (flags.wsTokenSha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(flags.wsTokenSha256))
      throw new WsAuthError('--ws-token-sha256 must be a 64-character hex SHA-256 digest')
    return
  }
  if (token)
    throw new WsAuthError('`--ws-token-file` and `--ws-token-sha256` require `--ws-auth capability-token`, not `signed-bearer-token`')
  if (flags.wsSharedSecretFile === undefined)
    throw new WsAuthError('`--ws-shared-secret-file` is required when `--ws-auth signed-bearer-token` is set')
}

/** The auth the flags configure (reading the token or secret file, relative to `cwd`); undefined without `--ws-auth`. */
export function loadWsAuth(flags: WsAuthFlags, cwd: string): WsAuth | undefined {
  checkWsAuthFlags(flags)
  if (flags.wsAuth === 'capability-token') {
    if (flags.wsTokenSha256 !== undefined) return { mode: 'capability-token', tokenSha256: Buffer.from(flags.wsTokenSha256, 'hex') }
    const token = readSecret(resolve(cwd, flags.wsTokenFile!))
    return { mode: 'capability-token', tokenSha256: sha256(token) }
  }
  if (flags.wsAuth === 'signed-bearer-token') {
    const path = resolve(cwd, flags.wsSharedSecretFile!)
    const secret = readSecret(path)
    if (secret.length < MIN_SECRET_BYTES)
      throw new WsAuthError(`signed websocket bearer secret ${path} must be at least ${MIN_SECRET_BYTES} bytes`)
    return {
      mode: 'signed-bearer-token',
      secret,
      ...(flags.wsIssuer === undefined ? {} : { issuer: flags.wsIssuer }),
      ...(flags.wsAudience === undefined ? {} : { audience: flags.wsAudience }),
      maxClockSkewSeconds: flags.wsMaxClockSkewSeconds ?? DEFAULT_MAX_CLOCK_SKEW_SECONDS,
    }
  }
  return undefined
}

export type BearerVerdict = { allowed: true } | { allowed: false; message: string }

/** Whether an upgrade request's `Authorization` header carries a token `auth` accepts; the messages are Codex's. */
export function checkBearer(auth: WsAuth, authorization: string | undefined): BearerVerdict {
  if (authorization === undefined) return { allowed: false, message: 'missing websocket bearer token' }
  const match = /^bearer\s+(\S.*)$/i.exec(authorization.trim())
  if (!match) return { allowed: false, message: 'invalid authorization header' }
  const token = match[1]!.trim()
  if (auth.mode === 'capability-token')
    return timingSafeEqual(sha256(Buffer.from(token)), auth.tokenSha256)
      ? { allowed: true }
      : { allowed: false, message: 'invalid websocket bearer token' }
  const verdict = verifyHs256Jwt(token, auth)
  if (verdict.valid) return { allowed: true }
  return { allowed: false, message: JWT_REFUSALS[verdict.reason] }
}

const JWT_REFUSALS = {
  malformed: 'invalid websocket jwt',
  signature: 'invalid websocket jwt',
  expired: 'expired websocket jwt',
  notYetValid: 'websocket jwt is not valid yet',
  issuer: 'websocket jwt issuer mismatch',
  audience: 'websocket jwt audience mismatch',
} as const

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest()
}

/** A token or secret file's bytes without surrounding whitespace, as Codex reads them. */
function readSecret(path: string): Buffer {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new WsAuthError(`failed to read websocket auth secret ${path}: ${osErrorText(error as NodeJS.ErrnoException)}`)
  }
  const secret = text.trim()
  if (secret === '') throw new WsAuthError(`websocket auth secret ${path} must not be empty`)
  return Buffer.from(secret)
}

/** Rust's rendering of an OS error (`No such file or directory (os error 2)`), which Codex prints. */
function osErrorText(error: NodeJS.ErrnoException): string {
  const text = error.code === undefined ? undefined : OS_ERROR_TEXTS[error.code]
  return text !== undefined && error.errno !== undefined ? `${text} (os error ${-error.errno})` : error.message
}

const OS_ERROR_TEXTS: Record<string, string> = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  ELOOP: 'Too many levels of symbolic links',
}
