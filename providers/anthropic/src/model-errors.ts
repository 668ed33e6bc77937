import { STATUS_CODES } from 'node:http'
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk'
import { ModelError } from '@harness-kernel/kernel'
import { retryAfterMs } from './retry-after.js'

export interface ErrorContext {
  /** Where requests go, for "cannot reach" messages. */
  baseURL: string
  /** How long the client waits for a response to start, for timeout messages. */
  timeoutMs: number
  /** What to check after a 401, e.g. `check ANTHROPIC_API_KEY`. */
  credentialHint: string
  /** `request`: before the response started; `stream`: while reading it. */
  phase: 'request' | 'stream'
}

/** Error types the API sends in a mid-stream `event: error` frame that are worth another try. */
const RETRYABLE_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error'])

/**
 * Any failure of one request as a ModelError a person can act on, marked retryable when another try may work:
 * 408, 409, 429 and 5xx (529 included) answers, unreachable hosts, timeouts, a stream cut or ended early, a mid-stream
 * overloaded or api error; never 400, 401, 403, 404, 413. An `x-should-retry` header decides when the server sends one.
 * `retryAfterMs` carries the server's `retry-after-ms` / `retry-after`.
 */
export function toModelError(error: unknown, context: ErrorContext): ModelError {
  if (error instanceof ModelError) return error
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError(`the Anthropic API at ${context.baseURL} did not start a response within ${context.timeoutMs} ms`, {
      retryable: true,
      cause: error,
    })
  }
  if (error instanceof APIConnectionError) {
    return new ModelError(`cannot reach the Anthropic API at ${context.baseURL} (${networkReason(error.cause)})`, {
      retryable: true,
      cause: error,
    })
  }
  if (error instanceof APIUserAbortError) return new ModelError('the request was aborted', { retryable: true, cause: error })
  if (error instanceof APIError) return apiError(error, context)
  if (context.phase === 'stream' && isNetworkError(error)) {
    return new ModelError(`the stream was cut off before the message completed (${networkReason(error)})`, {
      retryable: true,
      cause: error,
    })
  }
  const message = error instanceof Error ? error.message : String(error)
  if (message.startsWith('Could not resolve authentication method')) {
    return new ModelError('no Anthropic credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or pass apiKey to anthropicModel()', {
      retryable: false,
      cause: error,
    })
  }
  if (error instanceof SyntaxError) {
    return new ModelError(`the Anthropic API sent a stream event that is not JSON (${message})`, { retryable: false, cause: error })
  }
  return new ModelError(`the Anthropic request failed: ${message}`, { retryable: false, cause: error })
}

function apiError(error: APIError, context: ErrorContext): ModelError {
  const status = error.status
  if (status === undefined) {
    // An `event: error` frame in the stream: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`.
    const type = error.type ?? 'error'
    const detail = error.apiMessage ?? 'no message'
    return new ModelError(`Anthropic API error in the stream (${type}): ${detail}`, { retryable: RETRYABLE_TYPES.has(type), cause: error })
  }
  const retryable = shouldRetry(status, error.headers)
  const kind = error.type ?? STATUS_CODES[status]
  const type = kind ? ` (${kind})` : ''
  const hint = status === 401 ? ` — ${context.credentialHint}` : ''
  const message = `Anthropic API error ${status}${type}: ${detailOf(error)}${hint}`
  const wait = retryable ? retryAfterMs(error.headers) : undefined
  return new ModelError(message, { retryable, status, ...(wait === undefined ? {} : { retryAfterMs: wait }), cause: error })
}

function shouldRetry(status: number, headers: Headers | undefined): boolean {
  const header = headers?.get('x-should-retry')
  if (header === 'true') return true
  if (header === 'false') return false
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/** The API's own message; for a body that is not Anthropic's JSON (a proxy's page), its text, tags dropped, cut short. */
function detailOf(error: APIError): string {
  if (error.apiMessage) return error.apiMessage
  const body = error.message.replace(/^\d{3} /, '')
  const rest =
    body === 'status code (no body)'
      ? ''
      : body
          .replace(/<[^>]*>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim()
  if (rest === '') return 'the response has no details'
  return rest.length > 200 ? `${rest.slice(0, 200)}…` : rest
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  CERT_HAS_EXPIRED: 'the TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
}

/** The first understandable reason in a cause chain: a known code, else the deepest message. */
function networkReason(error: unknown): string {
  let deepest = ''
  for (let cause = error, depth = 0; cause instanceof Object && depth < 8; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown }
    if (typeof code === 'string' && NETWORK_CODES[code]) return NETWORK_CODES[code]
    if (typeof message === 'string' && message !== '' && message !== 'fetch failed') deepest = message
    cause = (cause as { cause?: unknown }).cause
  }
  return deepest || 'network error'
}

/** A socket failure while the body was read: undici's `TypeError: terminated` or an error with a network code. */
function isNetworkError(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Object && depth < 8; depth++) {
    const { code, name, message } = cause as { code?: unknown; name?: unknown; message?: unknown }
    if (typeof code === 'string' && (code in NETWORK_CODES || code.startsWith('UND_ERR'))) return true
    if (name === 'SocketError' || (name === 'TypeError' && message === 'terminated')) return true
    cause = (cause as { cause?: unknown }).cause
  }
  return false
}
