/** The process streams and environment a command works with (the real ones in `bin`). */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean }
  stderr: NodeJS.WritableStream & { isTTY?: boolean }
  stdin: NodeJS.ReadableStream & { isTTY?: boolean }
  env: Record<string, string | undefined>
  cwd: string
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() }
}

/** Resolves once everything written so far has been handed to the OS. */
export function flush(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    if (!stream.writable) return resolve()
    stream.write('', () => resolve())
  })
}

export function writeJson(stream: NodeJS.WritableStream, value: unknown): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`)
}
