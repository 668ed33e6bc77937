import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { harness, project, readEvents, SHELL_SCRIPT } from './support.js'

type Hooks = Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>

/**
 * A project with Claude Code settings in its own config dir (`claude/`, passed with `--claude-config-dir`) and its own
 * managed settings file (`managed/managed-settings.json`, passed with `--managed-settings`), so nothing outside the
 * project is read. `hooks` go to the project's `.claude/settings.json`.
 */
function claudeProject(hooks: Hooks, files: Record<string, string> = {}) {
  const cwd = realpathSync(project(files))
  const configDir = join(cwd, 'claude')
  const managed = join(cwd, 'managed', 'managed-settings.json')
  const projectSettings = join(cwd, '.claude', 'settings.json')
  mkdirSync(configDir, { recursive: true })
  const write = (path: string, value: unknown) => {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`)
    return path
  }
  write(projectSettings, { hooks })
  return {
    cwd,
    configDir,
    managed,
    projectSettings,
    userSettings: join(configDir, 'settings.json'),
    write,
    /** An executable `#!/bin/sh` script in the project. */
    script(name: string, body: string) {
      const path = join(cwd, name)
      writeFileSync(path, `#!/bin/sh\n${body}\n`)
      chmodSync(path, 0o755)
      return path
    },
    /** `harness hooks …` with `--claude-config-dir` and `--managed-settings`; any other command with `CLAUDE_CONFIG_DIR` set. */
    run: (args: readonly string[], input?: string) =>
      harness(args[0] === 'hooks' ? [...args, '--claude-config-dir', configDir, '--managed-settings', managed] : args, {
        cwd,
        env: { HARNESS_HOME: join(cwd, 'harness-home'), CODEX_HOME: join(cwd, 'codex-home'), CLAUDE_CONFIG_DIR: configDir },
        ...(input === undefined ? {} : { input }),
      }),
  }
}

const command = (text: string, fields: Record<string, unknown> = {}) => ({ type: 'command', command: text, ...fields })

