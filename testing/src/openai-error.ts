import type { ErrorReply } from './reply.js'

/** An error body as OpenAI sends it: `{"error":{"message","type","param","code"}}`. */
export function openaiErrorBody(reply: ErrorReply): unknown {
  const type = reply.type ?? (reply.status === 429 ? 'requests' : reply.status >= 500 ? 'server_error' : 'invalid_request_error')
  const code = reply.code ?? (reply.status === 429 ? 'rate_limit_exceeded' : null)
  return { error: { message: reply.message, type, param: null, code } }
}
