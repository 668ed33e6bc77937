import type { FakeAnthropic, MessageParam } from '@harness-kernel/testing'
import type { WireFrame } from './wire.js'

export interface FoldVerdict {
  /** The steer's text block came right after the tool results, in the user message that carries them. */
  folded: boolean
  /** Claude Code's results, in order. */
  results: number
  /** The steer's uuid is in the (first) turn's `user_message_uuids`. */
  listed: boolean
  /** The user message of the first request that saw the steer. */
  carrier: unknown
}

/** Where Claude Code put a steer: folded after a tool result in the same turn (drivers.md §1.2), or not. */
export function foldVerdict(server: FakeAnthropic, wire: { sent: WireFrame[]; received: WireFrame[] }, text: string): FoldVerdict {
  const request = server.requests.find((candidate) => JSON.stringify(candidate.body.messages ?? []).includes(text))
  const messages: MessageParam[] = request?.body.messages ?? []
  const carrier = [...messages].reverse().find((message) => message.role === 'user' && JSON.stringify(message.content).includes(text))
  const blocks = Array.isArray(carrier?.content) ? carrier.content : []
  const last = blocks.at(-1)
  const folded =
    blocks.length >= 2 &&
    blocks[0]?.type === 'tool_result' &&
    last?.type === 'text' &&
    typeof last.text === 'string' &&
    last.text.includes(text) &&
    blocks.slice(0, -1).every((block) => block.type === 'tool_result' || (block.type === 'text' && block.text !== last.text))
  const uuid = wire.sent.find((message) => (message.message as { content?: unknown } | undefined)?.content === text)?.uuid
  const results = wire.received.filter((frame) => frame.type === 'result')
  return { folded, results: results.length, listed: uuid !== undefined && (results[0]?.user_message_uuids ?? []).includes(uuid), carrier }
}
