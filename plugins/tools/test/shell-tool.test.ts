import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ProcessRunResult } from '@harness-kernel/kernel'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatShellResult, shellTool } from '../src/index.js'
import { callTool, tempDir, toolContext, waitUntil } from './helpers.js'

const dir = tempDir()
afterAll(() => dir.remove())
const context = toolContext(dir.path)
const shell = shellTool()

describe('shell tool', () => {
  it('returns stdout of a successful command', async () => {
    expect(await callTool(shell, { command: 'echo hello' }, context)).toMatchObject({ output: 'hello', isError: false })
  })

  it('runs with bash in the session cwd', async () => {
    const result = await callTool(shell, { command: '[[ -n $BASH_VERSION ]] && pwd' }, context)
    expect(result).toMatchObject({ output: dir.path, isError: false })
  })

  it('resolves workdir against the session cwd', async () => {
    mkdirSync(join(dir.path, 'sub'), { recursive: true })
    const result = await callTool(shell, { command: 'pwd', workdir: 'sub' }, context)
    expect(result.output).toBe(join(dir.path, 'sub'))
  })

  it('shows stdout, then stderr', async () => {
    const result = await callTool(shell, { command: 'echo out; echo err >&2' }, context)
    expect(result).toMatchObject({ output: 'out\n[stderr]\nerr', isError: false })
    expect(result.details).toEqual({ stdout: 'out\n', stderr: 'err\n', exitCode: 0, signal: null, timedOut: false })
  })

  it('streams stdout and stderr to context.output as they arrive, before it returns', async () => {
    const streamed: string[] = []
    // Each piece is written once the one before has been streamed (acknowledged by a file).
    const output = (stream: string, text: string) => {
      streamed.push(`${stream}:${text}`)
      writeFileSync(join(dir.path, `streamed-${streamed.length}`), '')
    }
    const after = (count: number) => `until [ -e streamed-${count} ]; do sleep 0.01; done`
    // A character split across two writes arrives whole (the pause only makes the split likely: merged, it is whole too).
    const command = `printf 'one\\n'; ${after(1)}; printf 'two\\n' >&2; ${after(2)}; printf '\\xc3'; sleep 0.1; printf '\\xa9\\n'`
    const result = await callTool(shell, { command }, { ...context, output })
    expect(streamed).toEqual(['stdout:one\n', 'stderr:two\n', 'stdout:é\n'])
    expect(result.details).toMatchObject({ stdout: 'one\né\n', stderr: 'two\n', exitCode: 0 })
  })

  it('reports a non-zero exit code as an error', async () => {
    const result = await callTool(shell, { command: 'echo oops >&2; exit 3' }, context)
    expect(result).toMatchObject({ output: '[stderr]\noops\n[exit code: 3]', isError: true })
  })

  it('says when there was no output', async () => {
    expect(await callTool(shell, { command: 'true' }, context)).toMatchObject({ output: '[no output]', isError: false })
  })

  it('times out with timeout_ms and kills the command', async () => {
    // Long enough for `started` to come out first on a loaded machine; `sleep 1000` cannot finish before it.
    const result = await callTool(shell, { command: 'echo started; sleep 1000', timeout_ms: 2000 }, context)
    expect(result).toMatchObject({ output: 'started\n[timed out after 2000 ms]', isError: true })
  })

  it('uses the configured default timeout', async () => {
    const result = await callTool(shellTool({ timeoutMs: 300 }), { command: 'sleep 30' }, context)
    expect(result).toMatchObject({ output: '[timed out after 300 ms]', isError: true })
  })

  it('keeps the tail of long output and says how much was dropped', async () => {
    const tool = shellTool({ maxOutputBytes: 1000 })
    const result = await callTool(tool, { command: "head -c 5000 /dev/zero | tr '\\0' x; printf END" }, context)
    expect(result.isError).toBe(false)
    const [note, text] = result.output.split('\n')
    expect(note).toBe('[stdout truncated: kept last 1000 of 5003 bytes]')
    expect(text).toHaveLength(1000)
    expect(text!.endsWith('xEND')).toBe(true)
  })

  it('stops when the tool call is aborted', async () => {
    const controller = new AbortController()
    const running = callTool(shell, { command: 'touch abort-started; sleep 1000' }, toolContext(dir.path, controller.signal))
    await waitUntil(() => existsSync(join(dir.path, 'abort-started')), 'the command to start')
    controller.abort()
    expect(await running).toMatchObject({ output: '[aborted]', isError: true })
  })

  it('reports a workdir that does not exist', async () => {
    const result = await callTool(shell, { command: 'pwd', workdir: 'missing' }, context)
    expect(result.isError).toBe(true)
    expect(result.output).toBe(`[failed to start: cwd does not exist: ${join(dir.path, 'missing')} (ENOENT)]`)
  })

  it('reports a shell that does not exist', async () => {
    const result = await callTool(shellTool({ shell: '/no/such/shell' }), { command: 'true' }, context)
    expect(result).toMatchObject({ output: '[failed to start: command not found: /no/such/shell (ENOENT)]', isError: true })
  })

  it('rejects an empty command and a non-positive timeout', () => {
    expect(shell.inputSchema.safeParse({ command: '' }).success).toBe(false)
    expect(shell.inputSchema.safeParse({ command: 'ls', timeout_ms: 0 }).success).toBe(false)
  })

  it('has the foreign names as aliases and is not parallel', () => {
    expect(shell).toMatchObject({ name: 'shell', aliases: { codex: 'Bash', claudeCode: 'Bash' } })
    expect(shell.parallel).toBeFalsy()
  })
})

