import { open } from 'node:fs/promises'

export interface LineSlice {
  /** At most `maxBytes + 1` bytes of the requested lines, so a caller can tell the cap was hit. */
  bytes: Buffer
  /** Lines in the file (a last line without a newline counts): the file is scanned to its end. */
  linesInFile: number
  /** Whether the file's last byte is a newline (an empty file: true). */
  endsWithNewline: boolean
}

const CHUNK_BYTES = 64 * 1024

/** Reads lines `firstLine`… (1-based, at most `maxLines`) of a file, keeping line endings, stopping after `maxBytes + 1` bytes. */
export async function readLines(file: string, firstLine: number, maxLines: number, maxBytes: number): Promise<LineSlice> {
  const handle = await open(file, 'r')
  try {
    const chunk = Buffer.alloc(CHUNK_BYTES)
    const parts: Buffer[] = []
    let size = 0
    let line = 1
    let endsWithNewline = true
    const lastLine = firstLine + maxLines - 1
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null)
      if (bytesRead === 0) return { bytes: Buffer.concat(parts, size), linesInFile: endsWithNewline ? line - 1 : line, endsWithNewline }
      const data = chunk.subarray(0, bytesRead)
      endsWithNewline = data[bytesRead - 1] === 0x0a
      let position = 0
      while (position < bytesRead) {
        const newline = data.indexOf(0x0a, position)
        const end = newline === -1 ? bytesRead : newline + 1
        // Past the slice (or the cap) lines are only counted.
        if (line >= firstLine && line <= lastLine && size <= maxBytes) {
          const piece = data.subarray(position, Math.min(end, position + maxBytes + 1 - size))
          parts.push(Buffer.from(piece))
          size += piece.length
        }
        if (newline !== -1) line++
        position = end
      }
    }
  } finally {
    await handle.close()
  }
}
