import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'

/** Codex's answers to what is not a WebSocket upgrade (observed on 0.171.0, texts as its HTTP stack gives them). */
export const NOT_AN_UPGRADE = "Connection header did not include 'upgrade'"
export const GET_ONLY = 'Request method must be `GET`'
export const NOT_VERSION_13 = "`Sec-WebSocket-Version` header did not include '13'"

const HEALTH_PATHS = new Set(['/readyz', '/healthz'])

export function isHealthPath(request: IncomingMessage): boolean {
  return HEALTH_PATHS.has(new URL(request.url ?? '/', 'http://listener').pathname)
}

/**
 * A plain HTTP request: `/readyz` and `/healthz` answer 200 when `health` (the TCP listener), anything else is not
 * an upgrade. Any `Origin` is refused first: a browser page must not reach the server.
 */
export function answerPlainRequest(request: IncomingMessage, response: ServerResponse, options: { health: boolean }): void {
  const [status, body, headers] = plainAnswer(request, options.health)
  response.writeHead(status, { ...headers, ...(body === '' ? {} : { 'Content-Type': 'text/plain; charset=utf-8' }) })
  response.end(body)
}

function plainAnswer(request: IncomingMessage, health: boolean): [number, string, Record<string, string>] {
  if (request.headers.origin !== undefined) return [403, '', {}]
  if (health && isHealthPath(request)) {
    return request.method === 'GET' || request.method === 'HEAD' ? [200, '', {}] : [405, '', { Allow: 'GET,HEAD' }]
  }
  return request.method === 'GET' ? [400, NOT_AN_UPGRADE, {}] : [405, GET_ONLY, {}]
}

/** Answers an upgrade request without upgrading, and hangs up. */
export function refuseUpgrade(socket: Duplex, status: number, body = ''): void {
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Connection: close',
    ...(body === '' ? [] : ['Content-Type: text/plain; charset=utf-8']),
    `Content-Length: ${Buffer.byteLength(body)}`,
  ]
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`)
}