describe('shell tool environment', () => {
  const variables = { MY_API_TOKEN: 'tok-123', SHELL_ENV_TEST_A: 'a', SHELL_ENV_TEST_B: 'b' }
  beforeAll(() => Object.assign(process.env, variables))
  afterAll(() => {
    for (const name of Object.keys(variables)) delete process.env[name]
  })
  const run = async (command: string, tool = shell) => (await callTool(tool, { command }, context)).output

  it('keeps a *TOKEN*, *KEY* or *SECRET* variable of the kernel out of the shell by default', async () => {
    expect(await run('echo "[$MY_API_TOKEN]"')).toBe('[]')
    expect(await run('echo "[$SHELL_ENV_TEST_A]"')).toBe('[a]')
    // It is removed, not emptied.
    expect(await run('env | grep -c "^MY_API_TOKEN=" || true')).toBe('0')
  })

  it('passes it with ignoreDefaultExcludes', async () => {
    const tool = shellTool({ environment: { ignoreDefaultExcludes: true } })
    expect(await run('echo "[$MY_API_TOKEN]"', tool)).toBe('[tok-123]')
  })

  it("drops all but the core variables with inherit: 'core'", async () => {
    const tool = shellTool({ environment: { inherit: 'core', ignoreDefaultExcludes: true } })
    expect(await run('echo "[$SHELL_ENV_TEST_A][$MY_API_TOKEN]"; [[ -n $HOME ]] && echo home-kept', tool)).toBe('[][]\nhome-kept')
  })

  it('adds a variable with set, over an inherited one', async () => {
    const tool = shellTool({ environment: { set: { SHELL_ENV_TEST_NEW: 'new', SHELL_ENV_TEST_A: 'overridden' } } })
    expect(await run('echo "$SHELL_ENV_TEST_NEW $SHELL_ENV_TEST_A $SHELL_ENV_TEST_B"', tool)).toBe('new overridden b')
  })

  it('keeps only the matching variables with includeOnly', async () => {
    // (Only variables the shell's own startup files cannot set: bash may read ~/.bashrc, which can set PATH.)
    const tool = shellTool({ environment: { ignoreDefaultExcludes: true, includeOnly: ['shell_env_test_a', 'HOME'] } })
    expect(await run('echo "[$SHELL_ENV_TEST_A][$SHELL_ENV_TEST_B][$MY_API_TOKEN]"; [[ -n $HOME ]] && echo home-kept', tool)).toBe(
      '[a][][]\nhome-kept',
    )
  })

  it('reads the kernel environment at each call', async () => {
    process.env.SHELL_ENV_TEST_LATE = 'late'
    try {
      expect(await run('echo "[$SHELL_ENV_TEST_LATE]"')).toBe('[late]')
    } finally {
      delete process.env.SHELL_ENV_TEST_LATE
    }
  })

  it('rejects an unknown inherit', () => {
    expect(() => shellTool({ environment: { inherit: 'some' as never } })).toThrow(
      /shell\.environment\.inherit must be one of all, core, none/,
    )
  })
})

describe('formatShellResult', () => {
  const base: ProcessRunResult = {
    exitCode: 0,
    signal: null,
    stdout: '',
    stderr: '',
    stdoutBytes: 0,
    stderrBytes: 0,
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    aborted: false,
    durationMs: 1,
    pid: 1,
  }

  it('names a killing signal', () => {
    expect(formatShellResult({ ...base, exitCode: null, signal: 'SIGKILL' }, 1000)).toMatchObject({
      output: '[killed by SIGKILL]',
      isError: true,
    })
  })

  it('notes truncation of each stream', () => {
    const result = formatShellResult(
      {
        ...base,
        exitCode: 1,
        stdout: 'tail\n',
        stdoutBytes: 100,
        stdoutTruncated: true,
        stderr: 'é',
        stderrBytes: 50,
        stderrTruncated: true,
      },
      1000,
    )
    expect(result.output).toBe(
      '[stdout truncated: kept last 5 of 100 bytes]\ntail\n[stderr]\n[stderr truncated: kept last 2 of 50 bytes]\né\n[exit code: 1]',
    )
  })
})
