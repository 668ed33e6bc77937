import { describe, expect, it } from 'vitest'
import type { CodexEvent } from '../src/events.js'
import {
  type MergeRun,
  mergeGate,
  mergeOutcomes,
  mergePermissionRequest,
  mergePostToolUse,
  mergePreToolUse,
  mergeStop,
} from '../src/io/merge.js'
import type { HandlerRun } from '../src/io/outcome.js'
import { parseHandlerOutput } from '../src/io/parse-output.js'
import { hookPromptText, hookRunId } from '../src/io/render.js'

const SOURCE = '/home/user/.codex/hooks.json'

/** Runs in display order; `finished` is each one's completion index. */
function runs(event: CodexEvent, outputs: { exit?: number; stdout?: string; stderr?: string; finished?: number }[]): MergeRun[] {
  return outputs.map((o, displayOrder) => {
    const run: HandlerRun = { exitCode: o.exit ?? 0, stdout: o.stdout ?? '', stderr: o.stderr ?? '', timedOut: false, timeoutSec: 600 }
    return {
      outcome: parseHandlerOutput(event, run),
      completionIndex: o.finished ?? displayOrder,
      runId: hookRunId(event, displayOrder, SOURCE),
    }
  })
}
const json = (value: unknown): string => JSON.stringify(value)
const preSpecific = (specific: Record<string, unknown>) => json({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...specific } })
const allow = (command: string) => preSpecific({ permissionDecision: 'allow', updatedInput: { command } })
const deny = (reason: string) => preSpecific({ permissionDecision: 'deny', permissionDecisionReason: reason })

describe('mergePreToolUse', () => {
  it('the first blocker in display order gives the reason, whoever finished first (checklist 75)', () => {
    const merged = mergePreToolUse(
      runs('PreToolUse', [{ stdout: '' }, { stdout: deny('second'), finished: 2 }, { exit: 2, stderr: 'third', finished: 0 }]),
    )
    expect(merged).toEqual({ blocked: true, reason: 'second', contexts: [] })
  })

  it('every blocker still reports blocked', () => {
    const merged = runs('PreToolUse', [{ stdout: deny('a') }, { stdout: deny('b') }])
    expect(merged.map((r) => r.outcome.status)).toEqual(['blocked', 'blocked'])
  })

  it('updatedInput comes from the allow handler that finished last (checklist 41)', () => {
    expect(
      mergePreToolUse(
        runs('PreToolUse', [
          { stdout: allow('one'), finished: 1 },
          { stdout: allow('two'), finished: 0 },
        ]),
      ).updatedInput,
    ).toEqual({
      command: 'one',
    })
    expect(
      mergePreToolUse(
        runs('PreToolUse', [
          { stdout: allow('one'), finished: 0 },
          { stdout: allow('two'), finished: 1 },
        ]),
      ).updatedInput,
    ).toEqual({
      command: 'two',
    })
  })

  it('updatedInput is dropped when another handler blocks (checklist 42)', () => {
    const merged = mergePreToolUse(
      runs('PreToolUse', [
        { stdout: allow('x'), finished: 1 },
        { exit: 2, stderr: 'no', finished: 0 },
      ]),
    )
    expect(merged).toEqual({ blocked: true, reason: 'no', contexts: [] })
    expect('updatedInput' in merged).toBe(false)
  })

  it('contexts in display order, kept when blocked (checklist 76)', () => {
    const merged = mergePreToolUse(
      runs('PreToolUse', [
        { stdout: preSpecific({ additionalContext: 'first' }), finished: 1 },
        { stdout: preSpecific({ permissionDecision: 'deny', permissionDecisionReason: 'r', additionalContext: 'second' }), finished: 0 },
      ]),
    )
    expect(merged.contexts).toEqual(['first', 'second'])
  })

  it('nothing decided', () => {
    expect(mergePreToolUse(runs('PreToolUse', [{ exit: 1 }, { stdout: 'text' }]))).toEqual({
      blocked: false,
      reason: undefined,
      contexts: [],
    })
  })
})