describe('harness hooks list with Claude Code hooks', () => {
  it('--dialect claude-code --json lists every source read, the handlers in load order, the dropped ones with why, and the warnings', async () => {
    const p = claudeProject({
      PreToolUse: [{ matcher: 'Bash', hooks: [command('project-pre.sh', { if: 'Bash(git *)', timeout: 5, colour: 'red' })] }],
      Setup: [{ hooks: [command('setup.sh')] }],
      Stop: [{ hooks: [{ type: 'agent', prompt: 'is it done?' }] }],
    })
    p.write(p.managed, { hooks: { Stop: [{ hooks: [command('managed-stop.sh')] }] } })
    p.write(p.userSettings, { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'prompt', prompt: 'judge $ARGUMENTS' }] }] } })
    writeFileSync(join(p.cwd, '.claude', 'settings.local.json'), '{ "hooks": ')
    const flagFile = p.write(join(p.cwd, 'extra.json'), {
      hooks: { SessionStart: [{ matcher: 'startup', hooks: [{ type: 'http', url: 'http://127.0.0.1:1/hook', headers: { A: 'b' } }] }] },
    })
    const plugin = join(p.cwd, 'my-plugin')
    p.write(join(plugin, 'hooks', 'hooks.json'), {
      hooks: { PostToolUse: [{ hooks: [command(`\${CLAUDE_PLUGIN_ROOT}/post.sh`, { async: true })] }] },
    })

    const result = await p.run([
      'hooks',
      'list',
      '--dialect',
      'claude-code',
      '--json',
      '--settings',
      'extra.json',
      '--settings',
      '{"hooks":{"Notification":[{"hooks":[{"type":"command","command":"notify.sh"}]}]}}',
      '--plugin-dir',
      'my-plugin',
    ])

    expect(result.code).toBe(0)
    expect(result.stderr).toBe('')
    const list = JSON.parse(result.stdout)
    expect(list).toMatchObject({
      dialect: 'claude-code',
      projectDir: p.cwd,
      configDir: p.configDir,
      managedSettingsPath: p.managed,
      settings: { disableAllHooks: false, allowManagedHooksOnly: false },
    })
    expect(list.sources).toEqual([
      { source: 'managed', path: p.managed, found: true },
      { source: 'flag', path: flagFile, found: true },
      { source: 'flag', path: '<--settings #2>', found: true },
      { source: 'local', path: join(p.cwd, '.claude', 'settings.local.json'), found: true, error: expect.any(String) },
      { source: 'project', path: p.projectSettings, found: true },
      { source: 'user', path: p.userSettings, found: true },
      { source: 'plugin', path: join(plugin, 'hooks', 'hooks.json'), found: true },
    ])
    expect(list.hooks.map((hook: { key: string }) => hook.key)).toEqual([
      `${p.managed}:Stop:0:0`,
      `${flagFile}:SessionStart:0:0`,
      '<--settings #2>:Notification:0:0',
      `${p.projectSettings}:PreToolUse:0:0`,
      `${p.userSettings}:UserPromptSubmit:0:0`,
      `${join(plugin, 'hooks', 'hooks.json')}:PostToolUse:0:0`,
    ])
    expect(list.hooks[3]).toEqual({
      key: `${p.projectSettings}:PreToolUse:0:0`,
      event: 'PreToolUse',
      matcher: 'Bash',
      type: 'command',
      run: 'project-pre.sh',
      command: 'project-pre.sh',
      args: null,
      shell: null,
      async: false,
      timeoutSec: 5,
      timeoutConfigured: true,
      if: 'Bash(git *)',
      statusMessage: null,
      source: 'project',
      sourcePath: p.projectSettings,
      plugin: null,
      unknownFields: ['colour'],
    })
    expect(list.hooks[1]).toMatchObject({ type: 'http', url: 'http://127.0.0.1:1/hook', headerNames: ['A'], timeoutSec: 600 })
    expect(list.hooks[4]).toMatchObject({ type: 'prompt', prompt: 'judge $ARGUMENTS', timeoutSec: 30, timeoutConfigured: false })
    expect(list.hooks[5]).toMatchObject({ async: true, source: 'plugin', plugin: { name: 'my-plugin', root: plugin } })
    expect(list.dropped).toEqual([
      expect.objectContaining({
        key: `${p.projectSettings}:Setup:0:0`,
        reason: 'never fired: the kernel has no --init/--maintenance mode',
      }),
      expect.objectContaining({
        key: `${p.projectSettings}:Stop:0:0`,
        type: 'agent',
        run: 'is it done?',
        timeoutSec: null,
        reason: 'handler type "agent" is not supported by the kernel',
      }),
    ])
    expect(list.warnings).toEqual(expect.arrayContaining([expect.stringContaining('settings.local.json')]))
    expect(list.warnings.some((warning: string) => warning.includes('colour'))).toBe(true)
  })

  it('without --dialect, the text lists Codex then Claude Code, and --json prints { dialects: [codex, claude-code] }', async () => {
    const p = claudeProject({
      PreToolUse: [{ matcher: 'Edit|Write', hooks: [command('check-edit.sh', { if: 'Edit(src/**)' })] }],
      Setup: [{ hooks: [command('setup.sh')] }],
    })
    p.write(p.managed, { disableAllHooks: false, allowedHttpHookUrls: ['https://hooks.example/*'] })

    const text = await p.run(['hooks', 'list'])
    expect(text.code).toBe(0)
    const out = text.stdout
    expect(out.split('\n')[0]).toBe(`Codex hooks for ${p.cwd} (Codex home ${join(p.cwd, 'codex-home')})`)
    const claude = out.indexOf(`\n\nClaude Code hooks for ${p.cwd} (config dir ${p.configDir})\n`)
    expect(claude).toBeGreaterThan(0)
    const section = out.slice(claude)
    expect(section).toContain(
      [
        'sources:',
        `  managed  found      ${p.managed}`,
        `  local    not found  ${join(p.cwd, '.claude', 'settings.local.json')}`,
        `  project  found      ${p.projectSettings}`,
        `  user     not found  ${p.userSettings}`,
      ].join('\n'),
    )
    expect(section).toMatch(
      /\nPreToolUse\n {2}MATCHER +TYPE +TIMEOUT +SOURCE +RUNS\n {2}Edit\|Write +command +600s +project +check-edit\.sh\n/,
    )
    expect(section).toContain(`    key      ${p.projectSettings}:PreToolUse:0:0\n    if       Edit(src/**)\n`)
    expect(section).toContain(
      [
        'dropped: 1 handler will not run',
        '  Setup, command, project: setup.sh',
        `    key     ${p.projectSettings}:Setup:0:0`,
        '    reason  never fired: the kernel has no --init/--maintenance mode',
      ].join('\n'),
    )
    expect(section).toContain('settings:\n  allowedHttpHookUrls = ["https://hooks.example/*"]')

    const json = await p.run(['hooks', 'list', '--json'])
    expect(json.code).toBe(0)
    const { dialects } = JSON.parse(json.stdout)
    expect(dialects.map((entry: { dialect: string }) => entry.dialect)).toEqual(['codex', 'claude-code'])
    expect(dialects[0]).toMatchObject({ hooks: [], warnings: [], featureEnabled: true })
    expect(dialects[1].hooks).toEqual([expect.objectContaining({ command: 'check-edit.sh', if: 'Edit(src/**)' })])

    const codexOnly = JSON.parse((await p.run(['hooks', 'list', '--dialect', 'codex', '--json'])).stdout)
    expect(codexOnly).toMatchObject({ dialect: 'codex', hooks: [] })
    const unknown = await p.run(['hooks', 'list', '--dialect', 'gemini'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toBe('harness: unknown hook dialect "gemini"; available: codex, claude-code\n')
  })
})

