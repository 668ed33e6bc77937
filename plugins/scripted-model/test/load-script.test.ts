import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { loadScript, ScriptError } from '../src/index.js'
import { tempDir, tempFile } from './helpers.js'

const yamlScript = `
steps:
  - text: Let me look.
    tool_calls:
      - name: read
        input: { path: README.md }
  - error: { message: overloaded, retryable: true, status: 529 }
  - text: Done.
`

describe('loadScript', () => {
  it('reads a YAML file with a steps key', () => {
    expect(loadScript(tempFile('script.yaml', yamlScript))).toEqual([
      { text: 'Let me look.', tool_calls: [{ name: 'read', input: { path: 'README.md' } }] },
      { error: { message: 'overloaded', retryable: true, status: 529 } },
      { text: 'Done.' },
    ])
  })

  it('reads a top-level YAML array from a .yml file', () => {
    const file = tempFile('script.yml', '- text: one\n- tool_calls: [{ name: bash, input: { command: ls }, id: my-id }]\n')
    expect(loadScript(file)).toEqual([{ text: 'one' }, { tool_calls: [{ name: 'bash', input: { command: 'ls' }, id: 'my-id' }] }])
  })

  it('reads JSON in both forms', () => {
    const steps = [{ text: 'hi' }, { error: { message: 'nope', retryable: false } }]
    expect(loadScript(tempFile('script.json', JSON.stringify(steps)))).toEqual(steps)
    expect(loadScript(tempFile('script.json', JSON.stringify({ steps })))).toEqual(steps)
  })

  it('resolves a relative path against process.cwd()', () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'scripts'))
    writeFileSync(join(dir, 'scripts', 'script.yaml'), '- text: relative\n')
    vi.spyOn(process, 'cwd').mockReturnValue(dir)
    try {
      expect(loadScript('scripts/script.yaml')).toEqual([{ text: 'relative' }])
    } finally {
      vi.restoreAllMocks()
    }
  })

  it('names the file, the step (from 1) and the field in validation errors', () => {
    const file = tempFile('script.yaml', '- text: ok\n- text: ok\n- tool_calls:\n    - name: 3\n      input: {}\n')
    expect(() => loadScript(file)).toThrow(`${file}: step 3: tool_calls.0.name: expected string, received number`)
  })

  it('reports every problem, one per line', () => {
    const file = tempFile(
      'script.json',
      JSON.stringify([
        { txt: 'typo' },
        { tool_calls: [{ name: 'read' }] },
        { error: { message: 'x' } },
        { error: { message: 'x', retryable: true }, text: 'y' },
      ]),
    )
    let thrown: unknown
    try {
      loadScript(file)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ScriptError)
    expect((thrown as Error).message.split('\n')).toEqual([
      `${file}: step 1: Unrecognized key: "txt"`,
      `${file}: step 2: tool_calls.0.input: required`,
      `${file}: step 3: error.retryable: required (expected boolean)`,
      `${file}: step 4: Unrecognized key: "text"`,
    ])
  })

  it('rejects a step that is not an object', () => {
    const file = tempFile('script.yaml', '- just a string\n')
    expect(() => loadScript(file)).toThrow(`${file}: step 1: expected object, received string`)
  })

  it('rejects a document that is neither a list nor { steps }', () => {
    expect(() => loadScript(tempFile('a.yaml', 'text: hi\n'))).toThrow('expected a list of steps or an object with a "steps" list')
    expect(() => loadScript(tempFile('b.yaml', ''))).toThrow('expected a list of steps')
    expect(() => loadScript(tempFile('c.yaml', 'steps: {}\n'))).toThrow('"steps" must be a list')
    expect(() => loadScript(tempFile('d.yaml', 'steps: []\nextra: 1\n'))).toThrow('unrecognized top-level key(s) "extra"')
  })

  it('names the file when it cannot be read or parsed', () => {
    const dir = tempDir()
    expect(() => loadScript(`${dir}/missing.yaml`)).toThrow(`${dir}/missing.yaml: cannot read script: ENOENT`)
    const badJson = tempFile('bad.json', '[{')
    expect(() => loadScript(badJson)).toThrow(`${badJson}: invalid JSON:`)
    const badYaml = tempFile('bad.yaml', '- text: [unclosed\n')
    expect(() => loadScript(badYaml)).toThrow(`${badYaml}: invalid YAML:`)
    expect(() => loadScript(tempFile('script.txt', '[]'))).toThrow('unsupported script extension ".txt"')
  })
})
