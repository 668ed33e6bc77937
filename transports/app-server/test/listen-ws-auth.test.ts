import { createHash, createHmac } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { verifyHs256Jwt } from '../src/listen/jwt-hs256.js'
import { checkBearer, checkWsAuthFlags, loadWsAuth, type WsAuthFlags } from '../src/listen/ws-auth.js'
import { removeTempDirs, tempDir } from './support/listen-support.js'

// Codex 0.171.0's `--ws-*` flags and bearer checks, observed with its binary (one run each): the flag errors (exit 1,
// whatever the transport), the file errors (only for ws://: its unix socket takes no token and reads no file), the
// 401 bodies, the HS256 checks (29 s past `exp` passes and 31 s fails with the default skew, so 30 s; `exp` required
// and an integer; `typ` and `kid` ignored; `iss` must be a string; HS512, `none` and standard base64 refused).

afterEach(removeTempDirs)

const SECRET = 'k'.repeat(32)
const NOW = 1_800_000_000

function jwt(payload: unknown, options: { header?: Record<string, unknown>; secret?: string } = {}): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const signed = `${encode(options.header ?? { alg: 'HS256', typ: 'JWT' })}.${encode(payload)}`
  return `${signed}.${createHmac('sha256', options.secret ?? SECRET)
    .update(signed)
    .digest('base64url')}`
}

describe('checkWsAuthFlags', () => {
  it.each<[WsAuthFlags, string]>([
    [{ wsTokenFile: 't' }, 'websocket auth flags require `--ws-auth capability-token` or `--ws-auth signed-bearer-token`'],
    [{ wsIssuer: 'i' }, 'websocket auth flags require `--ws-auth capability-token` or `--ws-auth signed-bearer-token`'],
    [{ wsAuth: 'capability-token' }, '`--ws-token-file` or `--ws-token-sha256` is required when `--ws-auth capability-token` is set'],
    [
      { wsAuth: 'capability-token', wsTokenFile: 't', wsTokenSha256: 'a'.repeat(64) },
      '`--ws-token-file` and `--ws-token-sha256` are mutually exclusive',
    ],
    [
      { wsAuth: 'capability-token', wsTokenFile: 't', wsIssuer: 'i' },
      '`--ws-shared-secret-file`, `--ws-issuer`, `--ws-audience`, and `--ws-max-clock-skew-seconds` require `--ws-auth signed-bearer-token`',
    ],
    [{ wsAuth: 'capability-token', wsTokenSha256: 'abcd' }, '--ws-token-sha256 must be a 64-character hex SHA-256 digest'],
    [{ wsAuth: 'capability-token', wsTokenSha256: 'z'.repeat(64) }, '--ws-token-sha256 must be a 64-character hex SHA-256 digest'],
    [{ wsAuth: 'signed-bearer-token' }, '`--ws-shared-secret-file` is required when `--ws-auth signed-bearer-token` is set'],
    [
      { wsAuth: 'signed-bearer-token', wsSharedSecretFile: 's', wsTokenFile: 't' },
      '`--ws-token-file` and `--ws-token-sha256` require `--ws-auth capability-token`, not `signed-bearer-token`',
    ],
  ])('refuses %j in Codex words', (flags, message) => {
    expect(() => checkWsAuthFlags(flags)).toThrow(message)
  })

  it('takes no flags, and each complete mode', () => {
    expect(() => checkWsAuthFlags({})).not.toThrow()
    expect(() => checkWsAuthFlags({ wsAuth: 'capability-token', wsTokenSha256: 'A'.repeat(64) })).not.toThrow()
    expect(() => checkWsAuthFlags({ wsAuth: 'signed-bearer-token', wsSharedSecretFile: 's', wsMaxClockSkewSeconds: 0 })).not.toThrow()
  })
})

describe('loadWsAuth', () => {
  it('reads a token file relative to cwd, trimmed, and compares digests', () => {
    const dir = tempDir('ws-auth-')
    writeFileSync(join(dir, 'token'), '  the-token \n\n')
    const auth = loadWsAuth({ wsAuth: 'capability-token', wsTokenFile: 'token' }, dir)!
    expect(checkBearer(auth, 'Bearer the-token')).toEqual({ allowed: true })
    expect(checkBearer(auth, 'Bearer the-token\n')).toEqual({ allowed: true })
    expect(checkBearer(auth, 'Bearer the-tokens')).toEqual({ allowed: false, message: 'invalid websocket bearer token' })
    const byDigest = loadWsAuth(
      { wsAuth: 'capability-token', wsTokenSha256: createHash('sha256').update('the-token').digest('hex').toUpperCase() },
      dir,
    )!
    expect(checkBearer(byDigest, 'BEARER the-token')).toEqual({ allowed: true })
  })

  it("names the absolute path of a missing, empty or short secret, in Codex's words", () => {
    const dir = tempDir('ws-auth-')
    writeFileSync(join(dir, 'empty'), ' \n')
    writeFileSync(join(dir, 'short'), `${'k'.repeat(31)}\n`)
    expect(() => loadWsAuth({ wsAuth: 'capability-token', wsTokenFile: 'nothere' }, dir)).toThrow(
      `failed to read websocket auth secret ${join(dir, 'nothere')}: No such file or directory (os error 2)`,
    )
    expect(() => loadWsAuth({ wsAuth: 'capability-token', wsTokenFile: 'empty' }, dir)).toThrow(
      `websocket auth secret ${join(dir, 'empty')} must not be empty`,
    )
    expect(() => loadWsAuth({ wsAuth: 'signed-bearer-token', wsSharedSecretFile: 'short' }, dir)).toThrow(
      `signed websocket bearer secret ${join(dir, 'short')} must be at least 32 bytes`,
    )
  })
})

