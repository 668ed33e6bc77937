import type { IncomingHttpHeaders } from 'node:http'
import type { ModelApi } from './api-types.js'
import type { Reply } from './reply.js'

/**
 * One request as a fake server received it. Times are `performance.now()` milliseconds, the clock of the process that
 * started the server; `wallClock` is `Date.now()` at arrival (comparable with timestamps other programs write).
 */
export interface RecordedRequest {
  /** Its index in the server's `requests` (model requests) or `otherRequests`. */
  n: number
  method: string
  /** As sent, query included. */
  url: string
  path: string
  headers: IncomingHttpHeaders
  /** The parsed JSON body (the text when it is not JSON; undefined when empty); tests assert it field by field. */
  // biome-ignore lint/suspicious/noExplicitAny: a JSON body of any of three APIs, asserted field by field
  body: any
  /** The body's size in bytes, decompressed. */
  bytes: number
  /** The API of a model request; undefined for the others. */
  api: ModelApi | undefined
  /** Arrival (the whole body read). */
  at: number
  wallClock: number
  /** What the server answered, tool call ids filled in; set when the answer starts. */
  reply?: Reply
  /** The tool calls of the answer, with their ids (empty until it starts, and for answers other than a message). */
  toolCalls: { id: string; name: string; input: unknown }[]
  /** The first byte of the answer written. */
  firstByteAt?: number
  /** The answer's end written. */
  endedAt?: number
  /** The client closed the connection before the answer ended. */
  abortedAt?: number
  /** Settles when the connection of this request closes, the answer ended or not. */
  closed: Promise<void>
  /** Settles when the client closed the connection before the answer ended. */
  aborted: Promise<void>
  /** Settles when a held answer (`heldUntil`, frames with `after: 'hold'`) has written what comes before the hold. */
  held: Promise<void>
}

/** The settle functions of a request's promises, kept by the server. */
export interface RequestSignals {
  closed(): void
  aborted(): void
  held(): void
}

export function recordRequest(fields: Omit<RecordedRequest, 'closed' | 'aborted' | 'held' | 'toolCalls'>): {
  request: RecordedRequest
  signals: RequestSignals
} {
  const signals: RequestSignals = { closed: () => {}, aborted: () => {}, held: () => {} }
  const request: RecordedRequest = {
    ...fields,
    toolCalls: [],
    closed: new Promise<void>((resolve) => {
      signals.closed = resolve
    }),
    aborted: new Promise<void>((resolve) => {
      signals.aborted = resolve
    }),
    held: new Promise<void>((resolve) => {
      signals.held = resolve
    }),
  }
  return { request, signals }
}
