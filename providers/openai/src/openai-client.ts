import OpenAI, { type APIError } from 'openai'
import { type Endpoint, readEnv } from './endpoint.js'
import { isRecord } from './is-record.js'
import type { OpenAIModelOptions } from './options.js'

/**
 * The SDK client with its retries off (the kernel is the one retry layer, honouring `retry-after`) and error bodies
 * kept whatever their shape: compatible servers answer `{ message }`, `{ detail }` or `{ error: "text" }` rather
 * than OpenAI's `{ error: { message, type, code } }`, which the SDK alone would report as "(no body)".
 */
class KernelOpenAIClient extends OpenAI {
  protected override makeStatusError(status: number, body: object, message: string | undefined, headers: Headers): APIError {
    return super.makeStatusError(status, normaliseErrorBody(body), message, headers)
  }
}

export function createClient(options: OpenAIModelOptions, endpoint: Endpoint, apiKey: string): OpenAI {
  const env = options.env ?? process.env
  // The SDK would read OPENAI_ORG_ID / OPENAI_PROJECT_ID itself; they are OpenAI's and not sent to other servers.
  const organization = options.organization ?? (endpoint.isOpenAI ? readEnv(env, 'OPENAI_ORG_ID') : undefined) ?? null
  const project = options.project ?? (endpoint.isOpenAI ? readEnv(env, 'OPENAI_PROJECT_ID') : undefined) ?? null
  return new KernelOpenAIClient({
    apiKey,
    baseURL: endpoint.baseURL,
    organization,
    project,
    maxRetries: 0,
    // Every failure reaches the caller as a ModelError; the SDK's own console logging only with OPENAI_LOG.
    ...(readEnv(env, 'OPENAI_LOG') === undefined ? { logLevel: 'off' as const } : {}),
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
  })
}

/** `{ error: { message, … } }` as OpenAI sends it, from whatever JSON error body a compatible server sent. */
export function normaliseErrorBody(body: unknown): object {
  if (!isRecord(body)) return body as object
  const inner = body.error
  if (isRecord(inner)) return body
  if (typeof inner === 'string') return { ...body, error: { message: inner } }
  const message = body.message ?? body.detail
  if (message === undefined) return body
  return {
    error: {
      message: typeof message === 'string' ? message : JSON.stringify(message),
      ...(typeof body.type === 'string' ? { type: body.type } : {}),
      ...(typeof body.code === 'string' ? { code: body.code } : {}),
    },
  }
}
