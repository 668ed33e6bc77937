import { structuredPatch } from 'diff'

type Details = Record<string, unknown>

/** A hunk as Claude Code puts it in `structuredPatch`: jsdiff's, 3 lines of context, `\ No newline at end of file` kept. */
export interface PatchHunk {
  oldStart: number
  oldLines: number
  newStart: number
  newLines: number
  lines: string[]
}

export function patchHunks(before: string, after: string): PatchHunk[] {
  return structuredPatch('a', 'b', before, after, undefined, undefined, { context: 3 }).hunks.map(
    ({ oldStart, oldLines, newStart, newLines, lines }) => ({ oldStart, oldLines, newStart, newLines, lines }),
  )
}

/**
 * Claude Code's `tool_response` for its file tools, from the kernel tool's `details` (observed on Claude Code 2.1.332,
 * `claude -p`, 2 runs): Write `{type: create|update, filePath, content, structuredPatch, originalFile, userModified}`,
 * Edit `{filePath, oldString, newString, originalFile, structuredPatch, userModified, replaceAll}`, Read `{type: text,
 * file: {filePath, content, numLines, startLine, totalLines}}` (lines counted as `split('\n')` counts them). Undefined
 * when the details are not there (another tool under the same name).
 */
export function fileToolResponse(toolName: string, details: Details | undefined, output: string): unknown {
  if (details === undefined || typeof details.filePath !== 'string') return undefined
  if (toolName === 'Write' && typeof details.content === 'string') {
    const original = typeof details.originalFile === 'string' ? details.originalFile : null
    return {
      type: original === null ? 'create' : 'update',
      filePath: details.filePath,
      content: details.content,
      structuredPatch: original === null ? [] : patchHunks(original, details.content),
      originalFile: original,
      userModified: false,
    }
  }
  if (toolName === 'Edit' && typeof details.originalFile === 'string' && typeof details.content === 'string') {
    return {
      filePath: details.filePath,
      oldString: details.oldString,
      newString: details.newString,
      originalFile: details.originalFile,
      structuredPatch: patchHunks(details.originalFile, details.content),
      userModified: false,
      replaceAll: details.replaceAll === true,
    }
  }
  if (toolName === 'Read' && typeof details.startLine === 'number' && typeof details.linesInFile === 'number') {
    const startLine = details.startLine
    const text = output === '[empty file]' ? '' : output
    const shownLines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
    // Claude Code joins the lines it shows with newlines: the last one keeps its newline only at the end of the file.
    const reachedEnd = startLine - 1 + shownLines >= details.linesInFile
    const content = !reachedEnd && text.endsWith('\n') ? text.slice(0, -1) : text
    const totalLines = details.endsWithNewline === false ? details.linesInFile : details.linesInFile + 1
    return { type: 'text', file: { filePath: details.filePath, content, numLines: content.split('\n').length, startLine, totalLines } }
  }
  return undefined
}
