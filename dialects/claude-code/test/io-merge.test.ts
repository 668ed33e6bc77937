import { describe, expect, it } from 'vitest'
import { type HookOutput, type MergeRun, mergeGate, mergePermissionRequest, mergePostToolUse, mergePreToolUse } from '../src/index.js'

let order = 0
const run = (label: string, output: HookOutput, completionIndex = order++): MergeRun => ({ label, output, completionIndex })
const json = (value: HookOutput['json']): HookOutput => ({ status: 'success', json: value })
const pre = (decision: 'allow' | 'deny' | 'ask' | 'defer', extra: Record<string, unknown> = {}) =>
  json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, ...extra } })

describe('merging the runs of one event occurrence', () => {
  it('PreToolUse: deny > defer > ask > allow, each with its own reason, whatever the order', () => {
    const verdicts = ['allow', 'ask', 'defer', 'deny'] as const
    for (const first of verdicts) {
      for (const second of verdicts) {
        const merged = mergePreToolUse([
          run('a', pre(first, { permissionDecisionReason: `a-${first}` }), 0),
          run('b', pre(second, { permissionDecisionReason: `b-${second}` }), 1),
        ])
        const rank = { deny: 4, defer: 3, ask: 2, allow: 1 }
        const winner = rank[first] >= rank[second] ? `a-${first}` : `b-${second}`
        expect(merged.reason).toBe(winner)
      }
    }
  })

  it('PreToolUse: the legacy `decision` maps approve→allow and block→deny', () => {
    expect(mergePreToolUse([run('a', json({ decision: 'approve' }))]).verdict).toBe('allow')
    expect(mergePreToolUse([run('a', json({ decision: 'block', reason: 'r' }))])).toMatchObject({ verdict: 'deny', reason: 'r' })
  })

  it('PreToolUse: updatedInput comes from the allow that finished last; other verdicts give none', () => {
    const merged = mergePreToolUse([
      run('a', pre('allow', { updatedInput: { command: 'a' } }), 2),
      run('b', pre('allow', { updatedInput: { command: 'b' } }), 0),
      run('c', pre('ask', { updatedInput: { command: 'c' } }), 3),
    ])
    expect(merged.updatedInput).toEqual({ command: 'a' })
  })

  it('PreToolUse: exit 2 is quoted with its command; contexts come in completion order; continue:false and systemMessage', () => {
    const merged = mergePreToolUse([
      run('hook-a', { status: 'blocking', exit2Stderr: 'no\n' }, 1),
      run(
        'hook-b',
        json({ continue: false, stopReason: 'halt', systemMessage: 'said', hookSpecificOutput: { additionalContext: 'B' } }),
        2,
      ),
      run('hook-c', json({ hookSpecificOutput: { additionalContext: 'C' } }), 0),
    ])
    expect(merged).toMatchObject({ exit2: '[hook-a]: no\n', contexts: ['C', 'B'], stop: { reason: 'halt' }, systemMessages: ['said'] })
  })

  it('PermissionRequest: any deny wins with its message and interrupt; otherwise the last allow to finish', () => {
    const decision = (behavior: 'allow' | 'deny', extra: Record<string, unknown> = {}) =>
      json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior, ...extra } } })
    expect(
      mergePermissionRequest([run('a', decision('allow')), run('b', decision('deny', { message: 'm', interrupt: true }))]),
    ).toMatchObject({ behavior: 'deny', message: 'm', interrupt: true })
    expect(
      mergePermissionRequest([
        run('a', decision('allow', { updatedInput: { command: 'late' } }), 1),
        run('b', decision('allow', { updatedInput: { command: 'early' } }), 0),
      ]),
    ).toMatchObject({ behavior: 'allow', updatedInput: { command: 'late' } })
    expect(mergePermissionRequest([run('a', { status: 'success' })]).behavior).toBeUndefined()
  })

  it('PostToolUse: blocks in configuration order (exit 2 quoted), updatedToolOutput from the last to finish', () => {
    const merged = mergePostToolUse([
      run('x', { status: 'blocking', exit2Stderr: 'err\n' }, 0),
      run('y', json({ decision: 'block', reason: 'why', hookSpecificOutput: { updatedToolOutput: 'first' } }), 2),
      run('z', json({ hookSpecificOutput: { updatedToolOutput: { replaced: true } } }), 1),
    ])
    expect(merged.blocks).toEqual([
      { command: 'x', reason: '[x]: err\n' },
      { command: 'y', reason: 'why' },
    ])
    expect(merged.updatedToolOutput).toBe('first')
  })

  it('gates: blocks with their form, plain stdout in completion order', () => {
    const merged = mergeGate([
      run('a', { status: 'success', plainStdout: 'second\n' }, 1),
      run('b', { status: 'success', plainStdout: 'first\n' }, 0),
      run('c', json({ decision: 'block', reason: 'r' }), 2),
      run('d', { status: 'blocking', exit2Stderr: 's' }, 3),
      run('e', { status: 'error', error: 'exit code 1' }, 4),
    ])
    expect(merged.plainStdout).toEqual(['first\n', 'second\n'])
    expect(merged.blocks).toEqual([
      { command: 'c', reason: 'r', form: 'json' },
      { command: 'd', reason: '[d]: s', form: 'exit2' },
    ])
  })
})
