import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readFileTool } from '../src/index.js'
import { callTool, tempDir, toolContext } from './helpers.js'

const dir = tempDir()
afterAll(() => dir.remove())
const context = toolContext(dir.path)
const read = readFileTool()

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir.path, name)
  writeFileSync(path, content)
  return path
}

describe('read_file tool', () => {
  it('returns the exact content, relative to the session cwd', async () => {
    file('plain.txt', 'héllo\nwörld')
    expect(await callTool(read, { path: 'plain.txt' }, context)).toEqual({
      output: 'héllo\nwörld',
      isError: false,
      details: { filePath: join(dir.path, 'plain.txt'), startLine: 1, linesInFile: 2, endsWithNewline: false },
    })
  })

  it('reads an absolute path', async () => {
    const path = file('absolute.txt', 'abc\n')
    expect(await callTool(read, { path }, toolContext('/'))).toMatchObject({
      output: 'abc\n',
      isError: false,
      details: { filePath: path, startLine: 1, linesInFile: 1, endsWithNewline: true },
    })
  })

  it('returns a range of lines with offset and limit', async () => {
    file('lines.txt', 'a\nb\nc\nd\n')
    expect((await callTool(read, { path: 'lines.txt', offset: 2, limit: 2 }, context)).output).toBe('b\nc\n')
    expect((await callTool(read, { path: 'lines.txt', offset: 3 }, context)).output).toBe('c\nd\n')
    expect((await callTool(read, { path: 'lines.txt', limit: 1 }, context)).output).toBe('a\n')
  })

  it('counts lines across read chunks', async () => {
    const lines = Array.from({ length: 50_000 }, (_, index) => `line ${index + 1}`)
    file('big.txt', `${lines.join('\n')}\n`)
    const slice = await callTool(read, { path: 'big.txt', offset: 40_000, limit: 2 }, context)
    expect(slice.output).toBe('line 40000\nline 40001\n')
    // The whole file is counted, past the slice.
    expect(slice.details).toMatchObject({ startLine: 40_000, linesInFile: 50_000, endsWithNewline: true })
  })

  it('caps the output at whole lines and says where to continue', async () => {
    file('capped.txt', 'line1\nline2\nline3\n')
    const small = readFileTool({ maxReadBytes: 14 })
    expect(await callTool(small, { path: 'capped.txt' }, context)).toEqual({
      output: 'line1\nline2\n[output capped at 14 bytes: showed lines 1-2; continue with offset 3]',
      isError: false,
      details: { filePath: join(dir.path, 'capped.txt'), startLine: 1, linesInFile: 3, endsWithNewline: true },
    })
    expect((await callTool(small, { path: 'capped.txt', offset: 3 }, context)).output).toBe('line3\n')
  })

  it('shows the start of a line longer than the cap without splitting a character', async () => {
    file('long-line.txt', 'ééééé\n')
    const result = await callTool(readFileTool({ maxReadBytes: 5 }), { path: 'long-line.txt' }, context)
    expect(result.output).toBe('éé\n[line 1 is longer than 5 bytes; only its start is shown]')
  })

  it('says when a file is empty', async () => {
    file('empty.txt', '')
    expect(await callTool(read, { path: 'empty.txt' }, context)).toEqual({ output: '[empty file]', isError: false })
  })

  it('fails on an offset past the end', async () => {
    file('short.txt', 'a\nb\n')
    expect(await callTool(read, { path: 'short.txt', offset: 5 }, context)).toEqual({
      output: `offset 5 is past the end of ${join(dir.path, 'short.txt')} (2 lines)`,
      isError: true,
    })
  })

  it('fails on a missing file', async () => {
    expect(await callTool(read, { path: 'missing.txt' }, context)).toEqual({
      output: `File not found: ${join(dir.path, 'missing.txt')}`,
      isError: true,
    })
  })

  it('fails on a directory', async () => {
    mkdirSync(join(dir.path, 'a-dir'), { recursive: true })
    expect(await callTool(read, { path: 'a-dir' }, context)).toEqual({
      output: `${join(dir.path, 'a-dir')} is a directory, not a file`,
      isError: true,
    })
  })

  it('refuses a binary file', async () => {
    file('binary.bin', new Uint8Array([0x7f, 0x45, 0x00, 0x01]))
    const result = await callTool(read, { path: 'binary.bin' }, context)
    expect(result.isError).toBe(true)
    expect(result.output).toMatch(/binary file/)
  })

  it('rejects offset 0 and a non-integer limit', () => {
    expect(read.inputSchema.safeParse({ path: 'x', offset: 0 }).success).toBe(false)
    expect(read.inputSchema.safeParse({ path: 'x', limit: 1.5 }).success).toBe(false)
  })

  it('is parallel, with the foreign names as aliases', () => {
    expect(read).toMatchObject({ name: 'read_file', parallel: true, aliases: { codex: 'read_file', claudeCode: 'Read' } })
  })
})
