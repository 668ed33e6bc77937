import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { editFileTool } from '../src/index.js'
import { callTool, tempDir, toolContext } from './helpers.js'

const dir = tempDir()
afterAll(() => dir.remove())
const context = toolContext(dir.path)
const edit = editFileTool()

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir.path, name)
  writeFileSync(path, content)
  return path
}

describe('edit_file tool', () => {
  it('replaces a unique string', async () => {
    const path = file('unique.ts', 'const a = 1\nconst b = 2\n')
    const result = await callTool(edit, { path: 'unique.ts', old_string: 'const b = 2', new_string: 'const b = 3' }, context)
    expect(result).toEqual({
      output: `Edited ${path}: replaced 1 occurrence`,
      isError: false,
      details: {
        filePath: path,
        oldString: 'const b = 2',
        newString: 'const b = 3',
        replaceAll: false,
        originalFile: 'const a = 1\nconst b = 2\n',
        content: 'const a = 1\nconst b = 3\n',
      },
    })
    expect(readFileSync(path, 'utf8')).toBe('const a = 1\nconst b = 3\n')
  })

  it('inserts new_string literally, even with $ patterns', async () => {
    const path = file('dollar.txt', 'price: X\n')
    await callTool(edit, { path, old_string: 'X', new_string: "$& $' $1" }, context)
    expect(readFileSync(path, 'utf8')).toBe("price: $& $' $1\n")
  })

  it('fails when old_string is not found, leaving the file alone', async () => {
    const path = file('missing-string.txt', 'hello\n')
    const result = await callTool(edit, { path, old_string: 'goodbye', new_string: 'x' }, context)
    expect(result.isError).toBe(true)
    expect(result.output).toMatch(/^old_string was not found in .*missing-string\.txt/)
    expect(readFileSync(path, 'utf8')).toBe('hello\n')
  })

  it('fails when old_string is not unique, saying how many matches', async () => {
    const path = file('repeated.txt', 'x = 1\nx = 1\nx = 1\n')
    const result = await callTool(edit, { path, old_string: 'x = 1', new_string: 'x = 2' }, context)
    expect(result.isError).toBe(true)
    expect(result.output).toMatch(/matches 3 times/)
    expect(readFileSync(path, 'utf8')).toBe('x = 1\nx = 1\nx = 1\n')
  })

  it('replaces every occurrence with replace_all', async () => {
    const path = file('replace-all.txt', 'x = 1\nx = 1\nx = 1\n')
    const result = await callTool(edit, { path, old_string: 'x = 1', new_string: 'x = 2', replace_all: true }, context)
    expect(result).toMatchObject({ output: `Edited ${path}: replaced 3 occurrences`, isError: false, details: { replaceAll: true } })
    expect(readFileSync(path, 'utf8')).toBe('x = 2\nx = 2\nx = 2\n')
  })

  it('counts non-overlapping matches', async () => {
    const path = file('overlap.txt', 'aaaa')
    const result = await callTool(edit, { path, old_string: 'aa', new_string: 'b', replace_all: true }, context)
    expect(result.output).toMatch(/replaced 2 occurrences/)
    expect(readFileSync(path, 'utf8')).toBe('bb')
  })

  it('keeps a byte order mark', async () => {
    const path = file('bom.txt', '\uFEFFone two\n')
    await callTool(edit, { path, old_string: 'one', new_string: 'uno' }, context)
    expect(readFileSync(path, 'utf8')).toBe('\uFEFFuno two\n')
  })

  it('refuses a file that is not UTF-8 instead of corrupting it', async () => {
    const bytes = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a])
    const path = file('latin1.txt', bytes)
    const result = await callTool(edit, { path, old_string: 'caf', new_string: 'tea' }, context)
    expect(result).toEqual({ output: `${path} is not valid UTF-8 text; edit_file only edits UTF-8 files`, isError: true })
    expect(new Uint8Array(readFileSync(path))).toEqual(bytes)
  })

  it('fails when old_string equals new_string', async () => {
    file('same.txt', 'same\n')
    const result = await callTool(edit, { path: 'same.txt', old_string: 'same', new_string: 'same' }, context)
    expect(result).toEqual({ output: 'old_string and new_string are identical: nothing to change', isError: true })
  })

  it('fails on a missing file', async () => {
    expect(await callTool(edit, { path: 'nope.txt', old_string: 'a', new_string: 'b' }, context)).toEqual({
      output: `File not found: ${join(dir.path, 'nope.txt')}`,
      isError: true,
    })
  })

  it('rejects an empty old_string', () => {
    expect(edit.inputSchema.safeParse({ path: 'x', old_string: '', new_string: 'y' }).success).toBe(false)
  })

  it('has the foreign names as aliases', () => {
    expect(edit).toMatchObject({ name: 'edit_file', aliases: { codex: 'edit_file', claudeCode: 'Edit' } })
  })
})