describe('harness hooks exec claude-code', () => {
  /** Two Bash blockers (exit 2 with a recorded stdin and env, a JSON deny with context), an Edit-only hook, an agent hook. */
  function blockers() {
    const p = claudeProject({})
    const recorder = p.script(
      'record.sh',
      'cat > seen-stdin.json; printf "%s|%s|%s" "$CLAUDE_PROJECT_DIR" "$CLAUDE_CODE_SESSION_ID" "$(pwd)" > seen-env.txt; echo "no rm today" >&2; exit 2',
    )
    const deny = `printf '%s' '{"systemMessage":"audited","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no","additionalContext":"use trash instead"}}'`
    p.write(p.projectSettings, {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [command(recorder), command(deny, { if: 'Bash(rm *)' })] },
          { matcher: 'Edit', hooks: [command('touch never.txt; exit 2')] },
          { matcher: '*', hooks: [command(recorder), { type: 'agent', prompt: 'Is this safe? $ARGUMENTS' }] },
        ],
      },
    })
    const payload = JSON.stringify({
      session_id: 'sess-7',
      transcript_path: join(p.cwd, 't.jsonl'),
      cwd: p.cwd,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf build', description: 'clean' },
      tool_use_id: 'toolu_1',
    })
    writeFileSync(join(p.cwd, 'payload.json'), payload)
    return { ...p, recorder, deny, payload }
  }

  it('--json: runs the matching handlers on the payload bytes (plus the final newline), merged as Claude Code merges them', async () => {
    const p = blockers()
    const result = await p.run(['hooks', 'exec', 'claude-code', 'PreToolUse', '--payload', 'payload.json', '--json'])

    expect(result.code).toBe(0)
    expect(result.stderr).toBe('')
    expect(readFileSync(join(p.cwd, 'seen-stdin.json'), 'utf8')).toBe(`${p.payload}\n`)
    expect(readFileSync(join(p.cwd, 'seen-env.txt'), 'utf8')).toBe(`${p.cwd}|sess-7|${p.cwd}`)
    const output = JSON.parse(result.stdout)
    const key = (group: number, index: number) => `${p.projectSettings}:PreToolUse:${group}:${index}`
    expect(output).toMatchObject({
      dialect: 'claude-code',
      event: 'PreToolUse',
      subject: 'Bash',
      hookName: 'PreToolUse:Bash',
      newlineAdded: true,
    })
    expect(output.runs).toHaveLength(2)
    expect(output.runs[0]).toMatchObject({
      key: key(0, 0),
      type: 'command',
      label: p.recorder,
      source: 'project',
      async: false,
      timeoutSec: 600,
      exitCode: 2,
      timedOut: false,
      stdout: '',
      stderr: 'no rm today\n',
      output: { status: 'blocking', exit2Stderr: 'no rm today\n' },
      decision: 'block (exit 2): no rm today',
    })
    expect(output.runs[1]).toMatchObject({
      key: key(0, 1),
      exitCode: 0,
      output: { status: 'success', json: { hookSpecificOutput: { permissionDecision: 'deny' } } },
      decision: 'deny: json says no; additionalContext "use trash instead"; systemMessage "audited"',
    })
    expect(output.skipped).toEqual([
      { key: key(2, 0), type: 'command', reason: 'duplicate', duplicateOf: key(0, 0) },
      { key: key(2, 1), type: 'agent', reason: 'unsupported' },
    ])
    expect(output.dropped).toEqual([])
    expect(output.merged).toMatchObject({
      family: 'preToolUse',
      exit2: `[${p.recorder}]: no rm today\n`,
      verdict: 'deny',
      reason: 'json says no',
      contexts: ['use trash instead'],
      systemMessages: ['audited'],
    })
    expect(output.modelTexts).toEqual([
      { kind: 'tool_error', text: `PreToolUse:Bash hook error: [${p.recorder}]: no rm today\n` },
      { kind: 'context', text: 'PreToolUse:Bash hook additional context: use trash instead' },
    ])
    expect(output.notices).toEqual(['PreToolUse:Bash says: audited'])
    expect(output.warnings).toEqual([])
  })

  it('text: each run with its exit code and excerpts, what did not run, the decision and what the model and user see', async () => {
    const p = blockers()
    const result = await p.run(['hooks', 'exec', 'claude-code', 'PreToolUse', '--payload', '-'], `${p.payload}\n`)

    expect(result.code).toBe(0)
    expect(readFileSync(join(p.cwd, 'seen-stdin.json'), 'utf8')).toBe(`${p.payload}\n`)
    const out = result.stdout
    expect(out.split('\n')[0]).toBe('PreToolUse (tool_name "Bash"): 2 handlers ran')
    expect(out).toMatch(
      new RegExp(
        `\\nrun ${p.projectSettings}:PreToolUse:0:0\\n {2}command {5}${p.recorder}\\n {2}status {6}blocking \\(exit 2, \\d+ ms\\)\\n {2}stderr {6}no rm today\\n {2}decision {4}block \\(exit 2\\): no rm today\\n`,
      ),
    )
    expect(out).toMatch(/\n {2}status {6}success \(exit 0, \d+ ms\)\n {2}stdout {6}\{"systemMessage":"audited",/)
    expect(out).toContain(
      [
        'not run:',
        `  ${p.projectSettings}:PreToolUse:2:0 (identical to ${p.projectSettings}:PreToolUse:0:0, which ran: identical handlers run once)`,
        `  ${p.projectSettings}:PreToolUse:2:1 (type "agent": the kernel does not run it)`,
      ].join('\n'),
    )
    expect(out).toContain(
      [
        'decision    blocked (exit 2): the call does not run',
        `model sees  [tool error] PreToolUse:Bash hook error: [${p.recorder}]: no rm today`,
        '',
        'model sees  [context] PreToolUse:Bash hook additional context: use trash instead',
        'user sees   PreToolUse:Bash says: audited',
      ].join('\n'),
    )
  })

  it('matches the subject of each event; matcherless events ignore matchers; dropped handlers are listed', async () => {
    const p = claudeProject({
      SessionStart: [
        { matcher: 'startup', hooks: [command('echo "started fresh"')] },
        { matcher: 'resume', hooks: [command('echo resumed')] },
      ],
      Stop: [
        { matcher: 'ignored', hooks: [command(`printf '%s' '{"decision":"block","reason":"run the tests"}'`)] },
        { hooks: [command('echo "tests red" >&2; exit 2')] },
      ],
    })
    p.write(p.userSettings, { disableAllHooks: true })
    const start = await p.run(
      ['hooks', 'exec', 'claude-code', 'SessionStart', '--payload', '-', '--json'],
      '{"session_id":"s","source":"startup"}',
    )
    expect(start.code).toBe(0)
    // A user disableAllHooks stops non-managed hooks: everything here is dropped.
    expect(JSON.parse(start.stdout)).toMatchObject({ subject: 'startup', runs: [], modelTexts: [] })
    expect(JSON.parse(start.stdout).dropped.map((drop: { key: string }) => drop.key)).toEqual([
      `${p.projectSettings}:SessionStart:0:0`,
      `${p.projectSettings}:SessionStart:1:0`,
    ])

    p.write(p.userSettings, {})
    const restart = await p.run(['hooks', 'exec', 'claude-code', 'SessionStart', '--payload', '-'], '{"session_id":"s","source":"startup"}')
    expect(restart.stdout.split('\n')[0]).toBe('SessionStart (source "startup"): 1 handler ran')
    expect(restart.stdout).toContain('decision    proceed\nmodel sees  [context] SessionStart hook success: started fresh')

    const stop = await p.run(['hooks', 'exec', 'claude-code', 'Stop', '--payload', '-'], '{"session_id":"s","stop_hook_active":false}')
    expect(stop.stdout.split('\n')[0]).toBe('Stop: 2 handlers ran')
    expect(stop.stdout).toContain('decision    continue: the turn goes on with one more request')
    expect(stop.stdout).toContain(
      `model sees  [continuation] Stop hook blocking error from command: "printf '%s' '{"decision":"block","reason":"run the tests"}'": run the tests`,
    )
    expect(stop.stdout).toMatch(/model sees {2}\[continuation\] <system-reminder>\n {12}The text below is the output of a hook/)
    expect(stop.stdout).toContain('            [echo "tests red" >&2; exit 2]: tests red\n')
  })

  it('prompt handlers ask the --model; without one they fail without deciding', async () => {
    const p = claudeProject(
      { Stop: [{ hooks: [{ type: 'prompt', prompt: 'Are the tests green? $ARGUMENTS' }] }] },
      {
        'judge.yaml': `- text: '{"ok": false, "reason": "the tests are red"}'\n`,
      },
    )
    const payload = '{"session_id":"s","hook_event_name":"Stop","stop_hook_active":false}'
    const judged = await p.run(
      ['hooks', 'exec', 'claude-code', 'Stop', '--payload', '-', '--model', 'scripted:judge.yaml', '--json'],
      payload,
    )
    expect(judged.code).toBe(0)
    const output = JSON.parse(judged.stdout)
    expect(output.runs[0]).toMatchObject({
      type: 'prompt',
      exitCode: 0,
      verdict: { ok: false, reason: 'the tests are red' },
      timeoutSec: 30,
    })
    expect(output.modelTexts).toEqual([
      { kind: 'stop_feedback', text: 'Stop hook blocking error from command: "Are the tests green? $ARGUMENTS": the tests are red' },
    ])

    const noModel = await p.run(['hooks', 'exec', 'claude-code', 'Stop', '--payload', '-'], payload)
    expect(noModel.code).toBe(0)
    expect(noModel.stdout).toContain('  status      error (no verdict, ')
    expect(noModel.stdout).toContain('decision    none: the turn ends')
    expect(noModel.stdout).toContain('user sees   Stop hook Are the tests green? $ARGUMENTS failed: prompt hooks need a model provider')
  })

  it('unknown and never-fired events, a Codex-only flag and a bad payload are usage errors (exit 2); exec codex still works', async () => {
    const p = claudeProject({ Stop: [{ hooks: [command('echo stop')] }] })
    const valid =
      'valid events: PreToolUse, PostToolUse, PostToolUseFailure, PostToolBatch, Notification, UserPromptSubmit, SessionStart, SessionEnd, Stop, StopFailure, Interrupt, SubagentStart, SubagentStop, PreCompact, PostCompact, PermissionRequest, PermissionDenied, MessageDisplay'
    const unknown = await p.run(['hooks', 'exec', 'claude-code', 'BeforeTool', '--payload', '-'], '{}')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toBe(`harness: unknown Claude Code event "BeforeTool"; ${valid}\n`)
    const never = await p.run(['hooks', 'exec', 'claude-code', 'CwdChanged', '--payload', '-'], '{}')
    expect(never.code).toBe(2)
    expect(never.stderr).toBe(
      `harness: the Claude Code event "CwdChanged" never fires in the harness (the kernel's shell tool starts a fresh shell per call, so the session's cwd never changes); ${valid}\n`,
    )
    const bypass = await p.run(['hooks', 'exec', 'claude-code', 'Stop', '--payload', '-', '--dangerously-bypass-hook-trust'], '{}')
    expect(bypass.code).toBe(2)
    expect(bypass.stderr).toContain('--dangerously-bypass-hook-trust is for Codex hooks')
    const array = await p.run(['hooks', 'exec', 'claude-code', 'Stop', '--payload', '-'], '[]')
    expect(array.code).toBe(2)
    expect(array.stderr).toBe('harness: the payload on stdin must be a JSON object\n')
    const codex = await p.run(['hooks', 'exec', 'codex', 'Stop', '--payload', '-'], '{}')
    expect(codex.code).toBe(0)
    expect(codex.stdout.split('\n')[0]).toBe('Stop: 0 handlers ran')
  })
})

