import { describe, expect, it } from 'vitest'
import { type RawHandlerResult, readHookOutput } from '../src/index.js'

const command = (exitCode: number | null, stdout = '', stderr = '', extra: Partial<RawHandlerResult> = {}): RawHandlerResult => ({
  kind: 'command',
  exitCode,
  stdout,
  stderr,
  timedOut: false,
  aborted: false,
  ...extra,
})
const read = (result: RawHandlerResult, event = 'PreToolUse') => readHookOutput(result, { event, timeoutSec: 600 })

describe('readHookOutput: exit codes and JSON-first precedence (claude-code-hooks.md §6)', () => {
  it('exit 0: stdout starting with `{` after trimming is JSON', () => {
    expect(read(command(0, '  \n{"continue":false,"stopReason":"x"}\n'))).toEqual({
      status: 'success',
      json: { continue: false, stopReason: 'x' },
    })
  })

  it('exit 0: other stdout is plain text, kept raw; empty stdout is nothing', () => {
    expect(read(command(0, 'hello\n'))).toEqual({ status: 'success', plainStdout: 'hello\n' })
    expect(read(command(0, ' \n'))).toEqual({ status: 'success' })
  })

  it('exit 0: invalid JSON and JSON of the wrong shape are errors that decide nothing', () => {
    expect(read(command(0, '{"continue":'))).toMatchObject({ status: 'error', error: expect.stringMatching(/^invalid JSON output: /) })
    expect(read(command(0, '{"continue":"no"}'))).toEqual({
      status: 'error',
      error: 'JSON output failed validation: continue: Invalid input: expected boolean, received string',
    })
    expect(read(command(0, '{"hookSpecificOutput":{"permissionDecision":"maybe"}}'))).toMatchObject({ status: 'error' })
  })

  it('exit 0: unknown keys are ignored and kept out of the way', () => {
    expect(read(command(0, '{"suppressOutput":true,"whatever":1}'))).toMatchObject({ status: 'success', json: { suppressOutput: true } })
  })

  it('exit 2 blocks with the raw stderr (final newline kept); stdout, JSON included, is ignored', () => {
    expect(read(command(2, '{"hookSpecificOutput":{"permissionDecision":"allow"}}', 'no\n'))).toEqual({
      status: 'blocking',
      exit2Stderr: 'no\n',
    })
  })

  it('other exits are non-blocking errors naming the code and stderr; a valid JSON object still decides', () => {
    expect(read(command(1, 'plain', 'boom\n'))).toEqual({ status: 'error', error: 'exit code 1: boom' })
    expect(read(command(127, '', 'sh: 1: missing.sh: not found\n'))).toEqual({
      status: 'error',
      error: 'exit code 127: sh: 1: missing.sh: not found',
    })
    expect(read(command(3, '{"decision":"block","reason":"r"}'))).toEqual({
      status: 'error',
      json: { decision: 'block', reason: 'r' },
      error: 'exit code 3',
    })
  })

  it('a timeout or an interrupt decides nothing', () => {
    expect(read(command(null, '{"decision":"block"}', '', { timedOut: true }))).toEqual({
      status: 'timeout',
      error: 'timed out after 600 s; no decision',
    })
    expect(read(command(null, '', '', { aborted: true }))).toMatchObject({ status: 'cancelled' })
  })

  it('a killed process or a spawn failure is an error', () => {
    expect(read(command(null))).toEqual({ status: 'error', error: 'the hook was killed before it finished' })
    expect(read(command(null, '', '', { error: 'spawn /bin/nope ENOENT' }))).toEqual({ status: 'error', error: 'spawn /bin/nope ENOENT' })
  })

  it('http: a 2xx body is read like stdout; anything else is an error that never blocks', () => {
    expect(read({ ...command(0, '{"decision":"block","reason":"r"}'), kind: 'http' })).toMatchObject({ json: { decision: 'block' } })
    expect(read({ ...command(null, '', '', { error: 'HTTP 500 Internal Server Error' }), kind: 'http' })).toEqual({
      status: 'error',
      error: 'HTTP 500 Internal Server Error',
    })
  })

  it('prompt: `ok:false` is a deny that ends the turn on PreToolUse (unless continueOnBlock), a block elsewhere', () => {
    const no = { ...command(0), kind: 'prompt' as const, verdict: { ok: false, reason: 'unsafe' } }
    expect(read(no)).toEqual({
      status: 'success',
      json: {
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'unsafe' },
        continue: false,
        stopReason: 'unsafe',
      },
    })
    expect(readHookOutput(no, { event: 'PreToolUse', timeoutSec: 30, continueOnBlock: true }).json).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'unsafe' },
    })
    expect(read(no, 'Stop')).toEqual({ status: 'success', json: { decision: 'block', reason: 'unsafe' } })
    expect(read({ ...no, verdict: { ok: true } }, 'Stop')).toEqual({ status: 'success' })
    expect(read({ ...no, verdict: undefined, error: 'prompt hook answered with invalid JSON: hm' })).toEqual({
      status: 'error',
      error: 'prompt hook answered with invalid JSON: hm',
    })
  })
})
