import { describe, expect, it } from 'vitest'
import { inputFromClaude, presentTool, toolFailureError, toolResponse } from '../src/index.js'

describe('tool presentation in Claude names and shapes (claude-code-hooks.md §3)', () => {
  it('shell is Bash {command, description, timeout?, run_in_background?}', () => {
    expect(presentTool('shell', { command: 'ls', timeout_ms: 5, workdir: 'x' }, { claudeCode: 'Bash' }, '/p')).toEqual({
      toolName: 'Bash',
      toolInput: { command: 'ls', timeout: 5 },
    })
    expect(presentTool('shell', { command: 'ls', description: 'list' }, { claudeCode: 'Bash' }, '/p').toolInput).toEqual({
      command: 'ls',
      description: 'list',
    })
  })

  it('file tools take absolute `file_path`', () => {
    expect(presentTool('read_file', { path: 'a.txt', offset: 2 }, { claudeCode: 'Read' }, '/p')).toEqual({
      toolName: 'Read',
      toolInput: { file_path: '/p/a.txt', offset: 2 },
    })
    expect(presentTool('write_file', { path: '/abs/b', content: 'c' }, { claudeCode: 'Write' }, '/p').toolInput).toEqual({
      file_path: '/abs/b',
      content: 'c',
    })
    expect(presentTool('edit_file', { path: 'e', old_string: 'o', new_string: 'n' }, { claudeCode: 'Edit' }, '/p').toolInput).toEqual({
      file_path: '/p/e',
      old_string: 'o',
      new_string: 'n',
    })
  })

  it('other tools keep their name and input', () => {
    expect(presentTool('mcp__memory__get', { k: 1 }, undefined, '/p')).toEqual({ toolName: 'mcp__memory__get', toolInput: { k: 1 } })
  })

  it('updatedInput replaces the whole input and maps back to the kernel’s names', () => {
    expect(inputFromClaude('Bash', { command: 'x', timeout: 9 })).toEqual({ command: 'x', timeout_ms: 9 })
    expect(inputFromClaude('Write', { file_path: '/f', content: 'c' })).toEqual({ path: '/f', content: 'c' })
    expect(inputFromClaude('Other', { a: 1 })).toEqual({ a: 1 })
  })

  it('Bash tool_response is {stdout, stderr, interrupted, isImage, noOutputExpected} without final newlines', () => {
    const details = { stdout: 'hi\n', stderr: '', exitCode: 0, signal: null, timedOut: false }
    expect(toolResponse('Bash', { output: 'hi', isError: false, details })).toEqual({
      stdout: 'hi',
      stderr: '',
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
    })
    expect(toolResponse('Read', { output: 'text', isError: false })).toBe('text')
  })

  it('a failed Bash call reads `Exit code <n>\\n<stderr>`', () => {
    const details = { stdout: '', stderr: 'oops\n', exitCode: 3, signal: null, timedOut: false }
    expect(toolFailureError('Bash', { output: 'x', isError: true, details })).toBe('Exit code 3\noops')
    expect(toolFailureError('Read', { output: 'ENOENT', isError: true })).toBe('ENOENT')
  })
})

describe('Bash noOutputExpected', () => {
  const bashResult = { output: '', isError: false, details: { stdout: '', stderr: '', exitCode: 0 } }
  it('is true when every command of the line prints nothing on success (Claude Code 2.1.332’s list), else false', () => {
    const expected = (command: string) => (toolResponse('Bash', bashResult, { command }) as { noOutputExpected: boolean }).noOutputExpected
    expect(expected('touch a && touch b')).toBe(true)
    expect(expected('mkdir -p d; rm -f x')).toBe(true)
    expect(expected('touch a && echo done')).toBe(false)
    expect(expected('echo hi')).toBe(false)
  })
})

describe('the shell tool’s request to run outside the sandbox', () => {
  it('is Claude Code’s dangerouslyDisableSandbox in the Bash view, and back', () => {
    const view = presentTool('shell', { command: 'ls', sandbox_permissions: 'require_escalated' }, { claudeCode: 'Bash' }, '/p')
    expect(view.toolInput).toEqual({ command: 'ls', dangerouslyDisableSandbox: true })
    expect(inputFromClaude('Bash', { command: 'ls', dangerouslyDisableSandbox: true })).toEqual({
      command: 'ls',
      sandbox_permissions: 'require_escalated',
    })
  })
})
