import { describe, expect, it } from 'vitest'
import type { CodexEvent } from '../src/events.js'
import type { HandlerOutcome, HandlerRun } from '../src/io/outcome.js'
import { parseHandlerOutput } from '../src/io/parse-output.js'

const run = (exitCode: number | null, stdout = '', stderr = '', extra: Partial<HandlerRun> = {}): HandlerRun => ({
  exitCode,
  stdout,
  stderr,
  timedOut: false,
  timeoutSec: 600,
  ...extra,
})
const parse = (event: CodexEvent, exitCode: number | null, stdout = '', stderr = ''): HandlerOutcome =>
  parseHandlerOutput(event, run(exitCode, stdout, stderr))
const json = (value: unknown): string => JSON.stringify(value)
const failed = (text: string) => ({ status: 'failed', entries: [{ kind: 'error', text }], contexts: [] })
const completed = { status: 'completed', entries: [], contexts: [] }

const pre = (specific: Record<string, unknown>, rest: Record<string, unknown> = {}) =>
  json({ ...rest, hookSpecificOutput: { hookEventName: 'PreToolUse', ...specific } })

describe('parseHandlerOutput: exit 0', () => {
  it('empty stdout: completed, no effect (checklist 57)', () => {
    for (const event of ['PreToolUse', 'Stop', 'SessionStart', 'Interrupt', 'PermissionRequest'] as const) {
      expect(parse(event, 0, '  \n\t ')).toEqual(completed)
    }
  })

  it('padded JSON is accepted (checklist 58)', () => {
    expect(parse('PreToolUse', 0, `\n\n  ${pre({ permissionDecision: 'deny', permissionDecisionReason: 'no' })}  \n`).status).toBe(
      'blocked',
    )
  })

  it('an unknown key invalidates the whole output, fail-open (checklist 59)', () => {
    expect(parse('PreToolUse', 0, json({ decision: 'block', reason: 'x', bogus: 1 }))).toEqual(
      failed('hook returned invalid pre-tool-use JSON output'),
    )
    expect(parse('PreToolUse', 0, pre({ permissionDecision: 'deny', permissionDecisionReason: 'x', extra: true }))).toEqual(
      failed('hook returned invalid pre-tool-use JSON output'),
    )
  })

  it('a JSON array is invalid (checklist 60)', () => {
    expect(parse('UserPromptSubmit', 0, '[{"decision":"block","reason":"x"}]')).toEqual(
      failed('hook returned invalid user prompt submit JSON output'),
    )
  })

  it('broken JSON that starts with { is invalid', () => {
    expect(parse('Stop', 0, '{"decision":"block"')).toEqual(failed('hook returned invalid stop hook JSON output'))
  })

  it('wrong types are invalid', () => {
    expect(parse('Stop', 0, json({ continue: 'false' }))).toEqual(failed('hook returned invalid stop hook JSON output'))
    expect(parse('Stop', 0, json({ continue: null }))).toEqual(failed('hook returned invalid stop hook JSON output'))
    expect(parse('Stop', 0, json({ decision: 'approve', reason: 'x' }))).toEqual(failed('hook returned invalid stop hook JSON output'))
    expect(parse('UserPromptSubmit', 0, json({ reason: 5 }))).toEqual(failed('hook returned invalid user prompt submit JSON output'))
    expect(parse('SessionStart', 0, json({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: ['x'] } }))).toEqual(
      failed('hook returned invalid session start JSON output'),
    )
  })

  it('null optional strings count as absent', () => {
    expect(parse('Stop', 0, json({ systemMessage: null, stopReason: null, reason: null }))).toEqual(completed)
  })

  it('hookSpecificOutput needs a known hookEventName; a mismatched one is accepted (checklist 68)', () => {
    expect(parse('UserPromptSubmit', 0, json({ hookSpecificOutput: { additionalContext: 'c' } }))).toEqual(
      failed('hook returned invalid user prompt submit JSON output'),
    )
    expect(parse('UserPromptSubmit', 0, json({ hookSpecificOutput: { hookEventName: 'Bogus', additionalContext: 'c' } }))).toEqual(
      failed('hook returned invalid user prompt submit JSON output'),
    )
    expect(
      parse('UserPromptSubmit', 0, json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'c' } })).contexts,
    ).toEqual(['c'])
    expect(parse('PreToolUse', 0, pre({ hookEventName: 'Stop', permissionDecision: 'deny', permissionDecisionReason: 'r' })).block).toEqual(
      {
        reason: 'r',
      },
    )
  })

  it('keys inherited from Object.prototype are unknown keys', () => {
    expect(parse('Stop', 0, '{"constructor":1}')).toEqual(failed('hook returned invalid stop hook JSON output'))
    expect(parse('Stop', 0, '{"__proto__":{}}')).toEqual(failed('hook returned invalid stop hook JSON output'))
  })

  it('the invalid-JSON label of every event', () => {
    const labels: [CodexEvent, string][] = [
      ['PreToolUse', 'hook returned invalid pre-tool-use JSON output'],
      ['PermissionRequest', 'hook returned invalid permission-request JSON output'],
      ['PostToolUse', 'hook returned invalid post-tool-use JSON output'],
      ['PreCompact', 'hook returned invalid PreCompact hook JSON output'],
      ['PostCompact', 'hook returned invalid PostCompact hook JSON output'],
      ['SessionStart', 'hook returned invalid session start JSON output'],
      ['UserPromptSubmit', 'hook returned invalid user prompt submit JSON output'],
      ['SubagentStart', 'hook returned invalid subagent start JSON output'],
      ['SubagentStop', 'hook returned invalid subagent stop hook JSON output'],
      ['Stop', 'hook returned invalid stop hook JSON output'],
      ['Interrupt', 'hook returned invalid interrupt hook JSON output'],
    ]
    for (const [event, text] of labels) expect(parse(event, 0, '{"nope":1}')).toEqual(failed(text))
  })

  it('plain text: trimmed context on SessionStart, UserPromptSubmit, SubagentStart (checklist 61)', () => {
    for (const event of ['SessionStart', 'UserPromptSubmit', 'SubagentStart'] as const) {
      expect(parse(event, 0, '  hello from hook\n')).toEqual({
        status: 'completed',
        entries: [{ kind: 'context', text: 'hello from hook' }],
        contexts: ['hello from hook'],
      })
    }
  })

  it('plain text: ignored on PreToolUse, PostToolUse, PermissionRequest, PreCompact, PostCompact (checklist 61)', () => {
    for (const event of ['PreToolUse', 'PostToolUse', 'PermissionRequest', 'PreCompact', 'PostCompact'] as const) {
      expect(parse(event, 0, 'some text')).toEqual(completed)
    }
  })

  it('plain text: Stop and SubagentStop fail; Interrupt fails with its own text (checklist 61)', () => {
    expect(parse('Stop', 0, 'keep going')).toEqual(failed('hook returned invalid stop hook JSON output'))
    expect(parse('SubagentStop', 0, 'keep going')).toEqual(failed('hook returned invalid subagent stop hook JSON output'))
    expect(parse('Interrupt', 0, 'aloha')).toEqual(failed('Interrupt hook returned non-JSON stdout'))
  })

  it('a JSON value that is not an object and does not start with { or [ is plain text', () => {
    expect(parse('UserPromptSubmit', 0, '"quoted"').contexts).toEqual(['"quoted"'])
    expect(parse('Stop', 0, '42')).toEqual(failed('hook returned invalid stop hook JSON output'))
  })

  it('trims like Rust: U+0085 is whitespace, U+FEFF is not', () => {
    expect(parse('UserPromptSubmit', 0, '\u0085ctx\u0085').contexts).toEqual(['ctx'])
    expect(parse('UserPromptSubmit', 0, '\ufeffctx').contexts).toEqual(['\ufeffctx'])
  })

  it('stderr is ignored on exit 0; systemMessage only becomes a warning (checklist 65)', () => {
    expect(parse('PreToolUse', 0, '', 'noise')).toEqual(completed)
    expect(parse('Stop', 0, json({ systemMessage: 'heads up' }), 'noise')).toEqual({
      status: 'completed',
      entries: [{ kind: 'warning', text: 'heads up' }],
      contexts: [],
    })
  })

  it('SessionEnd output is ignored', () => {
    expect(parse('SessionEnd', 0, '{"bogus":1}')).toEqual(completed)
    expect(parse('SessionEnd', 0, 'text')).toEqual(completed)
  })
})

