import { describe, expect, it } from 'vitest'
import { commandOf, presentTool, toolResponseFor } from '../src/io/tool-presentation.js'

describe('presentTool', () => {
  it('kernel shell is Bash with {command} only (checklist 32)', () => {
    expect(presentTool({ name: 'shell', input: { command: 'ls -la', timeout_ms: 5000, workdir: 'src' } }, { codex: 'Bash' })).toEqual({
      toolName: 'Bash',
      toolInput: { command: 'ls -la' },
      matchNames: ['Bash'],
    })
  })

  it('write_file also matches Write, edit_file also Edit; raw input', () => {
    const write = { path: 'a.txt', content: 'x' }
    expect(presentTool({ name: 'write_file', input: write }, { codex: 'write_file' })).toEqual({
      toolName: 'write_file',
      toolInput: write,
      matchNames: ['write_file', 'Write'],
    })
    const edit = { path: 'a.txt', old_string: 'x', new_string: 'y' }
    expect(presentTool({ name: 'edit_file', input: edit }, { codex: 'edit_file' })).toEqual({
      toolName: 'edit_file',
      toolInput: edit,
      matchNames: ['edit_file', 'Edit'],
    })
  })

  it('read_file and other tools keep their names and raw input', () => {
    expect(presentTool({ name: 'read_file', input: { path: 'a' } }, { codex: 'read_file' })).toEqual({
      toolName: 'read_file',
      toolInput: { path: 'a' },
      matchNames: ['read_file'],
    })
    expect(presentTool({ name: 'spawn_agent', input: { task: 't' } })).toEqual({
      toolName: 'spawn_agent',
      toolInput: { task: 't' },
      matchNames: ['spawn_agent'],
    })
    expect(presentTool({ name: 'constructor', input: 1 }).matchNames).toEqual(['constructor'])
  })

  it('the Codex alias names the tool', () => {
    expect(presentTool({ name: 'my_shell', input: { command: 'pwd', extra: 1 } }, { codex: 'Bash' }).toolInput).toEqual({ command: 'pwd' })
  })

  it('commandOf', () => {
    expect(commandOf({ command: 'echo' })).toBe('echo')
    expect(commandOf({ command: 3 })).toBe('')
    expect(commandOf(null)).toBe('')
  })
})

describe('toolResponseFor', () => {
  it('is the output text as it is (checklist 52)', () => {
    expect(toolResponseFor('shell', 'hello-from-tool\n')).toBe('hello-from-tool\n')
    expect(toolResponseFor('read_file', '1\tline')).toBe('1\tline')
    const toolOutput = { output: 'out\n[exit code: 3]', isError: true }
    expect(toolResponseFor('Bash', toolOutput)).toBe('out\n[exit code: 3]')
  })
})
