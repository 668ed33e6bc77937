import { readFile } from 'node:fs/promises'
import { defineTool, type ToolDefinition, type ToolOutput, type ToolSandbox } from '@harness-kernel/kernel'
import { z } from 'zod'
import { describeFsError, resolvePath } from './fs-errors.js'

export interface EditFileInput {
  path: string
  old_string: string
  new_string: string
  replace_all?: boolean | undefined
}

export function editFileTool(): ToolDefinition<EditFileInput> {
  const inputSchema = z
    .object({
      path: z.string().min(1).describe("The file: absolute, or relative to the session's working directory."),
      old_string: z.string().min(1).describe('The exact text to replace, including whitespace and indentation.'),
      new_string: z.string().describe('The text to put in its place.'),
      replace_all: z.boolean().optional().describe('Replace every occurrence. Default false: old_string must occur exactly once.'),
    })
    .describe('An exact string replacement in a text file.')
  return defineTool<EditFileInput>({
    name: 'edit_file',
    description:
      'Replaces an exact string in a UTF-8 text file. Fails when old_string is not found, or when it occurs more than once ' +
      'and replace_all is not set: then add surrounding lines to old_string to make it unique.',
    inputSchema,
    aliases: { codex: 'edit_file', claudeCode: 'Edit' },
    guard: (input, { cwd }) => ({ kind: 'fileChange', paths: [resolvePath(cwd, input.path)], cwd }),
    execute: (input, context) => editFile(resolvePath(context.cwd, input.path), input, context.sandbox),
  })
}

async function editFile(file: string, input: EditFileInput, sandbox: ToolSandbox): Promise<ToolOutput> {
  if (input.old_string === input.new_string) return { output: 'old_string and new_string are identical: nothing to change', isError: true }
  let text: string
  try {
    // Fatal decoding refuses non-UTF-8 files rather than corrupting them on write; the BOM is kept as a character.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(await readFile(file))
  } catch (error) {
    if (error instanceof TypeError) return { output: `${file} is not valid UTF-8 text; edit_file only edits UTF-8 files`, isError: true }
    return { output: describeFsError(error, file, 'edit'), isError: true }
  }
  const matches = countOccurrences(text, input.old_string)
  if (matches === 0) {
    return { output: `old_string was not found in ${file} (it must match exactly, including whitespace and indentation)`, isError: true }
  }
  if (matches > 1 && input.replace_all !== true) {
    return {
      output: `old_string matches ${matches} times in ${file}; include more surrounding context to make it unique, or set replace_all to replace all ${matches}`,
      isError: true,
    }
  }
  const index = text.indexOf(input.old_string)
  const updated =
    input.replace_all === true
      ? text.split(input.old_string).join(input.new_string)
      : text.slice(0, index) + input.new_string + text.slice(index + input.old_string.length)
  try {
    await sandbox.writeFile(file, updated)
  } catch (error) {
    return { output: describeFsError(error, file, 'edit'), isError: true }
  }
  return {
    output: `Edited ${file}: replaced ${matches} ${matches === 1 ? 'occurrence' : 'occurrences'}`,
    isError: false,
    // For dialects that show the program's own result (Claude Code's Edit `tool_response` with its patch).
    details: {
      filePath: file,
      oldString: input.old_string,
      newString: input.new_string,
      replaceAll: input.replace_all === true,
      originalFile: text,
      content: updated,
    },
  }
}

/** Non-overlapping occurrences, the same ones `split` replaces. */
function countOccurrences(text: string, search: string): number {
  let count = 0
  for (let index = text.indexOf(search); index !== -1; index = text.indexOf(search, index + search.length)) count++
  return count
}
