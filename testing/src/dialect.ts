import type { ModelApi } from './api-types.js'
import type { ErrorReply, ReplyUsage } from './reply.js'
import type { ReplyStream } from './reply-stream.js'

/** A message reply with its defaults filled in: the text as its deltas, every call with its id. */
export interface ResolvedMessage {
  deltas: string[] | undefined
  toolCalls: { id: string; name: string; input: unknown }[]
  reasoning: string | undefined
  delayMs: number
  heldUntil: PromiseLike<unknown> | undefined
  chunkDelayMs: number
  disconnectAfterEvents: number | undefined
  usage: ReplyUsage | undefined
}

export interface ReplyContext {
  /** The request's index among the server's model requests. */
  n: number
  /** Unique to the server instance: ids made of it do not repeat across servers. */
  runId: string
  body: Record<string, unknown>
  /** The request asked for a stream (`"stream": true`). */
  stream: boolean
}

/** One API's wire format: which requests are its, and how a message reply and an error are written. */
export interface ApiDialect {
  readonly api: ModelApi
  /** The prefix of the tool call ids it makes: `toolu`, `call`. */
  readonly callIdPrefix: string
  matches(method: string, path: string): boolean
  writeMessage(reply: ResolvedMessage, out: ReplyStream, context: ReplyContext): Promise<void>
  /** An error's headers and JSON body, as the API sends them. */
  errorAnswer(reply: ErrorReply, context: ReplyContext): { headers: Record<string, string>; body: unknown }
}

/** Holds a reply before its content, as `delayMs` and `heldUntil` ask. */
export async function holdContent(reply: ResolvedMessage, out: ReplyStream): Promise<void> {
  await out.pause(reply.delayMs)
  if (reply.heldUntil && !out.gone) await out.hold(reply.heldUntil)
}

/** A tool call's input as its JSON text: a string is taken as the text already. */
export const inputJson = (input: unknown): string => (typeof input === 'string' ? input : JSON.stringify(input))

/** `retry-after` and `retry-after-ms` headers of an error reply, and its own. */
export function errorHeaders(reply: ErrorReply): Record<string, string> {
  return {
    ...(reply.retryAfter === undefined ? {} : { 'retry-after': String(reply.retryAfter) }),
    ...(reply.retryAfterMs === undefined ? {} : { 'retry-after-ms': String(reply.retryAfterMs) }),
    ...reply.headers,
  }
}
