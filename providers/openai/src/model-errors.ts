import { STATUS_CODES } from 'node:http'
import { errorMessage, ModelError } from '@harness-kernel/kernel'
import { APIConnectionError, APIConnectionTimeoutError, APIError, OpenAIError } from 'openai'
import type { Endpoint } from './endpoint.js'
import { isRecord } from './is-record.js'
import type { OpenAIApi } from './options.js'
import { retryAfterFromMessage, retryAfterMs } from './retry-after.js'

export interface ErrorContext {
  endpoint: Endpoint
  model: string
  api: OpenAIApi
  timeoutMs: number | undefined
  apiKeySource: string | undefined
}

/** Error codes in a stream's `error` / `response.failed` that another try cannot fix. */
const FINAL_CODES = new Set([
  'context_length_exceeded',
  'insufficient_quota',
  'invalid_prompt',
  'invalid_request_error',
  'invalid_api_key',
  'model_not_found',
  'usage_not_included',
])

/**
 * Any failure of one attempt as the kernel's `ModelError`, worded for a person: who failed (`OpenAI API`, or the
 * server's host), the status and code, the server's own message, and what to check. `retryable` follows the server
 * (`x-should-retry`), else: 408, 409, 429 (not `insufficient_quota`), 5xx, connection failures and broken streams.
 */
export function toModelError(error: unknown, context: ErrorContext, phase: 'request' | 'stream'): unknown {
  if (error instanceof ModelError) return error
  const { label } = context.endpoint
  if (error instanceof APIConnectionTimeoutError) {
    const seconds = Math.round((context.timeoutMs ?? 600_000) / 1000)
    return new ModelError(`${label}: no response from ${context.endpoint.baseURL} within ${seconds} s (timeoutMs)`, {
      retryable: true,
      cause: error,
    })
  }
  if (error instanceof APIConnectionError) return connectionError(error, context)
  if (error instanceof APIError && typeof error.status === 'number') return httpError(error, context)
  if (error instanceof APIError) {
    const body = isRecord(error.error) ? error.error : {}
    return streamFailure(label, stringOrNull(body.code) ?? stringOrNull(body.type), stringOrNull(body.message) ?? error.message, error)
  }
  if (phase === 'request') {
    return error instanceof OpenAIError ? new ModelError(`${label}: ${error.message}`, { retryable: false, cause: error }) : error
  }
  if (error instanceof SyntaxError) {
    return new ModelError(`${label}: the stream sent an event that is not JSON (${error.message})`, { retryable: true, cause: error })
  }
  return streamCut(label, connectionReason(error), error)
}

export function streamCut(label: string, detail?: string, cause?: unknown): ModelError {
  return new ModelError(`${label}: the stream ended before the response completed${detail ? ` (${detail})` : ''}`, {
    retryable: true,
    ...(cause === undefined ? {} : { cause }),
  })
}

export function streamStalled(label: string, idleMs: number): ModelError {
  return new ModelError(`${label}: the stream stalled (no data for ${formatSeconds(idleMs)} s, streamIdleTimeoutMs)`, { retryable: true })
}

/** An `error` event or `response.failed` inside a stream: no status, no headers; the code decides. */
export function streamFailure(label: string, code: string | null, message: string, cause?: unknown): ModelError {
  const retryable = code === null || !FINAL_CODES.has(code)
  const retryAfter = retryable ? retryAfterFromMessage(message) : undefined
  return new ModelError(`${label} error${code ? ` (${code})` : ''}: ${message}`, {
    retryable,
    ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
    ...(cause === undefined ? {} : { cause }),
  })
}

export function missingKey(label: string): ModelError {
  return new ModelError(`no API key for ${label}: set OPENAI_API_KEY or pass apiKey to openaiModel()`, { retryable: false })
}

function httpError(error: APIError, context: ErrorContext): ModelError {
  const status = error.status as number
  const body = isRecord(error.error) ? error.error : {}
  const code = stringOrNull(body.code) ?? stringOrNull(body.type)
  const text = serverText(status, body, error.message)
  const retryable = shouldRetry(status, code, error.headers)
  const retryAfter = retryable ? retryAfterMs(error.headers) : undefined
  return new ModelError(
    `${context.endpoint.label} error ${status}${code ? ` (${code})` : ''}: ${text}${hint(status, code, text, context)}`,
    {
      retryable,
      status,
      ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
      cause: error,
    },
  )
}

function shouldRetry(status: number, code: string | null, headers: Headers | undefined): boolean {
  const header = headers?.get('x-should-retry')
  if (header === 'true') return true
  if (header === 'false') return false
  if (status === 429) return code !== 'insufficient_quota'
  return status === 408 || status === 409 || status >= 500
}

function hint(status: number, code: string | null, text: string, { endpoint, model, api, apiKeySource }: ErrorContext): string {
  if (status === 401) {
    if (endpoint.keySource === 'env') return ' — check OPENAI_API_KEY'
    if (endpoint.keySource === 'option') return ` — check ${apiKeySource ?? 'the apiKey option'}`
    return ' — the server wants an API key: set OPENAI_API_KEY or pass apiKey'
  }
  if (status === 403) return ` — check that the API key may use model "${model}"`
  if (status === 404) {
    if (code === 'model_not_found' || /model/i.test(text)) return ` — check the model name "${model}"`
    const other = api === 'responses' && !endpoint.isOpenAI ? `; if the server has no Responses API, use api: 'chat'` : ''
    return ` — check baseURL ${endpoint.baseURL} and the model name "${model}"${other}`
  }
  if (code === 'insufficient_quota') return ' — check your plan and billing details'
  return ''
}

/** The server's own words: its JSON `message`, else its text body (not an HTML page), else the status's name. */
function serverText(status: number, body: Record<string, unknown>, sdkMessage: string): string {
  const message = stringOrNull(body.message)
  if (message) return clip(message)
  const raw = sdkMessage.startsWith(`${status} `) ? sdkMessage.slice(`${status} `.length) : sdkMessage
  if (raw === 'status code (no body)' || raw.trimStart().startsWith('<') || raw.trim() === '') return STATUS_CODES[status] ?? 'no details'
  return clip(raw)
}

function connectionError(error: APIConnectionError, context: ErrorContext): ModelError {
  const code = causeCode(error)
  const reason = connectionReason(error)
  const final = code === 'ENOTFOUND' || (code !== undefined && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
  const after = code === 'ENOTFOUND' ? ' — check baseURL' : final ? '' : ' — is the server running?'
  return new ModelError(`cannot reach ${context.endpoint.baseURL} (${reason})${after}`, { retryable: !final, cause: error })
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed',
}

/** Why a connection failed, from the innermost `code` of the cause chain (undici wraps it twice). */
export function connectionReason(error: unknown): string {
  const code = causeCode(error)
  if (code !== undefined && REASONS[code]) return REASONS[code]
  if (code !== undefined && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `TLS certificate problem: ${innermost(error)}`
  return innermost(error)
}

function causeCode(error: unknown): string | undefined {
  let found: string | undefined
  for (let current: unknown = error, depth = 0; isRecord(current) && depth < 6; current = current.cause, depth++) {
    if (typeof current.code === 'string') found = current.code
  }
  return found
}

function innermost(error: unknown): string {
  let current: unknown = error
  for (let depth = 0; isRecord(current) && current.cause !== undefined && depth < 6; depth++) current = current.cause
  return errorMessage(current)
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 500 ? `${flat.slice(0, 497)}...` : flat
}

function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10)
}
