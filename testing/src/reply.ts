/**
 * What a fake server answers to one model request. A `MessageReply` is written in the wire format of the API the
 * request used (streamed when the request asked for a stream, else one JSON body); the other kinds are the same on
 * every API but for the body of an error.
 */
export type Reply = MessageReply | OtherReply

/** The replies that are the same on every API (but for an error's body). */
export type OtherReply = ErrorReply | FramesReply | HttpReply | DisconnectReply | NoAnswerReply

export const isMessageReply = (reply: Reply): reply is MessageReply => reply.kind === undefined || reply.kind === 'message'

/** One tool call of a reply. `input` is sent as JSON; a string is sent as it is (arguments that are not JSON, say). */
export interface ToolCallReply {
  name: string
  input: unknown
  /** Default: `toolu_<server run>_<n>` (Messages), `call_<server run>_<n>` (OpenAI); `…_<i>` appended for several. */
  id?: string
}

/** A model's answer: reasoning, text, tool calls (in that order), paced as asked. */
export interface MessageReply {
  kind?: 'message'
  /** The text; an array is streamed one element per delta. Default, when there are no tool calls: `FINAL reply to request #N`. */
  text?: string | string[]
  toolCalls?: ToolCallReply[]
  /** A thinking block (Messages), a reasoning item's summary (Responses), `reasoning_content` (Chat Completions). */
  reasoning?: string
  /**
   * Hold the reply this long before its content. Messages has sent `message_start` and `ping` by then (the stream has
   * begun); Responses and Chat Completions have sent nothing (not even the headers).
   */
  delayMs?: number
  /** Hold the reply, where `delayMs` holds it, until this settles (see `gate()`); the request's `held` resolves meanwhile. */
  heldUntil?: PromiseLike<unknown>
  /** Wait this long after each text delta. */
  chunkDelayMs?: number
  /** Close the connection after this many events of the stream (a stream cut mid-way). */
  disconnectAfterEvents?: number
  /** The token counts the reply reports, written in each API's own fields. Default: small fixed counts of each API's. */
  usage?: ReplyUsage
}

/**
 * Token counts in the kernel's terms (`ModelUsage`): `inputTokens` includes the cached parts, `outputTokens` the
 * reasoning. The Messages API gets `input_tokens` without the cached parts and no reasoning count, as Anthropic sends.
 */
export interface ReplyUsage {
  inputTokens: number
  outputTokens: number
  cacheReadInputTokens?: number
  cacheCreationInputTokens?: number
  reasoningTokens?: number
}

/** An API error: the status, and the body in the API's own error format. */
export interface ErrorReply {
  kind: 'error'
  status: number
  message: string
  /** The error's `type`. Default: the API's type for the status (`rate_limit_error`, `api_error`, …). */
  type?: string
  /** OpenAI's `code`. */
  code?: string
  /** Seconds, sent as `retry-after`. */
  retryAfter?: number
  /** Milliseconds, sent as `retry-after-ms`. */
  retryAfterMs?: number
  headers?: Record<string, string>
}

/** Server-sent-event frames written as they are, each flushed on its own, then ended, held open or cut. */
export interface FramesReply {
  kind: 'frames'
  frames: string[]
  headers?: Record<string, string>
  /** What follows the frames: `end` (default) ends the response; `hold` keeps it open until the client goes away; `disconnect` destroys the socket. */
  after?: 'end' | 'hold' | 'disconnect'
}

/** Any other HTTP answer (a proxy's page, an empty 404). A `body` that is not a string is sent as JSON. */
export interface HttpReply {
  kind: 'http'
  status: number
  body?: unknown
  headers?: Record<string, string>
}

/** Closes the connection without an answer. */
export interface DisconnectReply {
  kind: 'disconnect'
}

/** Never answers: the request stays open until the client gives up. */
export interface NoAnswerReply {
  kind: 'no-answer'
}
