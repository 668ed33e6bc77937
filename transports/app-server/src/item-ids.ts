import { createHash } from 'node:crypto'

/**
 * An `agentMessage` id. Codex uses the provider's message id (`msg_…`); the kernel keeps none, so one in that form is
 * made from the turn and the message's place among the turn's agent messages: the same live and on `thread/resume`.
 */
export function agentMessageId(turnId: string, index: number): string {
  return `msg_${createHash('sha256').update(`${turnId}:agentMessage:${index}`).digest('hex').slice(0, 32)}`
}

/**
 * A recorded user message's id when it has none of its own (a steer's or host item's id is kept): a UUIDv7, as Codex's,
 * whose time is when the message was recorded and whose other bits come from the session and the message's place in
 * its log, so the same live and on `thread/resume`.
 */
export function userMessageId(sessionId: string, event: { seq: number; at: string }): string {
  const bytes = createHash('sha256').update(`${sessionId}:${event.seq}`).digest().subarray(0, 16)
  let ms = Date.parse(event.at) || 0
  for (let index = 5; index >= 0; index--) {
    bytes[index] = ms % 256
    ms = Math.floor(ms / 256)
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
