import type { Writable } from 'node:stream'

/**
 * How the kernel and its launcher talk over their pipe: each message is a line of JSON, and a message with bytes to
 * carry (an output chunk, stdin) names the field and their count, and the raw bytes follow the line. Measured against
 * Node's IPC (bench/README.md (d)): a small message's round trip is between IPC's `json` and `advanced` modes, bulk
 * output passes 2 to 4 times faster than either, and a full pipe is seen as a pipe's backpressure.
 */

interface FrameHeader {
  /** The field the bytes after the line belong to, and how many there are. */
  bytes?: { field: string; length: number }
}

/** Writes `message` as a frame; a `Uint8Array` field (at most one) goes raw after the line. False once the pipe is full. */
export function writeFrame(pipe: Writable, message: object): boolean {
  const binary = Object.entries(message).find(([, value]) => value instanceof Uint8Array) as [string, Uint8Array] | undefined
  if (binary === undefined) return pipe.write(`${JSON.stringify(message)}\n`)
  const [field, bytes] = binary
  const header: FrameHeader = { bytes: { field, length: bytes.byteLength } }
  pipe.cork()
  pipe.write(`${JSON.stringify({ ...message, [field]: undefined, ...header })}\n`)
  const ok = pipe.write(bytes)
  pipe.uncork()
  return ok
}

/** Reads frames from a pipe's chunks: returns the `data` listener, which calls `onMessage` with each whole message. */
export function frameReader<T>(onMessage: (message: T) => void): (chunk: Buffer) => void {
  const unread = new ChunkQueue()
  /** A line read whose bytes have not all arrived. */
  let waiting: (FrameHeader & Record<string, unknown>) | undefined
  return (chunk) => {
    unread.push(chunk)
    for (;;) {
      if (waiting?.bytes !== undefined) {
        const { field, length } = waiting.bytes
        if (unread.length < length) return
        const { bytes: _, ...fields } = waiting
        waiting = undefined
        onMessage({ ...fields, [field]: unread.take(length) } as T)
        continue
      }
      const line = unread.takeLine()
      if (line === undefined) return
      const message = JSON.parse(line) as FrameHeader & Record<string, unknown>
      if (message.bytes === undefined) onMessage(message as T)
      else waiting = message
    }
  }
}

/** The bytes read and not yet taken, as the chunks they came in: a large body is copied once, when it is whole. */
class ChunkQueue {
  readonly #chunks: Buffer[] = []
  length = 0

  push(chunk: Buffer): void {
    if (chunk.length === 0) return
    this.#chunks.push(chunk)
    this.length += chunk.length
  }

  /** The next `count` bytes, in a buffer of their own (the chunks they came from are let go). */
  take(count: number): Buffer {
    const first = this.#chunks[0]
    if (first !== undefined && first.length === count) return this.#shift()
    const taken = Buffer.allocUnsafe(count)
    let filled = 0
    while (filled < count) {
      const chunk = this.#chunks[0]!
      const part = Math.min(chunk.length, count - filled)
      chunk.copy(taken, filled, 0, part)
      filled += part
      if (part === chunk.length) this.#shift()
      else {
        this.#chunks[0] = chunk.subarray(part)
        this.length -= part
      }
    }
    return taken
  }

  /** The next line without its newline, or undefined before its newline has arrived. */
  takeLine(): string | undefined {
    let before = 0
    for (const chunk of this.#chunks) {
      const end = chunk.indexOf(10)
      if (end >= 0) {
        const line = this.take(before + end).toString('utf8')
        this.take(1)
        return line
      }
      before += chunk.length
    }
    return undefined
  }

  #shift(): Buffer {
    const chunk = this.#chunks.shift()!
    this.length -= chunk.length
    return chunk
  }
}
