/**
 * Claude Code's permissions on the kernel's tool points: what the model sees, which hooks fire and with what, and how
 * Claude Code's guardrails combine with the kernel's own (Codex-style) ones. Texts and hook sequences as Claude Code
 * 2.1.332 showed them (`claude -p`, observed; see permissions-engine.test.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ApprovalRequest, definePlugin, type Message } from '@harness-kernel/kernel'
import { describe, expect, it, onTestFinished } from 'vitest'
import { PERMISSION_TEXTS } from '../src/index.js'
import { bash, claudeHarnessPerTest, rec, recordEvents } from './claude-harness.js'

const harness = claudeHarnessPerTest()
const TOOL_EVENTS = ['PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure', 'Notification']
const call = (id: string, name: string, input: unknown) => ({ tool_calls: [{ id, name, input }] })

function toolResults(messages: readonly Message[]) {
  return messages
    .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
    .flatMap((block) => (block.type === 'tool_result' ? [{ output: block.output, isError: block.isError }] : []))
}

/** Approves (for the session, or once) or refuses every request, and keeps what it was asked. */
function approver(kind: 'allow' | 'deny' | 'allow-for-session') {
  const asked: ApprovalRequest[] = []
  const plugin = definePlugin({
    name: 'test-approver',
    setup(kernel) {
      kernel.provide('approvals', {
        async request(request: ApprovalRequest) {
          asked.push(request)
          if (kind === 'deny') return { kind: 'deny', reason: 'REFUSED-BY-APPROVER' }
          return kind === 'allow' ? { kind: 'allow' } : { kind: 'allow', remember: 'session' }
        },
      })
    },
  })
  return { plugin, asked }
}

async function runOnce(h: ReturnType<typeof harness>) {
  const session = await h.kernel.startSession()
  const result = await session.run('go')
  await session.end()
  return result
}

describe('rules', () => {
  it('a Bash deny rule: PreToolUse runs, then the model is told Claude Code’s text; no PermissionRequest', async () => {
    const h = harness({
      script: [bash('echo a && rm -f x'), { text: 'done' }],
      hooks: recordEvents(TOOL_EVENTS),
      settings: { permissions: { deny: ['Bash(rm:*)'] } },
      options: { permissionMode: 'bypassPermissions' },
    })
    const result = await runOnce(h)
    expect(toolResults(result.messages)).toEqual([
      { output: 'Permission to use Bash with command echo a && rm -f x has been denied.', isError: true },
    ])
    expect(h.calls().map((recorded) => recorded.event)).toEqual(['PreToolUse'])
  })

  it('a Read deny refuses the file before any hook; the secret never reaches the model', async () => {
    const h = harness({
      script: [call('toolu_1', 'read_file', { path: '.env' }), { text: 'done' }],
      hooks: recordEvents(TOOL_EVENTS),
      settings: { permissions: { deny: ['Read(./.env)'] } },
    })
    writeFileSync(join(h.project, '.env'), 'SECRET=hunter2\n')
    const result = await runOnce(h)
    expect(toolResults(result.messages)).toEqual([{ output: PERMISSION_TEXTS.fileDenied, isError: true }])
    expect(h.calls()).toEqual([])
    expect(JSON.stringify(h.requests())).not.toContain('hunter2')
  })

  it('a tool-wide deny takes the tool away from the model', async () => {
    const h = harness({ script: [{ text: 'done' }], settings: { permissions: { deny: ['Write'] } } })
    await runOnce(h)
    const offered = h.requests()[0]!.tools.map((tool) => tool.name)
    expect(offered).toContain('shell')
    expect(offered).not.toContain('write_file')
  })

  it('an ask rule under bypassPermissions: PermissionRequest without suggestions, then Claude Code’s text when nobody answers', async () => {
    const h = harness({
      script: [bash('git push origin main'), { text: 'done' }],
      hooks: recordEvents(TOOL_EVENTS),
      settings: { permissions: { ask: ['Bash(git push:*)'] } },
      options: { permissionMode: 'bypassPermissions' },
    })
    const result = await runOnce(h)
    expect(toolResults(result.messages)).toEqual([
      { output: "Claude requested permissions to use Bash, but you haven't granted it yet.", isError: true },
    ])
    expect(h.calls().map((recorded) => recorded.event)).toEqual(['PreToolUse', 'PermissionRequest'])
    const payload = h.calls('PermissionRequest')[0]!.payload
    expect(payload.permission_mode).toBe('bypassPermissions')
    expect(Object.hasOwn(payload, 'permission_suggestions')).toBe(false)
  })
})