describe('the default harness runs Claude Code hooks', () => {
  const toolOutput = (transcriptPath: string) => {
    const result = readEvents(transcriptPath).find((event) => event.type === 'tool/result')
    return (result as { output?: string } | undefined)?.output
  }

  it('a project PreToolUse hook denies the shell tool; --no-claude-code-hooks leaves it out; --claude-config-dir moves user settings', async () => {
    const deny = 'echo "no shell here" >&2; exit 2'
    const p = claudeProject({ PreToolUse: [{ matcher: 'Bash', hooks: [command(deny)] }] }, { 'script.yaml': SHELL_SCRIPT })
    const turn = (args: readonly string[]) => p.run(['run', 'say hello', '--model', 'scripted:script.yaml', '--json', ...args])

    const denied = await turn([])
    expect(denied.code).toBe(0)
    expect(denied.stderr).toContain('[tool] shell {"command":"echo hello from shell"} denied')
    const hookRun = readEvents(JSON.parse(denied.stdout).transcriptPath).find((event) => event.type === 'hook/run')
    expect(hookRun).toMatchObject({ dialect: 'claude-code', event: 'PreToolUse', status: 'blocked' })
    expect(toolOutput(JSON.parse(denied.stdout).transcriptPath)).toBe(`PreToolUse:Bash hook error: [${deny}]: no shell here\n`)

    const off = await turn(['--no-claude-code-hooks'])
    expect(off.code).toBe(0)
    expect(toolOutput(JSON.parse(off.stdout).transcriptPath)).toBe('hello from shell')

    p.write(p.projectSettings, {})
    const other = join(p.cwd, 'other-claude')
    p.write(join(other, 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              command(`printf '%s' '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"user says no"}}'`),
            ],
          },
        ],
      },
    })
    const moved = await turn(['--claude-config-dir', other])
    expect(moved.code).toBe(0)
    expect(toolOutput(JSON.parse(moved.stdout).transcriptPath)).toBe('PreToolUse:Bash hook error: user says no')
  })

  it('--no-codex-hooks leaves the Codex hooks out (and the trust bypass warning with them)', async () => {
    const p = claudeProject({}, { 'script.yaml': SHELL_SCRIPT })
    const codexHome = join(p.cwd, 'codex-home')
    p.write(join(codexHome, 'hooks.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "codex says no" >&2; exit 2' }] }] },
    })
    const turn = (args: readonly string[]) =>
      p.run(['run', 'say hello', '--model', 'scripted:script.yaml', '--json', '--dangerously-bypass-hook-trust', ...args])

    const codex = await turn([])
    expect(codex.stderr).toContain('`--dangerously-bypass-hook-trust` is enabled')
    expect(toolOutput(JSON.parse(codex.stdout).transcriptPath)).toContain('codex says no')

    const off = await turn(['--no-codex-hooks'])
    expect(off.code).toBe(0)
    expect(off.stderr).not.toContain('--dangerously-bypass-hook-trust')
    expect(toolOutput(JSON.parse(off.stdout).transcriptPath)).toBe('hello from shell')
  })
})

