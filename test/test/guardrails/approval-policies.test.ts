import { mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { GUARDRAIL_TEXTS } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { existsSync, outsideDir, recordingApprover, runGuarded, shellSteps } from './guardrails-harness.js'

// Codex's decision logic (guardrails.md §2.1), through real tool calls, a real sandbox and real files.
describe('approval policies', () => {
  it('on-request runs an ordinary command in the sandbox without asking; a write outside fails there', async () => {
    const outside = outsideDir()
    const approver = recordingApprover()
    const { dir, results } = await runGuarded(
      shellSteps({ command: 'echo in > inside.txt && cat inside.txt' }, { command: `echo out > ${outside}/f.txt` }),
      { approvals: 'on-request' },
      [approver.plugin],
    )
    expect(results[0]).toBe('in')
    expect(readFileSync(join(dir, 'inside.txt'), 'utf8')).toBe('in\n')
    expect(results[1]).toContain('Read-only file system')
    expect(existsSync(join(outside, 'f.txt'))).toBe(false)
    expect(approver.requests).toHaveLength(0)
  })

  it('on-request asks before a dangerous command, and a refusal tells the model', async () => {
    const approver = recordingApprover([{ kind: 'deny', reason: 'rejected by user' }])
    const { dir, results } = await runGuarded(shellSteps({ command: 'rm -rf keep' }), { approvals: 'on-request' }, [approver.plugin])
    expect(approver.requests).toHaveLength(1)
    expect(approver.requests[0]?.action).toEqual({ kind: 'command', command: 'rm -rf keep', cwd: dir })
    expect(approver.requests[0]?.sandboxed).toBe(true)
    expect(results[0]).toBe('rejected by user')
  })

  // Codex 0.169.0 retired its known-safe list: under `untrusted` it asks before `ls` too, unless a rule allows it.
  it('untrusted asks before every command no rule allows, and remembers an approval for the session', async () => {
    const approver = recordingApprover([{ kind: 'allow' }, { kind: 'allow', remember: 'session' }])
    const { dir, results } = await runGuarded(
      shellSteps({ command: 'ls' }, { command: 'touch made' }, { command: 'touch made' }, { command: 'touch other' }, { command: 'pwd' }),
      { approvals: 'untrusted', rules: [{ pattern: ['pwd'], decision: 'allow' }] },
      [approver.plugin],
    )
    expect(approver.requests.map((request) => request.action)).toEqual([
      { kind: 'command', command: 'ls', cwd: dir },
      { kind: 'command', command: 'touch made', cwd: dir },
      { kind: 'command', command: 'touch other', cwd: dir },
    ])
    expect(existsSync(join(dir, 'made'))).toBe(true)
    expect(existsSync(join(dir, 'other'))).toBe(false)
    expect(results[3]).toBe('rejected by user')
    expect(results[4]).toBe(realpathSync(dir))
  })

  it('an escalation asks, with the justification and the proposed rule, and once approved runs outside the sandbox', async () => {
    const outside = outsideDir()
    const approver = recordingApprover([{ kind: 'allow' }])
    const { results } = await runGuarded(
      shellSteps({
        command: `echo out > ${outside}/f.txt && echo written`,
        sandbox_permissions: 'require_escalated',
        justification: 'Write the report outside the project?',
        prefix_rule: ['echo'],
      }),
      { approvals: 'on-request' },
      [approver.plugin],
    )
    expect(approver.requests[0]).toMatchObject({
      reason: 'Write the report outside the project?',
      sandboxed: false,
      proposedRule: ['echo'],
    })
    expect(results[0]).toBe('written')
    expect(readFileSync(join(outside, 'f.txt'), 'utf8')).toBe('out\n')
  })

  it('never refuses an escalation without asking, in Codex words', async () => {
    const outside = outsideDir()
    const approver = recordingApprover([{ kind: 'allow' }])
    const { results } = await runGuarded(
      shellSteps({ command: `touch ${outside}/f`, sandbox_permissions: 'require_escalated' }),
      { approvals: 'never' },
      [approver.plugin],
    )
    expect(approver.requests).toHaveLength(0)
    expect(results[0]).toBe(GUARDRAIL_TEXTS.escalationUnderNever)
    expect(existsSync(join(outside, 'f'))).toBe(false)
  })

  it('a justification without sandbox_permissions is refused before anything runs', async () => {
    const { dir, results } = await runGuarded(shellSteps({ command: 'touch x', justification: 'why' }), {})
    expect(results[0]).toContain('`justification` requires an explicit `sandbox_permissions`')
    expect(existsSync(join(dir, 'x'))).toBe(false)
  })

  it('granular refuses the categories set to false', async () => {
    const granular = { sandbox_approval: false, rules: true, skill_approval: false, request_permissions: false, mcp_elicitations: false }
    const approver = recordingApprover()
    const { results } = await runGuarded(
      shellSteps({ command: 'touch x', sandbox_permissions: 'require_escalated' }),
      { approvals: { granular } },
      [approver.plugin],
    )
    expect(results[0]).toBe(GUARDRAIL_TEXTS.granularSandbox)
    expect(approver.requests).toHaveLength(0)
  })

  it('a cancelled approval ends the turn', async () => {
    const approver = recordingApprover([{ kind: 'deny', reason: 'rejected by user', interrupt: true }])
    const { turn, results } = await runGuarded(shellSteps({ command: 'rm -rf x' }, { command: 'echo never' }), {}, [approver.plugin])
    expect(turn.status).toBe('halted')
    expect(results).toEqual(['rejected by user'])
  })
})

describe('command rules', () => {
  it('forbidden refuses, prompt asks, allow runs outside the sandbox', async () => {
    const outside = outsideDir()
    const approver = recordingApprover([{ kind: 'deny', reason: 'rejected by user' }])
    const rules = [
      { pattern: ['git', 'push'], decision: 'forbidden' as const, justification: 'pushes go through review' },
      { pattern: ['npm', ['publish', 'unpublish']], decision: 'prompt' as const },
      { pattern: ['touch'], decision: 'allow' as const },
    ]
    const { results } = await runGuarded(
      shellSteps({ command: 'git push origin main' }, { command: 'npm publish' }, { command: `touch ${outside}/allowed` }),
      { rules },
      [approver.plugin],
    )
    expect(results[0]).toBe('Rejected("`/bin/bash -lc \'git push origin main\'` rejected: pushes go through review")')
    expect(approver.requests.map((request) => [request.action, request.reason])).toMatchObject([
      [{ command: 'npm publish' }, "`/bin/bash -lc 'npm publish'` requires approval by policy"],
    ])
    expect(existsSync(join(outside, 'allowed'))).toBe(true)
  })

  it('a rule approved for the session (acceptWithExecpolicyAmendment) lets matching commands run unasked', async () => {
    const outside = outsideDir()
    const approver = recordingApprover([{ kind: 'allow', rule: ['touch'] }])
    await runGuarded(
      shellSteps(
        { command: `touch ${outside}/a`, sandbox_permissions: 'require_escalated', prefix_rule: ['touch'] },
        { command: `touch ${outside}/b` },
      ),
      {},
      [approver.plugin],
    )
    expect(approver.requests).toHaveLength(1)
    expect(existsSync(join(outside, 'a'))).toBe(true)
    expect(existsSync(join(outside, 'b'))).toBe(true)
  })
})

describe('file changes', () => {
  const write = (path: string) => ({ tool_calls: [{ name: 'write_file', input: { path, content: 'x' } }] })

  it('a write inside the workspace runs in the sandbox unasked; one outside asks and, approved, is written', async () => {
    const outside = outsideDir()
    const approver = recordingApprover([{ kind: 'allow' }])
    const { dir, results } = await runGuarded([write('in.txt'), write(join(outside, 'out.txt')), { text: 'done' }], {}, [approver.plugin])
    expect(readFileSync(join(dir, 'in.txt'), 'utf8')).toBe('x')
    expect(approver.requests).toHaveLength(1)
    expect(approver.requests[0]?.action).toEqual({ kind: 'fileChange', paths: [join(outside, 'out.txt')], cwd: dir })
    expect(approver.requests[0]?.reason).toContain(join(outside, 'out.txt'))
    expect(results[1]).toContain('Wrote 1 bytes')
    expect(readFileSync(join(outside, 'out.txt'), 'utf8')).toBe('x')
  })

  it('`..` and a symlinked parent are resolved before judging; never refuses them, and nothing is written', async () => {
    const outside = outsideDir()
    const { dir, results } = await runGuarded(
      [write(`../../..${outside}/dots.txt`), write('link/through.txt'), { text: 'done' }],
      { approvals: 'never' },
      [
        {
          name: 'make-link',
          setup: (kernel) => {
            kernel.hooks.sessionStart.tap('make-link', ({ session }) => symlinkSync(outside, join(session.cwd, 'link')))
          },
        },
      ],
    )
    expect(results).toEqual([GUARDRAIL_TEXTS.writeOutsideRefused, GUARDRAIL_TEXTS.writeOutsideRefused])
    expect(existsSync(join(outside, 'dots.txt'))).toBe(false)
    expect(existsSync(join(outside, 'through.txt'))).toBe(false)
    expect(existsSync(join(dir, 'link'))).toBe(true)
  })

  it('read-only asks before any write, and a write into a protected .git is refused by the sandbox', async () => {
    const approver = recordingApprover([{ kind: 'deny', reason: 'rejected by user' }])
    const { dir, results } = await runGuarded([write('a.txt'), { text: 'done' }], { sandbox: 'read-only' }, [approver.plugin])
    expect(approver.requests).toHaveLength(1)
    expect(results[0]).toBe('rejected by user')
    expect(existsSync(join(dir, 'a.txt'))).toBe(false)

    const protectedRun = await runGuarded([write('.git/config'), { text: 'done' }], { approvals: 'never' }, [
      {
        name: 'make-git',
        setup: (kernel) => {
          kernel.hooks.sessionStart.tap('make-git', ({ session }) => mkdirSync(join(session.cwd, '.git')))
        },
      },
    ])
    expect(protectedRun.results[0]).toBe(GUARDRAIL_TEXTS.writeOutsideRefused)
    expect(existsSync(join(protectedRun.dir, '.git', 'config'))).toBe(false)
  })
})
