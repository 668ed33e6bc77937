import { CliError } from './cli-error.js'
import type { CliIo } from './io.js'

/** The prompt from the argument, or from stdin when the argument is `-` or absent and stdin is not a terminal. */
export async function readPrompt(argument: string | undefined, io: CliIo): Promise<string> {
  let prompt: string
  if (argument !== undefined && argument !== '-') prompt = argument
  else if (argument === '-' || io.stdin.isTTY !== true) prompt = await readAll(io.stdin)
  else throw new CliError('no prompt: pass it as an argument (harness run "…") or on stdin (echo "…" | harness run)')
  if (prompt.trim() === '') throw new CliError('the prompt is empty')
  return prompt.replace(/\r?\n$/, '')
}

/** Everything on `stream` until it ends, decoded as UTF-8. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks).toString('utf8')
}
