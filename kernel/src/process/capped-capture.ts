/** Keeps the last `limit` bytes of a byte stream and counts every byte seen. */
export class CappedCapture {
  readonly #limit: number
  #chunks: Buffer[] = []
  #kept = 0
  #total = 0

  constructor(limit: number) {
    this.#limit = Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : 0
  }

  get totalBytes(): number {
    return this.#total
  }

  get keptBytes(): number {
    return this.#kept
  }

  get truncated(): boolean {
    return this.#total > this.#kept
  }

  push(chunk: Uint8Array): void {
    this.#total += chunk.byteLength
    if (this.#limit === 0 || chunk.byteLength === 0) return
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    if (bytes.byteLength >= this.#limit) {
      this.#chunks = [bytes.subarray(bytes.byteLength - this.#limit)]
      this.#kept = this.#limit
      return
    }
    this.#chunks.push(bytes)
    this.#kept += bytes.byteLength
    while (this.#kept > this.#limit) {
      const first = this.#chunks[0]!
      const excess = this.#kept - this.#limit
      if (first.byteLength <= excess) {
        this.#chunks.shift()
        this.#kept -= first.byteLength
      } else {
        this.#chunks[0] = first.subarray(excess)
        this.#kept -= excess
      }
    }
  }

  bytes(): Buffer {
    return Buffer.concat(this.#chunks, this.#kept)
  }

  /** The kept bytes as UTF-8, decoded in one piece so no character is split at a chunk boundary. */
  text(): string {
    let bytes = this.bytes()
    if (this.truncated) bytes = bytes.subarray(leadingContinuationBytes(bytes))
    return new TextDecoder('utf-8').decode(bytes)
  }
}

/** A kept tail may start inside a multibyte character; its orphaned continuation bytes (10xxxxxx) are dropped. */
function leadingContinuationBytes(bytes: Uint8Array): number {
  let count = 0
  while (count < 3 && count < bytes.length && (bytes[count]! & 0xc0) === 0x80) count++
  return count
}