describe('parseHandlerOutput: exit codes, timeouts, spawn errors', () => {
  it('exit 2: the trimmed stderr is the reason; stdout JSON is ignored (checklist 62)', () => {
    expect(
      parse('PreToolUse', 2, pre({ permissionDecision: 'allow', updatedInput: { command: 'x' } }), '  blocked by exit2 hook\n'),
    ).toEqual({
      status: 'blocked',
      entries: [{ kind: 'feedback', text: 'blocked by exit2 hook' }],
      contexts: [],
      block: { reason: 'blocked by exit2 hook' },
    })
  })

  it('PreToolUse exit 2 with empty stderr fails (checklist 63)', () => {
    expect(parse('PreToolUse', 2, '', ' \n')).toEqual(
      failed('PreToolUse hook exited with code 2 but did not write a blocking reason to stderr'),
    )
  })

  it('exit 2 with empty stderr, per event', () => {
    expect(parse('PermissionRequest', 2)).toEqual(
      failed('PermissionRequest hook exited with code 2 but did not write a denial reason to stderr'),
    )
    expect(parse('PostToolUse', 2)).toEqual(failed('PostToolUse hook exited with code 2 but did not write feedback to stderr'))
    expect(parse('UserPromptSubmit', 2)).toEqual(
      failed('UserPromptSubmit hook exited with code 2 but did not write a blocking reason to stderr'),
    )
    expect(parse('Stop', 2)).toEqual(failed('Stop hook exited with code 2 but did not write a continuation prompt to stderr'))
    expect(parse('SubagentStop', 2)).toEqual(
      failed('SubagentStop hook exited with code 2 but did not write a continuation prompt to stderr'),
    )
  })

  it('exit 2 is an ordinary failure on SessionStart, SubagentStart, Interrupt, SessionEnd (checklist 71)', () => {
    for (const event of ['SessionStart', 'SubagentStart', 'Interrupt', 'SessionEnd'] as const) {
      expect(parse(event, 2, '', 'reason')).toEqual(failed('hook exited with code 2'))
    }
  })

  it('exit 1 or 3 fails, even with a deny on stdout (checklist 64)', () => {
    const deny = pre({ permissionDecision: 'deny', permissionDecisionReason: 'no' })
    expect(parse('PreToolUse', 1, deny, 'err')).toEqual(failed('hook exited with code 1'))
    expect(parse('PreToolUse', 3, deny)).toEqual(failed('hook exited with code 3'))
    expect(parse('Stop', 1, '', 'x')).toEqual(failed('hook exited with code 1'))
  })

  it('compaction events: a non-zero exit fails with stderr, else the exit code (checklist 74)', () => {
    expect(parse('PreCompact', 2, '', ' compaction denied \n')).toEqual(failed('compaction denied'))
    expect(parse('PostCompact', 1, '', '')).toEqual(failed('hook exited with code 1'))
  })

  it('timeout (checklist 37)', () => {
    expect(parseHandlerOutput('PreToolUse', run(null, '', '', { timedOut: true, timeoutSec: 1 }))).toEqual(
      failed('hook timed out after 1s'),
    )
    expect(parseHandlerOutput('PreCompact', run(null, '', '', { timedOut: true, timeoutSec: 30 }))).toEqual(
      failed('hook timed out after 30s'),
    )
  })

  it('spawn error: the error text as it is', () => {
    expect(parseHandlerOutput('Stop', run(null, '', '', { spawnError: 'spawn /bin/bash ENOENT' }))).toEqual(
      failed('spawn /bin/bash ENOENT'),
    )
  })

  it('no exit code (signal)', () => {
    expect(parse('PreToolUse', null)).toEqual(failed('hook exited without a status code'))
    expect(parse('PostCompact', null)).toEqual(failed('hook process terminated without an exit code'))
  })
})