describe('harness hooks exec claude-code with an mcp_tool handler', () => {
  it("calls the tool on the MCP server Claude Code would start here, and reads its answer as a hook's output", async () => {
    const server = fileURLToPath(new URL('../../dialects/claude-code/test/fixtures/mcp/hook-server.mjs', import.meta.url))
    const deny = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm' },
    })
    const p = claudeProject(
      { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'mcp_tool', server: 'hooksrv', tool: 'reply', input: { text: deny } }] }] },
      { '.mcp.json': JSON.stringify({ mcpServers: { hooksrv: { command: process.execPath, args: [server] } } }) },
    )
    p.write(join(p.cwd, '.claude', 'settings.local.json'), { enabledMcpjsonServers: ['hooksrv'] })
    const payload = '{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf x"}}'
    const result = await p.run(['hooks', 'exec', 'claude-code', 'PreToolUse', '--payload', '-', '--json'], payload)
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({
      merged: { verdict: 'deny', reason: 'no rm' },
      modelTexts: [{ kind: 'tool_error', text: 'PreToolUse:Bash hook error: no rm' }],
      runs: [{ type: 'mcp_tool', decision: 'deny: no rm' }],
    })

    const list = await p.run(['hooks', 'list', '--dialect', 'claude-code'])
    expect(list.stdout).toContain('hooksrv/reply')
  })
})
