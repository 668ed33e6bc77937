/** Calls `onLine` for every `\n`-terminated line of `input` (UTF-8; a trailing `\r` is removed; blank lines skipped). */
export function readLines(input: NodeJS.ReadableStream, onLine: (line: string) => void, onEnd: () => void): () => void {
  let buffer = ''
  input.setEncoding('utf8')
  const onData = (chunk: string) => {
    buffer += chunk
    for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
      const line = buffer.slice(0, newline).replace(/\r$/, '')
      buffer = buffer.slice(newline + 1)
      if (line.trim() !== '') onLine(line)
    }
  }
  const finish = () => {
    if (buffer.trim() !== '') onLine(buffer)
    buffer = ''
    input.off('data', onData)
    onEnd()
  }
  input.on('data', onData as (chunk: string | Buffer) => void)
  input.once('end', finish)
  return () => {
    input.off('data', onData)
    input.off('end', finish)
  }
}

/** Writes one JSON object per line. Returns false once the stream is closed. */
export function writeLine(output: NodeJS.WritableStream, message: unknown): boolean {
  const state = output as { destroyed?: boolean; writableEnded?: boolean }
  if (state.destroyed || state.writableEnded) return false
  output.write(`${JSON.stringify(message)}\n`)
  return true
}