describe('parseHandlerOutput: PreToolUse', () => {
  it('deny with a reason blocks, reason trimmed', () => {
    expect(parse('PreToolUse', 0, pre({ permissionDecision: 'deny', permissionDecisionReason: ' do not run that ' }))).toEqual({
      status: 'blocked',
      entries: [{ kind: 'feedback', text: 'do not run that' }],
      contexts: [],
      block: { reason: 'do not run that' },
    })
  })

  it('the five failure texts are exact (checklist 66)', () => {
    expect(parse('PreToolUse', 0, pre({ permissionDecision: 'deny', permissionDecisionReason: '  ' }))).toEqual(
      failed('PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason'),
    )
    expect(parse('PreToolUse', 0, pre({ permissionDecision: 'deny' }))).toEqual(
      failed('PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason'),
    )
    expect(parse('PreToolUse', 0, pre({ permissionDecision: 'allow' }))).toEqual(
      failed('PreToolUse hook returned unsupported permissionDecision:allow'),
    )
    expect(parse('PreToolUse', 0, pre({ permissionDecision: 'ask' }))).toEqual(
      failed('PreToolUse hook returned unsupported permissionDecision:ask'),
    )
    expect(parse('PreToolUse', 0, pre({ updatedInput: { command: 'x' } }))).toEqual(
      failed('PreToolUse hook returned updatedInput without permissionDecision:allow'),
    )
    expect(parse('PreToolUse', 0, pre({ permissionDecision: 'deny', permissionDecisionReason: 'r', updatedInput: {} }))).toEqual(
      failed('PreToolUse hook returned updatedInput without permissionDecision:allow'),
    )
    expect(parse('PreToolUse', 0, json({ continue: false }))).toEqual(failed('PreToolUse hook returned unsupported continue:false'))
  })

  it('other unsupported fields [src]', () => {
    expect(parse('PreToolUse', 0, json({ stopReason: 'x' }))).toEqual(failed('PreToolUse hook returned unsupported stopReason'))
    expect(parse('PreToolUse', 0, json({ suppressOutput: true }))).toEqual(failed('PreToolUse hook returned unsupported suppressOutput'))
    expect(parse('PreToolUse', 0, json({ suppressOutput: false }))).toEqual(completed)
    expect(parse('PreToolUse', 0, json({ decision: 'approve' }))).toEqual(failed('PreToolUse hook returned unsupported decision:approve'))
    expect(parse('PreToolUse', 0, json({ reason: 'x' }))).toEqual(failed('PreToolUse hook returned reason without decision'))
    expect(parse('PreToolUse', 0, json({ decision: 'block', reason: ' ' }))).toEqual(
      failed('PreToolUse hook returned decision:block without a non-empty reason'),
    )
    expect(parse('PreToolUse', 0, pre({ permissionDecisionReason: 'x' }))).toEqual(
      failed('PreToolUse hook returned permissionDecisionReason without permissionDecision'),
    )
  })

  it('legacy decision:block blocks (checklist 67)', () => {
    expect(parse('PreToolUse', 0, json({ decision: 'block', reason: 'legacy no' })).block).toEqual({ reason: 'legacy no' })
  })

  it('with a hookSpecificOutput decision, the legacy fields are ignored', () => {
    const out = parse(
      'PreToolUse',
      0,
      pre({ permissionDecision: 'deny', permissionDecisionReason: 'specific' }, { decision: 'approve', reason: 'x' }),
    )
    expect(out.block).toEqual({ reason: 'specific' })
  })

  it('allow with updatedInput rewrites the call', () => {
    expect(parse('PreToolUse', 0, pre({ permissionDecision: 'allow', updatedInput: { command: 'echo rewritten' } }))).toEqual({
      status: 'completed',
      entries: [],
      contexts: [],
      updatedInput: { command: 'echo rewritten' },
    })
  })

  it('updatedInput: null counts as absent', () => {
    expect(parse('PreToolUse', 0, pre({ permissionDecision: 'allow', updatedInput: null }))).toEqual(
      failed('PreToolUse hook returned unsupported permissionDecision:allow'),
    )
  })

  it('context is recorded even when the call is blocked: [warning, context, feedback]', () => {
    expect(
      parse(
        'PreToolUse',
        0,
        pre({ permissionDecision: 'deny', permissionDecisionReason: 'no', additionalContext: 'ctx' }, { systemMessage: 'warn' }),
      ),
    ).toEqual({
      status: 'blocked',
      entries: [
        { kind: 'warning', text: 'warn' },
        { kind: 'context', text: 'ctx' },
        { kind: 'feedback', text: 'no' },
      ],
      contexts: ['ctx'],
      block: { reason: 'no' },
    })
  })

  it('a context alone, or with a legacy block', () => {
    expect(parse('PreToolUse', 0, pre({ additionalContext: 'only' })).contexts).toEqual(['only'])
    const out = parse('PreToolUse', 0, pre({ additionalContext: 'c' }, { decision: 'block', reason: 'r' }))
    expect(out.block).toEqual({ reason: 'r' })
    expect(out.contexts).toEqual(['c'])
  })

  it('an invalid output records no context', () => {
    expect(parse('PreToolUse', 0, pre({ permissionDecision: 'ask', additionalContext: 'c' }))).toEqual(
      failed('PreToolUse hook returned unsupported permissionDecision:ask'),
    )
  })

  it('systemMessage with a failure: [warning, error]', () => {
    expect(parse('PreToolUse', 0, pre({ permissionDecision: 'ask' }, { systemMessage: 'w' })).entries).toEqual([
      { kind: 'warning', text: 'w' },
      { kind: 'error', text: 'PreToolUse hook returned unsupported permissionDecision:ask' },
    ])
  })
})

