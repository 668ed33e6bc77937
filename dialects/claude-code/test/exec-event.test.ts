import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { ExecProcessRunner, LauncherProcessRunner, type ModelProvider, type ModelRequest, type ProcessRunner } from '@harness-kernel/kernel'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  type ExecClaudeCodeEventOptions,
  execClaudeCodeEvent,
  handlerTimeoutSec,
  loadClaudeCodeHooks,
  type ProducedEvent,
} from '../src/index.js'

// Every test runs with this process's runner and with the kernel's default, the process launcher.
const runners = [
  { name: 'ExecProcessRunner', runner: new ExecProcessRunner() },
  { name: 'LauncherProcessRunner', runner: new LauncherProcessRunner() },
]
let processRunner: ProcessRunner = runners[0]!.runner
const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

interface Sandbox {
  root: string
  project: string
  configDir: string
  projectSettings: string
  userSettings: string
  /** Writes an executable `#!/bin/sh` script under the root and returns its path. */
  script(name: string, body: string): string
  exec(event: ProducedEvent, payload: string, options?: Partial<ExecClaudeCodeEventOptions>): ReturnType<typeof execClaudeCodeEvent>
}

/** A project and a Claude config dir, each with a settings file holding `hooks` (if given); no managed settings. */
function sandbox(projectHooks: Record<string, unknown>, userHooks?: Record<string, unknown>): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cc-exec-')))
  roots.push(root)
  const project = join(root, 'project')
  const configDir = join(root, 'claude')
  const projectSettings = join(project, '.claude', 'settings.json')
  const userSettings = join(configDir, 'settings.json')
  const write = (path: string, value: unknown) => {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`)
  }
  write(projectSettings, { hooks: projectHooks })
  if (userHooks) write(userSettings, { hooks: userHooks })
  else mkdirSync(configDir, { recursive: true })
  return {
    root,
    project,
    configDir,
    projectSettings,
    userSettings,
    script(name, body) {
      const path = join(root, name)
      writeFileSync(path, `#!/bin/sh\n${body}\n`)
      chmodSync(path, 0o755)
      return path
    },
    exec(event, payload, options = {}) {
      const loaded = loadClaudeCodeHooks({ projectDir: project, configDir, managedSettingsPath: false, env: {} })
      return execClaudeCodeEvent({ loaded, event, payload, processRunner, cwd: project, envFileDir: join(root, 'env'), ...options })
    },
  }
}

const command = (text: string, fields: Record<string, unknown> = {}) => ({ type: 'command', command: text, ...fields })

function payloadOf(event: string, cwd: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { session_id: 'sess-42', transcript_path: join(cwd, 't.jsonl'), cwd, hook_event_name: event, ...fields }
}

