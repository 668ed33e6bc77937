import type { ErrorReply, FramesReply, HttpReply } from './reply.js'

export interface SseOptions {
  headers?: Record<string, string>
  /** Write only this many frames, then destroy the socket (a connection cut mid-stream). */
  cutAfter?: number
  /** Write only this many frames, then end the response cleanly (a server that stops early). */
  endAfter?: number
  /** Write the frames, then keep the stream open until the client goes away. */
  hold?: boolean
}

/** A `text/event-stream` answer of these frames, written as they are. */
export function sse(frames: string[], options: SseOptions = {}): FramesReply {
  const count = options.cutAfter ?? options.endAfter
  return {
    kind: 'frames',
    frames: count === undefined ? frames : frames.slice(0, count),
    ...(options.headers ? { headers: options.headers } : {}),
    after: options.cutAfter !== undefined ? 'disconnect' : options.hold ? 'hold' : 'end',
  }
}

/** A JSON answer with this status (an error body of a compatible server's own shape, say). */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): HttpReply {
  return {
    kind: 'http',
    status,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  }
}

/** A non-API answer: a proxy's page, plain text. */
export function plain(status: number, body: string, contentType = 'text/html'): HttpReply {
  return { kind: 'http', status, body, headers: { 'content-type': contentType } }
}

/** An API error in the format of the API the request used. */
export function apiError(status: number, message: string, options: Omit<ErrorReply, 'kind' | 'status' | 'message'> = {}): ErrorReply {
  return { kind: 'error', status, message, ...options }
}