describe('parseHandlerOutput: PermissionRequest (checklist 73)', () => {
  const decide = (decision: Record<string, unknown>, rest: Record<string, unknown> = {}) =>
    json({ ...rest, hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } })

  it('allow', () => {
    expect(parse('PermissionRequest', 0, decide({ behavior: 'allow' }))).toEqual({
      status: 'completed',
      entries: [],
      contexts: [],
      permission: { behavior: 'allow' },
    })
  })

  it('deny with a message (trimmed), and without one', () => {
    expect(parse('PermissionRequest', 0, decide({ behavior: 'deny', message: ' not here ' }))).toEqual({
      status: 'blocked',
      entries: [{ kind: 'feedback', text: 'not here' }],
      contexts: [],
      permission: { behavior: 'deny', message: 'not here' },
    })
    expect(parse('PermissionRequest', 0, decide({ behavior: 'deny' })).permission).toEqual({
      behavior: 'deny',
      message: 'PermissionRequest hook denied approval',
    })
    expect(parse('PermissionRequest', 0, decide({ behavior: 'deny', message: '  ' })).permission).toEqual({
      behavior: 'deny',
      message: 'PermissionRequest hook denied approval',
    })
  })

  it('exit 2 denies with stderr', () => {
    expect(parse('PermissionRequest', 2, '', 'nope\n')).toEqual({
      status: 'blocked',
      entries: [{ kind: 'feedback', text: 'nope' }],
      contexts: [],
      permission: { behavior: 'deny', message: 'nope' },
    })
  })

  it('interrupt:true fails and falls back to approval', () => {
    expect(parse('PermissionRequest', 0, decide({ behavior: 'deny', message: 'x', interrupt: true }))).toEqual({
      ...failed('PermissionRequest hook returned unsupported interrupt:true'),
      fallbackToApproval: true,
    })
    expect(parse('PermissionRequest', 0, decide({ behavior: 'allow', interrupt: false })).permission).toEqual({ behavior: 'allow' })
  })

  it('reserved fields and universal fields fail', () => {
    expect(parse('PermissionRequest', 0, decide({ behavior: 'allow', updatedInput: {} }))).toEqual(
      failed('PermissionRequest hook returned unsupported updatedInput'),
    )
    expect(parse('PermissionRequest', 0, decide({ behavior: 'allow', updatedPermissions: [] }))).toEqual(
      failed('PermissionRequest hook returned unsupported updatedPermissions'),
    )
    expect(parse('PermissionRequest', 0, decide({ behavior: 'allow' }, { continue: false }))).toEqual(
      failed('PermissionRequest hook returned unsupported continue:false'),
    )
    expect(parse('PermissionRequest', 0, json({ stopReason: 's' }))).toEqual(
      failed('PermissionRequest hook returned unsupported stopReason'),
    )
    expect(parse('PermissionRequest', 0, json({ suppressOutput: true }))).toEqual(
      failed('PermissionRequest hook returned unsupported suppressOutput'),
    )
  })

  it('no decision: no verdict; a decision needs a behavior', () => {
    expect(parse('PermissionRequest', 0, json({ hookSpecificOutput: { hookEventName: 'PermissionRequest' } }))).toEqual(completed)
    expect(parse('PermissionRequest', 0, decide({ message: 'x' }))).toEqual(failed('hook returned invalid permission-request JSON output'))
    expect(parse('PermissionRequest', 0, decide({ behavior: 'ask' }))).toEqual(
      failed('hook returned invalid permission-request JSON output'),
    )
  })
})