describe('mergePostToolUse', () => {
  it('feedback texts are joined with a blank line in display order (checklist 77)', () => {
    const merged = mergePostToolUse(
      runs('PostToolUse', [
        { stdout: json({ decision: 'block', reason: 'post reason A' }), finished: 1 },
        { stdout: '' },
        { exit: 2, stderr: 'post reason B', finished: 0 },
      ]),
    )
    expect(merged.replacement).toBe('post reason A\n\npost reason B')
    expect(merged.stopped).toBe(false)
  })

  it('continue:false replaces the output with stopReason and is not a halt', () => {
    expect(mergePostToolUse(runs('PostToolUse', [{ stdout: json({ continue: false, stopReason: 'halted' }) }]))).toEqual({
      replacement: 'halted',
      stopped: true,
      stopReason: 'halted',
      contexts: [],
    })
  })

  it('block + context: the context is kept (checklist 78)', () => {
    const merged = mergePostToolUse(
      runs('PostToolUse', [
        { stdout: json({ decision: 'block', reason: 'r', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'c' } }) },
      ]),
    )
    expect(merged).toEqual({ replacement: 'r', stopped: false, stopReason: undefined, contexts: ['c'] })
  })

  it('no feedback: no replacement', () => {
    expect(mergePostToolUse(runs('PostToolUse', [{ stdout: 'plain' }])).replacement).toBeUndefined()
  })
})

describe('mergeStop', () => {
  it('one fragment per blocking handler, display order, with its run id (checklist 84)', () => {
    const merged = mergeStop(
      runs('Stop', [
        { stdout: json({ decision: 'block', reason: 'reason from A' }), finished: 1 },
        { stdout: '' },
        { exit: 2, stderr: 'reason from B', finished: 0 },
      ]),
    )
    expect(merged).toEqual({
      action: 'continue',
      fragments: [
        { runId: 'stop:0:/home/user/.codex/hooks.json', text: 'reason from A' },
        { runId: 'stop:2:/home/user/.codex/hooks.json', text: 'reason from B' },
      ],
    })
  })

  it('the fragments render as the observed input_text parts', () => {
    const merged = mergeStop(
      runs('Stop', [{ stdout: json({ decision: 'block', reason: 'reason from A' }) }, { exit: 2, stderr: 'reason from B' }]),
    )
    if (merged.action !== 'continue') throw new Error('expected continue')
    expect(merged.fragments.map((f) => hookPromptText(f.runId, f.text))).toEqual([
      '<hook_prompt hook_run_id="stop:0:/home/user/.codex/hooks.json">reason from A</hook_prompt>',
      '<hook_prompt hook_run_id="stop:1:/home/user/.codex/hooks.json">reason from B</hook_prompt>',
    ])
  })

  it('continue:false from any handler beats every block (checklist 72)', () => {
    expect(
      mergeStop(
        runs('Stop', [
          { stdout: json({ decision: 'block', reason: 'more' }) },
          { stdout: json({ continue: false, stopReason: 'enough' }) },
        ]),
      ),
    ).toEqual({ action: 'stop', stopReason: 'enough' })
    expect(mergeStop(runs('Stop', [{ stdout: json({ continue: false }) }]))).toEqual({ action: 'stop', stopReason: undefined })
  })

  it('SubagentStop uses subagent-stop run ids (checklist 86)', () => {
    const merged = mergeStop(runs('SubagentStop', [{ exit: 2, stderr: 'child, go on' }]))
    expect(merged).toEqual({
      action: 'continue',
      fragments: [{ runId: 'subagent-stop:0:/home/user/.codex/hooks.json', text: 'child, go on' }],
    })
  })

  it('failures and silence: none', () => {
    expect(mergeStop(runs('Stop', [{ stdout: 'plain' }, { exit: 1 }, { stdout: '' }]))).toEqual({ action: 'none' })
  })
})