describe('checkBearer', () => {
  const dir = () => {
    const path = tempDir('ws-auth-')
    writeFileSync(join(path, 'secret'), `${SECRET}\n`)
    return path
  }

  it("tells a missing header from a malformed one, in Codex's words", () => {
    const auth = loadWsAuth({ wsAuth: 'signed-bearer-token', wsSharedSecretFile: 'secret' }, dir())!
    expect(checkBearer(auth, undefined)).toEqual({ allowed: false, message: 'missing websocket bearer token' })
    for (const header of ['', 'Bearer', 'Bearer   ', 'Basic abc', 'token'])
      expect(checkBearer(auth, header)).toEqual({ allowed: false, message: 'invalid authorization header' })
  })

  it('maps each JWT verdict to the text Codex answers with', () => {
    const auth = loadWsAuth({ wsAuth: 'signed-bearer-token', wsSharedSecretFile: 'secret', wsIssuer: 'iss', wsAudience: 'aud' }, dir())!
    const now = Math.floor(Date.now() / 1000)
    const verdict = (payload: unknown) => checkBearer(auth, `Bearer ${jwt(payload)}`)
    expect(verdict({ exp: now + 60, iss: 'iss', aud: 'aud' })).toEqual({ allowed: true })
    expect(verdict({ exp: now - 600, iss: 'iss', aud: 'aud' })).toEqual({ allowed: false, message: 'expired websocket jwt' })
    expect(verdict({ exp: now + 600, nbf: now + 600, iss: 'iss', aud: 'aud' })).toEqual({
      allowed: false,
      message: 'websocket jwt is not valid yet',
    })
    expect(verdict({ exp: now + 60, iss: 'other', aud: 'aud' })).toEqual({ allowed: false, message: 'websocket jwt issuer mismatch' })
    expect(verdict({ exp: now + 60, iss: 'iss', aud: 'other' })).toEqual({ allowed: false, message: 'websocket jwt audience mismatch' })
    expect(verdict({ iss: 'iss', aud: 'aud' })).toEqual({ allowed: false, message: 'invalid websocket jwt' })
  })
})

describe('verifyHs256Jwt', () => {
  const expect30 = { secret: Buffer.from(SECRET), maxClockSkewSeconds: 30, nowSeconds: NOW }

  it('allows `exp` and `nbf` off by the skew and no more', () => {
    expect(verifyHs256Jwt(jwt({ exp: NOW - 30 }), expect30)).toMatchObject({ valid: true })
    expect(verifyHs256Jwt(jwt({ exp: NOW - 31 }), expect30)).toEqual({ valid: false, reason: 'expired' })
    expect(verifyHs256Jwt(jwt({ exp: NOW + 60, nbf: NOW + 30 }), expect30)).toMatchObject({ valid: true })
    expect(verifyHs256Jwt(jwt({ exp: NOW + 60, nbf: NOW + 31 }), expect30)).toEqual({ valid: false, reason: 'notYetValid' })
    expect(verifyHs256Jwt(jwt({ exp: NOW - 1 }), { ...expect30, maxClockSkewSeconds: 0 })).toEqual({ valid: false, reason: 'expired' })
  })

  it('checks the signature before anything else, and refuses what Codex refuses', () => {
    expect(verifyHs256Jwt(jwt({ exp: NOW - 999 }, { secret: 'x'.repeat(32) }), expect30)).toEqual({ valid: false, reason: 'signature' })
    const token = jwt({ exp: NOW + 60 })
    expect(verifyHs256Jwt(`${token.slice(0, -2)}AA`, expect30)).toEqual({ valid: false, reason: 'signature' })
    expect(verifyHs256Jwt(token.split('.').slice(0, 2).join('.'), expect30)).toEqual({ valid: false, reason: 'malformed' })
    expect(verifyHs256Jwt(token.replace(/-/g, '+').replace(/_/g, '/').concat('+'), expect30)).toEqual({ valid: false, reason: 'malformed' })
    for (const header of [{ alg: 'HS512' }, { alg: 'none' }, {}])
      expect(verifyHs256Jwt(jwt({ exp: NOW + 60 }, { header }), expect30)).toEqual({ valid: false, reason: 'malformed' })
    for (const payload of [{ exp: String(NOW + 60) }, { exp: NOW + 60.5 }, { exp: NOW + 60, nbf: 'x' }, { exp: NOW + 60, iss: 5 }, [1]])
      expect(verifyHs256Jwt(jwt(payload), expect30)).toEqual({ valid: false, reason: 'malformed' })
  })

  it('ignores typ, kid and iat, and iss and aud when none is expected; takes aud as a list', () => {
    expect(
      verifyHs256Jwt(
        jwt({ exp: NOW + 60, iat: NOW + 999, iss: 'x', aud: [] }, { header: { alg: 'HS256', typ: 'foo', kid: 'k' } }),
        expect30,
      ),
    ).toMatchObject({
      valid: true,
    })
    expect(
      verifyHs256Jwt(jwt({ exp: NOW + 60, iss: 'i', aud: ['other', 'aud'] }), { ...expect30, issuer: 'i', audience: 'aud' }),
    ).toMatchObject({
      valid: true,
    })
    expect(verifyHs256Jwt(jwt({ exp: NOW + 60, aud: 'aud' }), { ...expect30, issuer: 'i', audience: 'aud' })).toEqual({
      valid: false,
      reason: 'issuer',
    })
    expect(verifyHs256Jwt(jwt({ exp: NOW + 60, iss: 'i' }), { ...expect30, issuer: 'i', audience: 'aud' })).toEqual({
      valid: false,
      reason: 'audience',
    })
  })
})