describe('parseHandlerOutput: PostToolUse', () => {
  const post = (rest: Record<string, unknown>, specific?: Record<string, unknown>) =>
    json(specific === undefined ? rest : { ...rest, hookSpecificOutput: { hookEventName: 'PostToolUse', ...specific } })

  it('block with a reason replaces the result (checklist 77)', () => {
    expect(parse('PostToolUse', 0, post({ decision: 'block', reason: 'post reason A' }))).toEqual({
      status: 'blocked',
      entries: [{ kind: 'feedback', text: 'post reason A' }],
      contexts: [],
      block: { reason: 'post reason A' },
      feedback: 'post reason A',
    })
  })

  it('exit 2 with stderr blocks', () => {
    expect(parse('PostToolUse', 2, '', 'post reason B\n')).toEqual({
      status: 'blocked',
      entries: [{ kind: 'feedback', text: 'post reason B' }],
      contexts: [],
      block: { reason: 'post reason B' },
      feedback: 'post reason B',
    })
  })

  it('continue:false: stopped, the result becomes stopReason (checklist 77)', () => {
    expect(parse('PostToolUse', 0, post({ continue: false, stopReason: 'halt output' }))).toEqual({
      status: 'stopped',
      entries: [{ kind: 'stop', text: 'halt output' }],
      contexts: [],
      stop: { reason: 'halt output' },
      feedback: 'halt output',
    })
    expect(parse('PostToolUse', 0, post({ continue: false })).feedback).toBe('PostToolUse hook stopped execution')
    expect(parse('PostToolUse', 0, post({ continue: false, stopReason: 's', reason: ' r ' })).feedback).toBe('r')
  })

  it('reason without decision fails (checklist 69)', () => {
    expect(parse('PostToolUse', 0, post({ reason: 'x' }))).toEqual(failed('PostToolUse hook returned reason without decision'))
  })

  it('block without a reason fails', () => {
    expect(parse('PostToolUse', 0, post({ decision: 'block' }))).toEqual(
      failed('PostToolUse hook returned decision:block without a non-empty reason'),
    )
  })

  it('block + context: [context, feedback] (checklist 78, 90)', () => {
    expect(parse('PostToolUse', 0, post({ decision: 'block', reason: 'r' }, { additionalContext: 'c' }))).toEqual({
      status: 'blocked',
      entries: [
        { kind: 'context', text: 'c' },
        { kind: 'feedback', text: 'r' },
      ],
      contexts: ['c'],
      block: { reason: 'r' },
      feedback: 'r',
    })
  })

  it('unsupported suppressOutput and updatedMCPToolOutput fail and drop the context', () => {
    expect(parse('PostToolUse', 0, post({ suppressOutput: true }, { additionalContext: 'c' }))).toEqual(
      failed('PostToolUse hook returned unsupported suppressOutput'),
    )
    expect(parse('PostToolUse', 0, post({}, { updatedMCPToolOutput: { ok: true } }))).toEqual(
      failed('PostToolUse hook returned unsupported updatedMCPToolOutput'),
    )
  })
})