describe('mergePermissionRequest (checklist 73)', () => {
  const decide = (decision: Record<string, unknown>) => json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } })

  it('any deny wins with the first deny message', () => {
    expect(
      mergePermissionRequest(
        runs('PermissionRequest', [
          { stdout: decide({ behavior: 'allow' }) },
          { stdout: decide({ behavior: 'deny', message: 'first' }) },
          { exit: 2, stderr: 'second' },
        ]),
      ),
    ).toEqual({ verdict: { behavior: 'deny', message: 'first' }, fallbackToApproval: false })
  })

  it('otherwise allow if any allowed', () => {
    expect(mergePermissionRequest(runs('PermissionRequest', [{ stdout: '' }, { stdout: decide({ behavior: 'allow' }) }]))).toEqual({
      verdict: { behavior: 'allow' },
      fallbackToApproval: false,
    })
  })

  it('otherwise no verdict: the normal approval request', () => {
    expect(mergePermissionRequest(runs('PermissionRequest', [{ stdout: '' }, { exit: 1 }]))).toEqual({
      verdict: undefined,
      fallbackToApproval: true,
    })
  })

  it('interrupt:true falls back to approval', () => {
    const merged = runs('PermissionRequest', [{ stdout: decide({ behavior: 'deny', interrupt: true }) }])
    expect(merged[0]!.outcome.status).toBe('failed')
    expect(mergePermissionRequest(merged)).toEqual({ verdict: undefined, fallbackToApproval: true })
  })
})

describe('mergeGate', () => {
  const ups = (rest: Record<string, unknown>, context?: string) =>
    json(context === undefined ? rest : { ...rest, hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context } })

  it('UserPromptSubmit: blocked if any blocks; contexts kept (checklist 70, 82)', () => {
    expect(
      mergeGate(runs('UserPromptSubmit', [{ stdout: 'ctx one' }, { stdout: ups({ decision: 'block', reason: 'no' }, 'ctx two') }])),
    ).toEqual({
      stopped: false,
      stopReason: undefined,
      blocked: true,
      blockReason: 'no',
      contexts: ['ctx one', 'ctx two'],
    })
  })

  it('stopped if any stops', () => {
    expect(mergeGate(runs('UserPromptSubmit', [{ stdout: '' }, { stdout: ups({ continue: false, stopReason: 'later' }) }]))).toMatchObject({
      stopped: true,
      stopReason: 'later',
      blocked: false,
    })
    expect(mergeGate(runs('SessionStart', [{ stdout: json({ continue: false }) }]))).toMatchObject({ stopped: true, stopReason: undefined })
    expect(mergeGate(runs('PreCompact', [{ stdout: '' }, { stdout: json({ continue: false, stopReason: 'skip' }) }]))).toMatchObject({
      stopped: true,
      stopReason: 'skip',
    })
  })

  it('PreCompact exit 2 is a failure: the compaction still happens (checklist 74)', () => {
    expect(mergeGate(runs('PreCompact', [{ exit: 2, stderr: 'no' }]))).toMatchObject({ stopped: false, blocked: false })
  })

  it('SessionStart contexts, display order', () => {
    expect(
      mergeGate(
        runs('SessionStart', [
          { stdout: 'a', finished: 1 },
          { stdout: 'b', finished: 0 },
        ]),
      ).contexts,
    ).toEqual(['a', 'b'])
  })
})

describe('mergeOutcomes', () => {
  it('dispatches by event family', () => {
    expect(mergeOutcomes('PreToolUse', []).family).toBe('preToolUse')
    expect(mergeOutcomes('PostToolUse', []).family).toBe('postToolUse')
    expect(mergeOutcomes('SubagentStop', [])).toEqual({ family: 'stop', decision: { action: 'none' } })
    expect(mergeOutcomes('PermissionRequest', []).family).toBe('permissionRequest')
    for (const event of ['UserPromptSubmit', 'SessionStart', 'SubagentStart', 'PreCompact', 'PostCompact'] as const) {
      expect(mergeOutcomes(event, []).family).toBe('gate')
    }
    expect(mergeOutcomes('Interrupt', [])).toEqual({ family: 'none' })
    expect(mergeOutcomes('SessionEnd', [])).toEqual({ family: 'none' })
  })
})