describe('modes', () => {
  it('default: a Write asks; the PermissionRequest hook gets Claude Code’s suggestion, the model Claude Code’s text', async () => {
    const h = harness({
      script: [call('toolu_1', 'write_file', { path: 'w.txt', content: 'x' }), { text: 'done' }],
      hooks: recordEvents(TOOL_EVENTS),
      options: { permissionMode: 'default' },
    })
    const result = await runOnce(h)
    const file = join(h.project, 'w.txt')
    expect(toolResults(result.messages)).toEqual([
      { output: `Claude requested permissions to write to ${file}, but you haven't granted it yet.`, isError: true },
    ])
    expect(existsSync(file)).toBe(false)
    expect(h.calls().map((recorded) => recorded.event)).toEqual(['PreToolUse', 'PermissionRequest'])
    expect(h.calls('PermissionRequest')[0]!.payload).toMatchObject({
      permission_mode: 'default',
      tool_name: 'Write',
      permission_suggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
    })
  })

  it('default: a PermissionRequest hook’s allow runs the call', async () => {
    const h = harness({
      script: [bash('touch made.txt'), { text: 'done' }],
      hooks: { PermissionRequest: [{ hooks: [rec('PermissionRequest')] }] },
      responses: {
        'PermissionRequest-h.stdout': JSON.stringify({
          hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
        }),
      },
      options: { permissionMode: 'default' },
    })
    await runOnce(h)
    expect(existsSync(join(h.project, 'made.txt'))).toBe(true)
  })

  it('default, with an approver: the approver is asked with Claude Code’s reason, and its answer decides', async () => {
    const { plugin, asked } = approver('allow')
    const h = harness({ script: [bash('touch made.txt'), { text: 'done' }], options: { permissionMode: 'default' }, plugins: [plugin] })
    await runOnce(h)
    expect(asked.map((request) => request.reason)).toEqual([
      `touch in '${join(h.project, 'made.txt')}' needs approval. The path is inside the working directories for this session ('${h.project}'), and Claude Code asks before a shell command creates, changes or removes files there.`,
    ])
    expect(existsSync(join(h.project, 'made.txt'))).toBe(true)
  })

  it('a refused prompt: the model is told what Claude Code tells it, whatever the approver said', async () => {
    const { plugin } = approver('deny')
    const h = harness({ script: [bash('touch made.txt'), { text: 'done' }], options: { permissionMode: 'default' }, plugins: [plugin] })
    const result = await runOnce(h)
    expect(toolResults(result.messages)).toEqual([{ output: PERMISSION_TEXTS.userRejected, isError: true }])
    expect(PERMISSION_TEXTS.userRejected).toBe(
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
    )
  })

  it('an approval for the session applies what the prompt suggested: the command’s rule, or acceptEdits', async () => {
    const { plugin, asked } = approver('allow-for-session')
    const h = harness({
      script: [
        bash('node -e "1"', 'toolu_1'),
        bash('node -e "1"', 'toolu_2'),
        call('toolu_3', 'write_file', { path: 'a.txt', content: 'a' }),
        call('toolu_4', 'write_file', { path: 'b.txt', content: 'b' }),
        { text: 'done' },
      ],
      hooks: recordEvents(['PreToolUse']),
      options: { permissionMode: 'default' },
      plugins: [plugin],
    })
    await runOnce(h)
    // Asked once for the command (then its rule holds) and once for the first write (then acceptEdits holds).
    expect(asked.map((request) => request.call.id)).toEqual(['toolu_1', 'toolu_3'])
    expect(existsSync(join(h.project, 'b.txt'))).toBe(true)
    expect(h.calls('PreToolUse').map((recorded) => recorded.payload.permission_mode)).toEqual([
      'default',
      'default',
      'default',
      'acceptEdits',
    ])
  })

  it('acceptEdits: edits in the project run without asking; additionalDirectories widen where', async () => {
    const extra = mkdtempSync(join(tmpdir(), 'hk-claude-perm-extra-'))
    onTestFinished(() => rmSync(extra, { recursive: true, force: true }))
    const h = harness({
      script: [
        call('toolu_1', 'write_file', { path: 'w.txt', content: 'x' }),
        call('toolu_2', 'write_file', { path: join(extra, 'e.txt'), content: 'y' }),
        { text: 'done' },
      ],
      settings: { permissions: { defaultMode: 'acceptEdits', additionalDirectories: [extra] } },
    })
    const result = await runOnce(h)
    expect(toolResults(result.messages).map((entry) => entry.isError)).toEqual([false, false])
    expect(existsSync(join(extra, 'e.txt'))).toBe(true)
  })

  it('dontAsk: what would ask is refused at once, with no PermissionRequest', async () => {
    const h = harness({
      script: [bash('touch t.txt'), { text: 'done' }],
      hooks: recordEvents(TOOL_EVENTS),
      options: { permissionMode: 'dontAsk' },
    })
    const result = await runOnce(h)
    expect(toolResults(result.messages)).toEqual([{ output: PERMISSION_TEXTS.dontAsk('Bash'), isError: true }])
    expect(h.calls().map((recorded) => recorded.event)).toEqual(['PreToolUse'])
  })

  it('auto: what needs the classifier is refused, and PermissionDenied hooks hear why', async () => {
    const h = harness({
      script: [bash('curl -s http://127.0.0.1:1/'), { text: 'done' }],
      hooks: recordEvents(TOOL_EVENTS),
      options: { permissionMode: 'auto', effort: 'medium' },
    })
    const result = await runOnce(h)
    expect(toolResults(result.messages)).toEqual([{ output: PERMISSION_TEXTS.classifierUnavailable('Bash'), isError: true }])
    expect(h.calls().map((recorded) => recorded.event)).toEqual(['PreToolUse', 'PermissionDenied'])
    const payload = h.calls('PermissionDenied')[0]!.payload
    expect(Object.keys(payload).slice(3)).toEqual([
      'prompt_id',
      'permission_mode',
      'effort',
      'hook_event_name',
      'tool_name',
      'tool_input',
      'tool_use_id',
      'reason',
    ])
    expect(payload).toMatchObject({ permission_mode: 'auto', reason: 'Classifier unavailable', tool_name: 'Bash' })
  })

  it('a project’s defaultMode bypassPermissions is not taken; disableBypassPermissionsMode turns the flag into default', async () => {
    // Not taken, so no mode is named: the guardrails' on-request policy governs and is reported as `default`.
    const notices: string[] = []
    const h = harness({
      script: [bash('touch t.txt'), { text: 'done' }],
      hooks: recordEvents(['PreToolUse']),
      settings: { permissions: { defaultMode: 'bypassPermissions' } },
      guardrails: { sandbox: 'danger-full-access', approvals: 'on-request' },
      plugins: [
        definePlugin({
          name: 'notices',
          setup(kernel) {
            kernel.hooks.notice.tap('notices', ({ text }) => {
              notices.push(text)
            })
          },
        }),
      ],
    })
    await runOnce(h)
    expect(h.calls('PreToolUse')[0]!.payload.permission_mode).toBe('default')
    expect(notices).toContainEqual(expect.stringMatching(/permissions\.defaultMode "bypassPermissions" is not taken from project settings/))
    const g = harness({
      script: [bash('touch t.txt'), { text: 'done' }],
      hooks: recordEvents(['PreToolUse']),
      settings: { permissions: { disableBypassPermissionsMode: 'disable' } },
      options: { permissionMode: 'bypassPermissions' },
    })
    await runOnce(g)
    expect(g.calls('PreToolUse')[0]!.payload.permission_mode).toBe('default')
  })
})

