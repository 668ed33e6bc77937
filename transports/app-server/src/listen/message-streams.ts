import { Readable, Writable } from 'node:stream'
import type { RawData, WebSocket } from 'ws'
import { closeReason } from './close-reasons.js'

/** RFC 6455 close codes the adapter uses. */
export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  unsupportedData: 1003,
  invalidPayload: 1007,
  tooBig: 1009,
} as const

export interface JsonLineStreams {
  /** One line per text frame received. */
  input: Readable
  /** Each line written goes out as one text frame; ending it closes the socket (1000). */
  output: Writable
  /** Settles when the socket has closed. */
  closed: Promise<{ code: number; reason: string }>
}

/**
 * A WebSocket as the JSON-lines streams the server reads and writes: each text frame becomes one line, each line one
 * text frame. A frame that is not one JSON-RPC message (binary, not JSON, not an object) closes this connection with
 * a reason; the server never sees it.
 */
export function webSocketLines(socket: WebSocket): JsonLineStreams {
  let refused = false
  const input = new Readable({ read() {} })
  let pending = ''
  const output = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      pending += String(chunk)
      for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
        const line = pending.slice(0, newline)
        pending = pending.slice(newline + 1)
        if (line.trim() !== '' && socket.readyState === socket.OPEN) socket.send(line)
      }
      callback()
    },
    final(callback) {
      if (pending.trim() !== '' && socket.readyState === socket.OPEN) socket.send(pending)
      pending = ''
      socket.close(CLOSE.normal, 'connection closed by the server')
      callback()
    },
  })

  const refuse = (code: number, reason: string) => {
    refused = true
    socket.close(code, closeReason(reason))
  }
  socket.on('message', (data: RawData, isBinary: boolean) => {
    if (refused) return
    if (isBinary) return refuse(CLOSE.unsupportedData, 'binary frames are not accepted: send each JSON-RPC message as one text frame')
    const text = rawText(data)
    let message: unknown
    try {
      message = JSON.parse(text)
    } catch (error) {
      return refuse(CLOSE.invalidPayload, `not a JSON-RPC message: ${(error as Error).message}`)
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message))
      return refuse(CLOSE.invalidPayload, 'not a JSON-RPC message: send one JSON object per text frame')
    // A pretty-printed message spans lines; the server reads one line per message.
    input.push(`${/[\r\n]/.test(text) ? JSON.stringify(message) : text}\n`)
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.once('close', (code: number, reason: Buffer) => {
      input.push(null)
      output.destroy()
      resolve({ code, reason: reason.toString() })
    })
  })
  return { input, output, closed }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8')
}
