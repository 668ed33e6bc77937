import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { writeFileTool } from '../src/index.js'
import { callTool, tempDir, toolContext } from './helpers.js'

const dir = tempDir()
afterAll(() => dir.remove())
const context = toolContext(dir.path)
const write = writeFileTool()

describe('write_file tool', () => {
  it('creates parent directories and writes the content', async () => {
    const result = await callTool(write, { path: 'a/b/new.txt', content: 'héllo\n' }, context)
    const path = join(dir.path, 'a/b/new.txt')
    expect(result).toEqual({
      output: `Wrote 7 bytes to ${path}`,
      isError: false,
      details: { filePath: path, content: 'héllo\n', originalFile: null },
    })
    expect(readFileSync(path, 'utf8')).toBe('héllo\n')
  })

  it('overwrites an existing file', async () => {
    const path = join(dir.path, 'existing.txt')
    writeFileSync(path, 'old content that is longer')
    await callTool(write, { path, content: 'new' }, context)
    expect(readFileSync(path, 'utf8')).toBe('new')
  })

  it('writes an empty file', async () => {
    expect((await callTool(write, { path: 'empty.txt', content: '' }, context)).output).toBe(
      `Wrote 0 bytes to ${join(dir.path, 'empty.txt')}`,
    )
  })

  it('fails when the path is a directory', async () => {
    mkdirSync(join(dir.path, 'a-dir'), { recursive: true })
    expect(await callTool(write, { path: 'a-dir', content: 'x' }, context)).toEqual({
      output: `${join(dir.path, 'a-dir')} is a directory, not a file`,
      isError: true,
    })
  })

  it('fails when a parent is a file', async () => {
    writeFileSync(join(dir.path, 'plain'), '')
    const result = await callTool(write, { path: 'plain/child.txt', content: 'x' }, context)
    expect(result.isError).toBe(true)
    expect(result.output).toMatch(/not a directory|already exists|File exists/)
  })

  it('has the foreign names as aliases and is not parallel', () => {
    expect(write).toMatchObject({ name: 'write_file', aliases: { codex: 'write_file', claudeCode: 'Write' } })
    expect(write.parallel).toBeFalsy()
  })
})