describe('parseHandlerOutput: UserPromptSubmit (checklist 70)', () => {
  const ups = (rest: Record<string, unknown>, context?: string) =>
    json(context === undefined ? rest : { ...rest, hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context } })

  it('block keeps its context: [context, feedback]', () => {
    expect(parse('UserPromptSubmit', 0, ups({ decision: 'block', reason: 'slow down' }, 'do not inject'))).toEqual({
      status: 'blocked',
      entries: [
        { kind: 'context', text: 'do not inject' },
        { kind: 'feedback', text: 'slow down' },
      ],
      contexts: ['do not inject'],
      block: { reason: 'slow down' },
    })
  })

  it('continue:false keeps its context: [context, stop]', () => {
    expect(parse('UserPromptSubmit', 0, ups({ continue: false, stopReason: 'pause' }, 'ctx'))).toEqual({
      status: 'stopped',
      entries: [
        { kind: 'context', text: 'ctx' },
        { kind: 'stop', text: 'pause' },
      ],
      contexts: ['ctx'],
      stop: { reason: 'pause' },
    })
    expect(parse('UserPromptSubmit', 0, ups({ continue: false }))).toEqual({
      status: 'stopped',
      entries: [],
      contexts: [],
      stop: { reason: undefined },
    })
  })

  it('exit 2 blocks with stderr', () => {
    expect(parse('UserPromptSubmit', 2, '', 'blocked by policy\n').block).toEqual({ reason: 'blocked by policy' })
  })

  it('block without a reason fails and drops the context', () => {
    expect(parse('UserPromptSubmit', 0, ups({ decision: 'block' }, 'c'))).toEqual(
      failed('UserPromptSubmit hook returned decision:block without a non-empty reason'),
    )
  })
})