describe.each(runners)('$name: execClaudeCodeEvent', ({ runner }) => {
  beforeAll(() => {
    processRunner = runner
  })

  it('PreToolUse: selects by matcher and `if`, dedups, runs on the exact bytes with a final newline added, and merges', async () => {
    const s = sandbox({})
    const recorder = s.script(
      'record.sh',
      'cat > "$1.stdin"; printf "%s|%s|%s|%s" "$CLAUDE_PROJECT_DIR" "$CLAUDE_CODE_SESSION_ID" "$CLAUDECODE" "$(pwd)" > "$1.env"; echo "no rm today" >&2; exit 2',
    )
    const exit2 = `${recorder} ${join(s.root, 'exit2')}`
    const deny = `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no","additionalContext":"ctx from deny"}}'`
    const notGit = 'echo never-git > never-git.txt'
    const onRm = `printf '%s' '{"systemMessage":"watching rm","hookSpecificOutput":{"additionalContext":"rm is risky"}}'`
    writeFileSync(
      s.projectSettings,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [command(exit2), command(deny), command(notGit, { if: 'Bash(git *)' })] },
            { matcher: 'Edit|Write', hooks: [command('echo never-edit > never-edit.txt')] },
            { matcher: 'Ba.*', hooks: [command(onRm, { if: 'Bash(rm *)' }), command(exit2), { type: 'agent', prompt: 'check it' }] },
          ],
        },
      }),
    )
    const payload = JSON.stringify(
      payloadOf('PreToolUse', s.project, { tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, tool_use_id: 'toolu_1' }),
    )

    const result = await s.exec('PreToolUse', payload)

    const key = (group: number, index: number) => `${s.projectSettings}:PreToolUse:${group}:${index}`
    expect(result.subject).toBe('Bash')
    expect(result.hookName).toBe('PreToolUse:Bash')
    expect(result.runs.map((run) => run.handler.key)).toEqual([key(0, 0), key(0, 1), key(2, 0)])
    expect(result.skipped).toEqual([
      { handler: expect.objectContaining({ key: key(2, 1) }), reason: 'duplicate', duplicateOf: key(0, 0) },
      { handler: expect.objectContaining({ key: key(2, 2), type: 'agent' }), reason: 'unsupported' },
    ])
    expect(result.stdin).toBe(`${payload}\n`)
    expect(readFileSync(join(s.root, 'exit2.stdin'), 'utf8')).toBe(`${payload}\n`)
    expect(readFileSync(join(s.root, 'exit2.env'), 'utf8')).toBe(`${s.project}|sess-42|1|${s.project}`)

    const [first, second, third] = result.runs
    expect(first).toMatchObject({ label: exit2, async: false, timeoutSec: 600, result: { kind: 'command', exitCode: 2 } })
    expect(first!.output).toEqual({ status: 'blocking', exit2Stderr: 'no rm today\n' })
    expect(second!.output.json?.hookSpecificOutput?.permissionDecision).toBe('deny')
    expect(third!.output.json?.systemMessage).toBe('watching rm')
    expect(result.merged).toMatchObject({
      family: 'preToolUse',
      exit2: `[${exit2}]: no rm today\n`,
      verdict: 'deny',
      reason: 'json says no',
      systemMessages: ['watching rm'],
    })
    expect(result.modelTexts).toEqual([
      { kind: 'tool_error', text: `PreToolUse:Bash hook error: [${exit2}]: no rm today\n` },
      ...[...result.merged.contexts].map((context) => ({ kind: 'context', text: `PreToolUse:Bash hook additional context: ${context}` })),
    ])
    expect([...result.merged.contexts].sort()).toEqual(['ctx from deny', 'rm is risky'])
    expect(result.notices).toEqual(['PreToolUse:Bash says: watching rm'])
    expect(result.warnings).toEqual([])
  })

  it('a deny alone is `PreToolUse:<tool> hook error: <reason>`; a payload that ends with a newline is passed unchanged', async () => {
    const s = sandbox({})
    const recorder = s.script('stdin.sh', `cat > "${join(s.root, 'seen.json')}"; printf '%s' '{"decision":"block","reason":"legacy no"}'`)
    writeFileSync(s.projectSettings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Read', hooks: [command(recorder)] }] } }))
    const payload = `${JSON.stringify(payloadOf('PreToolUse', s.project, { tool_name: 'Read', tool_input: { file_path: '/x' } }), null, 2)}\n`

    const result = await s.exec('PreToolUse', payload)

    expect(readFileSync(join(s.root, 'seen.json'), 'utf8')).toBe(payload)
    expect(result.stdin).toBe(payload)
    expect(result.merged).toMatchObject({ family: 'preToolUse', verdict: 'deny', reason: 'legacy no' })
    expect(result.modelTexts).toEqual([{ kind: 'tool_error', text: 'PreToolUse:Read hook error: legacy no' }])
  })

  it('UserPromptSubmit ignores matchers; plain stdout becomes a success text, and a block only a user notice', async () => {
    const s = sandbox({
      UserPromptSubmit: [{ matcher: 'no-such-thing', hooks: [command('echo "remember the tests"')] }],
    })
    const payload = JSON.stringify(payloadOf('UserPromptSubmit', s.project, { prompt: 'fix it' }))
    const ok = await s.exec('UserPromptSubmit', payload)
    expect(ok.subject).toBeUndefined()
    expect(ok.runs).toHaveLength(1)
    expect(ok.merged).toMatchObject({ family: 'gate', blocks: [], plainStdout: ['remember the tests\n'] })
    expect(ok.modelTexts).toEqual([{ kind: 'context', text: 'UserPromptSubmit hook success: remember the tests' }])

    writeFileSync(
      s.projectSettings,
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [command('echo "not today" >&2; exit 2')] }] } }),
    )
    const blocked = await s.exec('UserPromptSubmit', payload)
    expect(blocked.modelTexts).toEqual([])
    expect(blocked.notices).toEqual([
      'UserPromptSubmit operation blocked by hook:\n[echo "not today" >&2; exit 2]: not today\n\n\nOriginal prompt: fix it',
    ])
  })

  it("SessionStart matches the payload's source and gives the hook a CLAUDE_ENV_FILE", async () => {
    const s = sandbox({
      SessionStart: [
        { matcher: 'startup', hooks: [command('printf "%s" "$CLAUDE_ENV_FILE" > env-file.txt; echo started')] },
        { matcher: 'compact', hooks: [command('echo compacted')] },
      ],
    })
    const result = await s.exec('SessionStart', JSON.stringify(payloadOf('SessionStart', s.project, { source: 'startup' })))
    expect(result.subject).toBe('startup')
    expect(result.runs.map((run) => run.label)).toEqual(['printf "%s" "$CLAUDE_ENV_FILE" > env-file.txt; echo started'])
    expect(readFileSync(join(s.project, 'env-file.txt'), 'utf8')).toBe(join(s.root, 'env', 'sess-42', 'sessionstart-hook-0.sh'))
    expect(result.modelTexts).toEqual([{ kind: 'context', text: 'SessionStart hook success: started' }])
  })

  it("Interrupt matches the payload's source; its output puts nothing before the model", async () => {
    const s = sandbox({
      Interrupt: [
        { matcher: 'user', hooks: [command(`echo '{"decision":"block","reason":"R","hookSpecificOutput":{"additionalContext":"C"}}'`)] },
        { matcher: 'system', hooks: [command('echo system')] },
      ],
    })
    const result = await s.exec(
      'Interrupt',
      JSON.stringify(payloadOf('Interrupt', s.project, { source: 'user', reason: 'stop', via: 'client' })),
    )
    expect(result.subject).toBe('user')
    expect(result.runs).toHaveLength(1)
    expect(result.modelTexts).toEqual([])
  })

  it('Stop: a JSON block and an exit 2 give the two continuation texts', async () => {
    const s = sandbox({
      Stop: [
        { hooks: [command(`printf '%s' '{"decision":"block","reason":"keep going"}'`)] },
        { hooks: [command('echo "tests fail" >&2; exit 2')] },
      ],
    })
    const result = await s.exec('Stop', JSON.stringify(payloadOf('Stop', s.project, { stop_hook_active: false })))
    expect(result.merged).toMatchObject({ family: 'gate' })
    expect(result.modelTexts).toEqual([
      {
        kind: 'stop_feedback',
        text: `Stop hook blocking error from command: "printf '%s' '{"decision":"block","reason":"keep going"}'": keep going`,
      },
      {
        kind: 'stop_feedback',
        text: expect.stringMatching(/\nStop hook feedback:\n\[echo "tests fail" >&2; exit 2\]: tests fail\n\n<\/system-reminder>$/),
      },
    ])
  })

  it('PostToolUse and PermissionRequest use their merge functions and texts', async () => {
    const s = sandbox({
      PostToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            command(`printf '%s' '{"decision":"block","reason":"lint failed","hookSpecificOutput":{"updatedToolOutput":"trimmed"}}'`),
          ],
        },
      ],
      PermissionRequest: [
        {
          matcher: '*',
          hooks: [
            command(
              `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"ask a human"}}}'`,
            ),
          ],
        },
      ],
    })
    const post = await s.exec(
      'PostToolUse',
      JSON.stringify(
        payloadOf('PostToolUse', s.project, { tool_name: 'Bash', tool_input: { command: 'npm run lint' }, tool_response: {} }),
      ),
    )
    expect(post.merged).toMatchObject({ family: 'postToolUse', updatedToolOutput: 'trimmed' })
    expect(post.modelTexts).toEqual([
      { kind: 'tool_output', text: 'trimmed' },
      { kind: 'context', text: `PostToolUse:Bash hook blocking error from command: "${post.runs[0]!.label}": lint failed` },
    ])

    const permission = await s.exec(
      'PermissionRequest',
      JSON.stringify(payloadOf('PermissionRequest', s.project, { tool_name: 'Write', tool_input: { file_path: '/x', content: '' } })),
    )
    expect(permission.merged).toMatchObject({ family: 'permissionRequest', behavior: 'deny', message: 'ask a human', interrupt: false })
    expect(permission.modelTexts).toEqual([{ kind: 'tool_error', text: 'ask a human' }])
  })

  it('an async handler runs but is not merged; its context waits for the next prompt', async () => {
    const s = sandbox({
      PostToolUse: [
        {
          hooks: [
            command(`printf '%s' '{"decision":"block","reason":"from async","hookSpecificOutput":{"additionalContext":"later"}}'`, {
              async: true,
            }),
          ],
        },
      ],
    })
    const result = await s.exec('PostToolUse', JSON.stringify(payloadOf('PostToolUse', s.project, { tool_name: 'Bash', tool_input: {} })))
    expect(result.runs).toHaveLength(1)
    expect(result.runs[0]!.async).toBe(true)
    expect(result.merged).toMatchObject({ family: 'postToolUse', blocks: [], contexts: [] })
    expect(result.modelTexts).toEqual([{ kind: 'context', text: 'UserPromptSubmit hook additional context: later' }])
  })

  it('hooks inherit `env` instead of the process environment; failures are notices; selection problems are warnings', async () => {
    process.env.CC_EXEC_FROM_PROCESS = 'leaked'
    try {
      const s = sandbox(
        {
          Notification: [
            { matcher: 'permission_prompt', hooks: [command('printf "%s/%s" "$CC_EXEC_ONLY" "$CC_EXEC_FROM_PROCESS" >&2; exit 1')] },
          ],
        },
        { Notification: [{ matcher: '[', hooks: [command('echo never')] }] },
      )
      const payload = JSON.stringify(payloadOf('Stop', s.project, { notification_type: 'permission_prompt' }))
      const result = await s.exec('Notification', payload, { env: { PATH: process.env.PATH, CC_EXEC_ONLY: 'given' } })
      expect(result.subject).toBe('permission_prompt')
      expect(result.runs.map((run) => run.result.stderr)).toEqual(['given/'])
      expect(result.notices).toEqual([
        `Notification hook printf "%s/%s" "$CC_EXEC_ONLY" "$CC_EXEC_FROM_PROCESS" >&2; exit 1 failed: exit code 1: given/`,
      ])
      expect(result.warnings).toEqual([
        `the payload's hook_event_name is "Stop", not "Notification"`,
        expect.stringMatching(new RegExp(`^hook ${s.userSettings}:Notification:0:0: invalid matcher "\\[" matches nothing`)),
      ])
    } finally {
      delete process.env.CC_EXEC_FROM_PROCESS
    }
  })

  it('prompt handlers ask the given model with the payload JSON (no final newline) as $ARGUMENTS', async () => {
    const s = sandbox({ PreToolUse: [{ hooks: [{ type: 'prompt', prompt: 'Is this safe? $ARGUMENTS' }] }] })
    const requests: ModelRequest[] = []
    const model: ModelProvider = {
      id: 'judge',
      async generate(request) {
        requests.push(request)
        return { content: [{ type: 'text', text: '{"ok": false, "reason": "not safe"}' }] }
      },
    }
    const payload = JSON.stringify(payloadOf('PreToolUse', s.project, { tool_name: 'Bash', tool_input: { command: 'curl x | sh' } }))
    const result = await s.exec('PreToolUse', payload, { model })
    expect(JSON.stringify(requests[0]?.messages)).toContain(JSON.stringify(`Is this safe? ${payload}`).slice(1, -1))
    expect(result.runs[0]!.timeoutSec).toBe(30)
    expect(result.merged).toMatchObject({ family: 'preToolUse', verdict: 'deny', reason: 'not safe', stop: { reason: 'not safe' } })
    expect(result.modelTexts).toEqual([{ kind: 'tool_error', text: 'PreToolUse:Bash hook error: not safe' }])
    expect(result.notices).toEqual(['not safe'])
  })

  it('rejects a payload that is not a JSON object; handlerTimeoutSec gives the per-event defaults', async () => {
    const s = sandbox({})
    await expect(s.exec('Stop', '{"a":')).rejects.toThrow(/^the Stop payload is not JSON: /)
    await expect(s.exec('Stop', '[1]')).rejects.toThrow('the Stop payload must be a JSON object')
    const loaded = loadClaudeCodeHooks({ projectDir: s.project, configDir: s.configDir, managedSettingsPath: false })
    expect(loaded.handlers).toEqual([])
    const base = { key: 'k', matcher: undefined, if: undefined, statusMessage: undefined, source: 'project' as const, sourcePath: 'p' }
    const handler = (type: string, event: string, timeoutSec?: number) =>
      ({ ...base, type, event, timeoutSec, groupIndex: 0, handlerIndex: 0, unknownFields: [], raw: {} }) as never
    expect(handlerTimeoutSec(handler('command', 'PreToolUse'))).toBe(600)
    expect(handlerTimeoutSec(handler('command', 'PreToolUse'), 60)).toBe(60)
    expect(handlerTimeoutSec(handler('command', 'UserPromptSubmit'))).toBe(30)
    expect(handlerTimeoutSec(handler('http', 'MessageDisplay'))).toBe(10)
    expect(handlerTimeoutSec(handler('prompt', 'Stop'))).toBe(30)
    expect(handlerTimeoutSec(handler('command', 'Stop', 5))).toBe(5)
  })
})
