const NETWORK_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
}

/** A one-line reason a request failed; `fetch` reports most of them as `TypeError: fetch failed` with the real cause inside. */
export function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause
  const code = errorCode(cause) ?? errorCode(error)
  const detail = errorMessage(cause) || errorMessage(error)
  const label = code === undefined ? undefined : NETWORK_CODES[code]
  if (label !== undefined) return detail && detail !== code ? `${label} (${detail})` : `${label} (${code})`
  if (detail) return `request failed: ${detail}`
  return 'request failed'
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code
  return typeof code === 'string' ? code : undefined
}

function errorMessage(error: unknown): string {
  if (error === undefined || error === null) return ''
  if (typeof error !== 'object') return String(error)
  const message = (error as { message?: unknown }).message
  return typeof message === 'string' ? message.split('\n').filter(Boolean).join('; ') : ''
}