describe('parseHandlerOutput: SessionStart, SubagentStart (checklist 71)', () => {
  it('continue:false stops SessionStart and keeps its context', () => {
    expect(
      parse(
        'SessionStart',
        0,
        json({ continue: false, stopReason: 'pause', hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'c' } }),
      ),
    ).toEqual({
      status: 'stopped',
      entries: [
        { kind: 'context', text: 'c' },
        { kind: 'stop', text: 'pause' },
      ],
      contexts: ['c'],
      stop: { reason: 'pause' },
    })
  })

  it('a decision key is invalid on SessionStart', () => {
    expect(parse('SessionStart', 0, json({ decision: 'block', reason: 'x' }))).toEqual(
      failed('hook returned invalid session start JSON output'),
    )
  })

  it('SubagentStart: context only; continue:false does nothing', () => {
    expect(
      parse(
        'SubagentStart',
        0,
        json({ continue: false, hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'child ctx' } }),
      ),
    ).toEqual({ status: 'completed', entries: [{ kind: 'context', text: 'child ctx' }], contexts: ['child ctx'] })
  })
})

describe('parseHandlerOutput: Stop, SubagentStop (checklist 72, 83)', () => {
  it('block with a reason (trimmed) continues the turn', () => {
    expect(parse('Stop', 0, json({ decision: 'block', reason: ' keep going \n' }))).toEqual({
      status: 'blocked',
      entries: [{ kind: 'feedback', text: 'keep going' }],
      contexts: [],
      block: { reason: 'keep going' },
    })
  })

  it('exit 2 uses stderr', () => {
    expect(parse('SubagentStop', 2, '{"decision":"block","reason":"ignored"}', 'from stderr').block).toEqual({ reason: 'from stderr' })
  })

  it('block without a non-empty reason fails', () => {
    expect(parse('Stop', 0, json({ decision: 'block' }))).toEqual(failed('Stop hook returned decision:block without a non-empty reason'))
    expect(parse('Stop', 0, json({ decision: 'block', reason: '  ' }))).toEqual(
      failed('Stop hook returned decision:block without a non-empty reason'),
    )
    expect(parse('SubagentStop', 0, json({ decision: 'block' }))).toEqual(
      failed('SubagentStop hook returned decision:block without a non-empty reason'),
    )
  })

  it('continue:false stops, even with a block', () => {
    expect(parse('Stop', 0, json({ continue: false, stopReason: 'done', decision: 'block', reason: 'x' }))).toEqual({
      status: 'stopped',
      entries: [{ kind: 'stop', text: 'done' }],
      contexts: [],
      stop: { reason: 'done' },
    })
  })

  it('hookSpecificOutput is not a Stop key', () => {
    expect(parse('Stop', 0, json({ hookSpecificOutput: { hookEventName: 'Stop' } }))).toEqual(
      failed('hook returned invalid stop hook JSON output'),
    )
  })
})

