/** The parts of the three APIs' request bodies the fake servers and the request views read. */

/** A content block of the Messages API (`text`, `tool_use`, `tool_result`, `thinking`, …). */
export interface ContentBlock {
  type: string
  text?: string
  id?: string
  name?: string
  input?: unknown
  tool_use_id?: string
  content?: string | ContentBlock[]
  is_error?: boolean
  [key: string]: unknown
}

/** A message of the Messages API, or of Chat Completions (whose parts have the same `type`/`text` shape). */
export interface MessageParam {
  role: string
  content: string | ContentBlock[]
  [key: string]: unknown
}

/** One item of a Responses request's `input`. */
export interface InputItem {
  type?: string
  role?: string
  content?: { type: string; text?: string }[] | string
  name?: string
  call_id?: string
  arguments?: string
  output?: unknown
  [key: string]: unknown
}

/** A message of Chat Completions. */
export interface ChatMessage {
  role: string
  content?: string | { type: string; text?: string }[] | null
  tool_calls?: { id: string; type?: string; function: { name: string; arguments: string } }[]
  tool_call_id?: string
  [key: string]: unknown
}

/** Which API a request spoke. */
export type ModelApi = 'messages' | 'responses' | 'chat-completions'
