import { readFile } from 'node:fs/promises'
import { defineTool, type ToolDefinition } from '@harness-kernel/kernel'
import { z } from 'zod'
import { describeFsError, resolvePath } from './fs-errors.js'

export interface WriteFileInput {
  path: string
  content: string
}

export function writeFileTool(): ToolDefinition<WriteFileInput> {
  const inputSchema = z
    .object({
      path: z.string().min(1).describe("The file: absolute, or relative to the session's working directory."),
      content: z.string().describe('The complete new content of the file.'),
    })
    .describe('A file to create or overwrite.')
  return defineTool<WriteFileInput>({
    name: 'write_file',
    description: 'Writes a UTF-8 text file, replacing it if it exists and creating missing parent directories.',
    inputSchema,
    aliases: { codex: 'write_file', claudeCode: 'Write' },
    guard: (input, { cwd }) => ({ kind: 'fileChange', paths: [resolvePath(cwd, input.path)], cwd }),
    async execute(input, context) {
      const file = resolvePath(context.cwd, input.path)
      // What was there, for dialects that show it (Claude Code's Write `tool_response`): null for a new file.
      const originalFile = await readFile(file, 'utf8').catch(() => null)
      try {
        // Through the sandbox: parents are created there, and what the policy refuses fails with EROFS.
        await context.sandbox.writeFile(file, input.content)
      } catch (error) {
        return { output: describeFsError(error, file, 'write'), isError: true }
      }
      return {
        output: `Wrote ${Buffer.byteLength(input.content, 'utf8')} bytes to ${file}`,
        isError: false,
        details: { filePath: file, content: input.content, originalFile },
      }
    },
  })
}