describe('with the kernel’s own guardrails', () => {
  it('no Claude Code mode named: the guardrails’ policy decides, and payloads report it', async () => {
    const h = harness({
      script: [bash('touch t.txt'), { text: 'done' }],
      hooks: recordEvents(['PreToolUse']),
      guardrails: { sandbox: 'danger-full-access', approvals: 'on-request' },
    })
    await runOnce(h)
    expect(existsSync(join(h.project, 't.txt'))).toBe(true)
    expect(h.calls('PreToolUse')[0]!.payload.permission_mode).toBe('default')
  })

  it('a call runs only if both let it: a Claude Code allow rule does not remove the guardrails’ own prompt', async () => {
    const { plugin, asked } = approver('deny')
    const h = harness({
      script: [bash('touch t.txt'), { text: 'done' }],
      settings: { permissions: { allow: ['Bash(touch:*)'] } },
      options: { permissionMode: 'default' },
      guardrails: { sandbox: 'danger-full-access', approvals: 'untrusted' },
      plugins: [plugin],
    })
    const result = await runOnce(h)
    expect(asked).toHaveLength(1)
    expect(asked[0]!.cause).toBe('policy')
    expect(toolResults(result.messages)[0]!.isError).toBe(true)
    expect(existsSync(join(h.project, 't.txt'))).toBe(false)
  })

  it('and the guardrails’ allow does not remove Claude Code’s prompt: one request carries Claude Code’s reason', async () => {
    const { plugin, asked } = approver('allow')
    const h = harness({
      script: [bash('touch t.txt'), { text: 'done' }],
      options: { permissionMode: 'default' },
      guardrails: { sandbox: 'danger-full-access', approvals: 'never' },
      plugins: [plugin],
    })
    await runOnce(h)
    expect(asked).toHaveLength(1)
    expect(asked[0]!.reason).toMatch(/^touch in '.*t\.txt' needs approval\./)
    expect(existsSync(join(h.project, 't.txt'))).toBe(true)
  })

  it('a Claude Code deny rule holds under full access and approval policy never', async () => {
    const h = harness({
      script: [bash('rm -rf src'), { text: 'done' }],
      settings: { permissions: { deny: ['Bash(rm:*)'] } },
      guardrails: { sandbox: 'danger-full-access', approvals: 'never' },
    })
    mkdirSync(join(h.project, 'src'))
    await runOnce(h)
    expect(existsSync(join(h.project, 'src'))).toBe(true)
  })
})