describe('parseHandlerOutput: compaction, Interrupt', () => {
  it('PreCompact continue:false stops; the stop entry has a default text (checklist 74)', () => {
    expect(parse('PreCompact', 0, json({ continue: false }))).toEqual({
      status: 'stopped',
      entries: [{ kind: 'stop', text: 'PreCompact hook stopped execution' }],
      contexts: [],
      stop: { reason: undefined },
    })
    expect(parse('PostCompact', 0, json({ continue: false, stopReason: 'r' })).entries).toEqual([{ kind: 'stop', text: 'r' }])
  })

  it('compaction allows only the universal keys', () => {
    expect(parse('PreCompact', 0, json({ suppressOutput: true, systemMessage: 'w' }))).toEqual({
      status: 'completed',
      entries: [{ kind: 'warning', text: 'w' }],
      contexts: [],
    })
    expect(parse('PreCompact', 0, json({ decision: 'block' }))).toEqual(failed('hook returned invalid PreCompact hook JSON output'))
  })

  it('Interrupt: only systemMessage', () => {
    expect(parse('Interrupt', 0, json({ systemMessage: 'watch the tide' }))).toEqual({
      status: 'completed',
      entries: [{ kind: 'warning', text: 'watch the tide' }],
      contexts: [],
    })
    for (const key of ['continue', 'decision', 'stopReason', 'suppressOutput']) {
      expect(parse('Interrupt', 0, json({ [key]: key === 'continue' || key === 'suppressOutput' ? false : 'x' }))).toEqual(
        failed('hook returned invalid interrupt hook JSON output'),
      )
    }
    expect(parse('Interrupt', 0, json({ stopReason: null }))).toEqual(failed('hook returned invalid interrupt hook JSON output'))
  })
})
