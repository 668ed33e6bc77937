import { stat } from 'node:fs/promises'
import { defineTool, type ToolDefinition, type ToolOutput } from '@harness-kernel/kernel'
import { z } from 'zod'
import { describeFsError, resolvePath } from './fs-errors.js'
import { readLines } from './read-lines.js'

export interface ReadFileToolOptions {
  /** Most bytes returned by one call. Default 128 KiB. */
  maxReadBytes?: number
}

export interface ReadFileInput {
  path: string
  offset?: number | undefined
  limit?: number | undefined
}

export function readFileTool(options: ReadFileToolOptions = {}): ToolDefinition<ReadFileInput> {
  const maxBytes = options.maxReadBytes ?? 128 * 1024
  const inputSchema = z
    .object({
      path: z.string().min(1).describe("The file: absolute, or relative to the session's working directory."),
      offset: z.number().int().min(1).optional().describe('First line to return, 1-based. Default 1.'),
      limit: z.number().int().min(1).optional().describe('How many lines to return. Default: as many as fit.'),
    })
    .describe('A text file to read, whole or a range of lines.')
  return defineTool<ReadFileInput>({
    name: 'read_file',
    description:
      `Reads a UTF-8 text file and returns its content exactly (no line numbers). At most ${maxBytes} bytes are returned per call; ` +
      'when the file is longer the output says so and which offset to continue from.',
    inputSchema,
    aliases: { codex: 'read_file', claudeCode: 'Read' },
    parallel: true,
    execute: (input, context) => readFile(resolvePath(context.cwd, input.path), input.offset ?? 1, input.limit, maxBytes),
  })
}

async function readFile(file: string, offset: number, limit: number | undefined, maxBytes: number): Promise<ToolOutput> {
  try {
    const stats = await stat(file)
    if (stats.isDirectory()) return { output: `${file} is a directory, not a file`, isError: true }
    if (!stats.isFile()) return { output: `${file} is not a regular file`, isError: true }
    const slice = await readLines(file, offset, limit ?? Number.POSITIVE_INFINITY, maxBytes)
    if (slice.bytes.includes(0))
      return { output: `${file} looks like a binary file (it contains NUL bytes); read_file only reads text`, isError: true }
    if (slice.bytes.length === 0) {
      if (offset === 1) return { output: '[empty file]', isError: false }
      return { output: `offset ${offset} is past the end of ${file} (${slice.linesInFile} lines)`, isError: true }
    }
    const output = slice.bytes.length <= maxBytes ? decode(slice.bytes) : capped(slice.bytes, offset, maxBytes)
    // For dialects that show the program's own result (Claude Code's Read `tool_response`).
    const details = { filePath: file, startLine: offset, linesInFile: slice.linesInFile, endsWithNewline: slice.endsWithNewline }
    return { output, isError: false, details }
  } catch (error) {
    return { output: describeFsError(error, file, 'read'), isError: true }
  }
}

/** Output over the cap ends at the last whole line, with a note saying where to continue. */
function capped(bytes: Buffer, offset: number, maxBytes: number): string {
  const kept = bytes.subarray(0, maxBytes)
  const lastNewline = kept.lastIndexOf(0x0a)
  if (lastNewline === -1) {
    const text = decode(kept.subarray(0, utf8Boundary(kept)))
    return `${text}\n[line ${offset} is longer than ${maxBytes} bytes; only its start is shown]`
  }
  const whole = kept.subarray(0, lastNewline + 1)
  let lines = 0
  for (const byte of whole) if (byte === 0x0a) lines++
  const last = offset + lines - 1
  return `${decode(whole)}[output capped at ${maxBytes} bytes: showed lines ${offset}-${last}; continue with offset ${last + 1}]`
}

function decode(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
}

/** Length of `bytes` without a multibyte character cut off at its end. */
function utf8Boundary(bytes: Uint8Array): number {
  let end = bytes.length
  let back = 0
  while (back < 3 && end - back - 1 >= 0 && (bytes[end - back - 1]! & 0xc0) === 0x80) back++
  const lead = bytes[end - back - 1]
  if (lead === undefined || lead < 0xc0) return end
  const width = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2
  if (back + 1 < width) end -= back + 1
  return end
}
