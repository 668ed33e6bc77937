import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bwrapSandbox, DEFAULT_GUARDRAILS_POLICY, type Session, type ToolContext, type ToolDefinition } from '@harness-kernel/kernel'
import { editFileTool, readFileTool, writeFileTool } from '@harness-kernel/tools'
import { describe, expect, it } from 'vitest'
import { toolFailureError, toolResponse } from '../src/index.js'

/**
 * The kernel's file tools run for real; what PostToolUse gets is compared with what the real Claude Code 2.1.332 sent
 * for the same calls (`claude -p` against the fake Messages API, 2 runs, values copied from its hook payloads).
 */
const dir = mkdtempSync(join(tmpdir(), 'hk-claude-file-tools-'))
const signal = new AbortController().signal
const sandbox = bwrapSandbox()
const policy = DEFAULT_GUARDRAILS_POLICY.sandbox
// Files are written through the kernel's default sandbox, as in a session.
const context = {
  session: {} as Session,
  cwd: dir,
  callId: 'c',
  signal,
  sandbox: { policy, writeFile: (path, content) => sandbox.writeFile({ policy, cwd: dir, path, content, signal }) },
} as ToolContext
const run = async <Input>(tool: ToolDefinition<Input>, input: unknown) => tool.execute(tool.inputSchema.parse(input), context)
const twenty = Array.from({ length: 20 }, (_, index) => `line ${index + 1}\n`).join('')

describe('Claude Code’s tool_response for its file tools, from the kernel tools’ results', () => {
  it('Read: the text shown, numLines and totalLines counted as split("\\n") counts them', async () => {
    const path = join(dir, 'twenty.txt')
    writeFileSync(path, twenty)
    expect(toolResponse('Read', await run(readFileTool(), { path }))).toEqual({
      type: 'text',
      file: { filePath: path, content: twenty, numLines: 21, startLine: 1, totalLines: 21 },
    })
    expect(toolResponse('Read', await run(readFileTool(), { path, offset: 5, limit: 3 }))).toEqual({
      type: 'text',
      file: { filePath: path, content: 'line 5\nline 6\nline 7', numLines: 3, startLine: 5, totalLines: 21 },
    })
    const noNewline = join(dir, 'nonl.txt')
    writeFileSync(noNewline, 'a\nb\nc')
    expect(toolResponse('Read', await run(readFileTool(), { path: noNewline }))).toEqual({
      type: 'text',
      file: { filePath: noNewline, content: 'a\nb\nc', numLines: 3, startLine: 1, totalLines: 3 },
    })
  })

  it('Edit: the strings, the file before, and its patch with 3 lines of context', async () => {
    const path = join(dir, 'edit.txt')
    writeFileSync(path, twenty)
    expect(toolResponse('Edit', await run(editFileTool(), { path, old_string: 'line 10\n', new_string: 'line ten\n' }))).toEqual({
      filePath: path,
      oldString: 'line 10\n',
      newString: 'line ten\n',
      originalFile: twenty,
      structuredPatch: [
        {
          oldStart: 7,
          oldLines: 7,
          newStart: 7,
          newLines: 7,
          lines: [' line 7', ' line 8', ' line 9', '-line 10', '+line ten', ' line 11', ' line 12', ' line 13'],
        },
      ],
      userModified: false,
      replaceAll: false,
    })
  })

  it('Write: create with no patch, update with one (a missing final newline noted as jsdiff does)', async () => {
    const path = join(dir, 'new.txt')
    expect(toolResponse('Write', await run(writeFileTool(), { path, content: 'hello\n' }))).toEqual({
      type: 'create',
      filePath: path,
      content: 'hello\n',
      structuredPatch: [],
      originalFile: null,
      userModified: false,
    })
    const existing = join(dir, 'update.txt')
    writeFileSync(existing, 'a\nb\nc')
    expect(toolResponse('Write', await run(writeFileTool(), { path: existing, content: 'a\nB\nc' }))).toEqual({
      type: 'update',
      filePath: existing,
      content: 'a\nB\nc',
      structuredPatch: [
        { oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' a', '-b', '+B', ' c', '\\ No newline at end of file'] },
      ],
      originalFile: 'a\nb\nc',
      userModified: false,
    })
  })

  it('a failed Bash call reads `Exit code <n>`, then its stdout, then its stderr', () => {
    const details = { stdout: 'out\n', stderr: 'err\n', exitCode: 3, signal: null, timedOut: false }
    expect(toolFailureError('Bash', { output: 'x', isError: true, details })).toBe('Exit code 3\nout\nerr')
  })
})
