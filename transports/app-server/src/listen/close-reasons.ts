import type { WebSocket } from 'ws'
import type { WsModule } from './load-ws.js'

/** A close frame's reason holds at most 123 bytes (RFC 6455 §5.5: 125 bytes of payload, 2 of them the code). */
const MAX_REASON_BYTES = 123

/** `text` cut to fit a close frame, on a character boundary. */
export function closeReason(text: string): string {
  if (Buffer.byteLength(text) <= MAX_REASON_BYTES) return text
  let cut = text.slice(0, MAX_REASON_BYTES)
  while (Buffer.byteLength(`${cut}…`) > MAX_REASON_BYTES) cut = cut.slice(0, -1)
  return `${cut}…`
}

/**
 * `ws` closes a connection whose frame it refuses (too big, not UTF-8, bad framing) with the bare status code; this
 * class gives each such close a reason the client can show.
 */
export function webSocketWithCloseReasons(ws: WsModule, maxMessageBytes: number): typeof WebSocket {
  const reasons: Record<number, string> = {
    1002: 'WebSocket protocol error',
    1007: 'invalid UTF-8 in a text frame',
    1009: `message too big: the limit is ${maxMessageBytes} bytes`,
  }
  return class extends ws.WebSocket {
    override close(code?: number, reason?: string | Buffer): void {
      super.close(code, reason ?? (code === undefined ? undefined : reasons[code]))
    }
  }
}
