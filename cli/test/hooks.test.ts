import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { harness, project, readEvents, readJsonLines, SHELL_SCRIPT } from './support.js'

interface HooksJson {
  hooks: Record<string, { matcher?: string; hooks: { type: 'command'; command: string; timeout?: number; statusMessage?: string }[] }[]>
}

/**
 * A project with its own Codex home (hooks.json from `hooks`) and harness home. `run` runs the command there with
 * HARNESS_HOME set; the Codex home is passed explicitly with `--codex-home`.
 */
function codexProject(hooks: HooksJson, files: Record<string, string> = {}) {
  const cwd = project(files)
  mkdirSync(join(cwd, 'codex-home'))
  const codexHome = realpathSync(join(cwd, 'codex-home'))
  const hooksJson = join(codexHome, 'hooks.json')
  writeFileSync(hooksJson, `${JSON.stringify(hooks, null, 2)}\n`)
  const harnessHome = join(cwd, 'harness-home')
  return {
    cwd,
    codexHome,
    hooksJson,
    configToml: join(codexHome, 'config.toml'),
    trustFile: join(harnessHome, 'trust', 'codex.json'),
    run: (args: readonly string[], input?: string) =>
      harness([...args, '--codex-home', codexHome], { cwd, env: { HARNESS_HOME: harnessHome }, ...(input === undefined ? {} : { input }) }),
  }
}

/** The two handlers whose hashes codex-hooks.md §2 gives, and a group with an invalid matcher. */
const GOLDEN: HooksJson = {
  hooks: {
    Stop: [{ hooks: [{ type: 'command', command: '/home/user/bin/stop.sh', timeout: 30, statusMessage: 'Checking' }] }],
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: '/home/user/bin/check.sh' }] },
      { matcher: '[', hooks: [{ type: 'command', command: 'never' }] },
    ],
  },
}
const CHECK_HASH = 'sha256:1eb690240869866deac67833439882e384e57704e9aa589f238bd6fd9b06a0c2'
const STOP_HASH = 'sha256:162c58faf29017c2eab27a3e88f42c7b66cba473c21f2700dff297d45c17f9c6'

interface ListedHook {
  key: string
  trustStatus: string
}

async function listJson(run: ReturnType<typeof codexProject>['run']) {
  const result = await run(['hooks', 'list', '--dialect', 'codex', '--json'])
  expect(result.code).toBe(0)
  return JSON.parse(result.stdout) as { dialect: string; hooks: ListedHook[]; warnings: string[]; featureEnabled: boolean }
}

const statuses = (list: { hooks: ListedHook[] }) => Object.fromEntries(list.hooks.map((hook) => [hook.key, hook.trustStatus]))

describe('harness hooks list and trust', () => {
  it('list prints every handler as hooks/list does, as a table or JSON; trust --all makes them trusted', async () => {
    const { cwd, codexHome, hooksJson, configToml, trustFile, run } = codexProject(GOLDEN)
    const checkKey = `${hooksJson}:pre_tool_use:0:0`
    const stopKey = `${hooksJson}:stop:0:0`

    const list = await listJson(run)
    expect(list.dialect).toBe('codex')
    expect(list.featureEnabled).toBe(true)
    expect(list.hooks).toEqual([
      {
        key: checkKey,
        event: 'PreToolUse',
        eventName: 'preToolUse',
        handlerType: 'command',
        command: '/home/user/bin/check.sh',
        async: false,
        matcher: 'Bash',
        timeoutSec: 600,
        statusMessage: null,
        additionalContextLimit: null,
        sourcePath: hooksJson,
        source: 'user',
        pluginId: null,
        environmentId: null,
        displayOrder: 0,
        enabled: true,
        isManaged: false,
        currentHash: CHECK_HASH,
        trustStatus: 'untrusted',
      },
      expect.objectContaining({
        key: stopKey,
        event: 'Stop',
        matcher: null,
        timeoutSec: 30,
        statusMessage: 'Checking',
        displayOrder: 1,
        currentHash: STOP_HASH,
        trustStatus: 'untrusted',
      }),
    ])
    expect(list.warnings).toEqual([
      `invalid matcher "[" in ${hooksJson}: regex parse error:\n    [\n    ^\nerror: unclosed character class`,
    ])

    const text = await run(['hooks', 'list'])
    expect(text.code).toBe(0)
    const out = text.stdout
    expect(out.split('\n')[0]).toBe(`Codex hooks for ${cwd} (Codex home ${codexHome})`)
    expect(out.indexOf('\nPreToolUse\n')).toBeGreaterThan(0)
    expect(out.indexOf('\nStop\n')).toBeGreaterThan(out.indexOf('\nPreToolUse\n'))
    expect(out).toMatch(/^ {2}# +TRUST +ENABLED +MATCHER +TIMEOUT +SOURCE +COMMAND$/m)
    expect(out).toMatch(/^ {2}0 +untrusted +yes +Bash +600s +user +\/home\/user\/bin\/check\.sh$/m)
    expect(out).toMatch(/^ {2}1 +untrusted +yes +- +30s +user +\/home\/user\/bin\/stop\.sh$/m)
    expect(out).toContain(`key   ${checkKey}\n     hash  ${CHECK_HASH}`)
    expect(out).toContain(`key   ${stopKey}\n     hash  ${STOP_HASH}`)
    expect(out).toContain('2 hooks are not trusted (untrusted or modified since trusted) and will not run.')
    expect(out).toContain(`warnings:\n  - invalid matcher "[" in ${hooksJson}: regex parse error:`)

    const trust = await run(['hooks', 'trust', '--all'])
    expect(trust.code).toBe(0)
    expect(trust.stdout).toContain(`trusted 2 Codex hooks in the harness trust store ${trustFile}:`)
    expect(trust.stdout).toContain(
      `  ${checkKey} (PreToolUse, was untrusted)\n    command  /home/user/bin/check.sh\n    hash     ${CHECK_HASH}`,
    )
    expect(trust.stderr).toBe('')
    expect(existsSync(configToml)).toBe(false)

    expect(statuses(await listJson(run))).toEqual({ [checkKey]: 'trusted', [stopKey]: 'trusted' })
    const trustedText = (await run(['hooks', 'list'])).stdout
    expect(trustedText).toMatch(/^ {2}0 +trusted +yes +Bash /m)
    expect(trustedText).not.toContain('not trusted')
  })

  it('trust KEY writes that hash, and nothing else, to the harness trust store', async () => {
    const { hooksJson, configToml, trustFile, run } = codexProject(GOLDEN)
    const checkKey = `${hooksJson}:pre_tool_use:0:0`
    const stopKey = `${hooksJson}:stop:0:0`

    const trust = await run(['hooks', 'trust', checkKey])
    expect(trust.code).toBe(0)
    expect(trust.stdout).toContain(`trusted 1 Codex hook in the harness trust store ${trustFile}:`)
    expect(JSON.parse(readFileSync(trustFile, 'utf8'))).toEqual({
      version: 1,
      dialect: 'codex',
      hooks: { [checkKey]: { trustedHash: CHECK_HASH } },
    })
    expect(existsSync(configToml)).toBe(false)
    expect(statuses(await listJson(run))).toEqual({ [checkKey]: 'trusted', [stopKey]: 'untrusted' })

    await run(['hooks', 'trust', stopKey])
    expect(JSON.parse(readFileSync(trustFile, 'utf8')).hooks).toEqual({
      [checkKey]: { trustedHash: CHECK_HASH },
      [stopKey]: { trustedHash: STOP_HASH },
    })
  })

  it("trust --codex appends to config.toml, or edits the key's hash in place, and leaves every other byte as it was", async () => {
    const { codexHome, hooksJson, configToml, trustFile, run } = codexProject(GOLDEN)
    const checkKey = `${hooksJson}:pre_tool_use:0:0`
    const stopKey = `${hooksJson}:stop:0:0`
    const original = [
      '# my Codex config',
      'model = "gpt-5.1-codex"   # keep this comment',
      '',
      '[features]',
      'hooks   =   true',
      '',
      `[hooks.state."${stopKey}"]`,
      'enabled = true',
      'trusted_hash = "sha256:0000"  # an old hash',
      '',
    ].join('\n')
    writeFileSync(configToml, original)
    expect(statuses(await listJson(run))).toEqual({ [checkKey]: 'untrusted', [stopKey]: 'modified' })

    const first = await run(['hooks', 'trust', '--codex', checkKey])
    expect(first.code).toBe(0)
    expect(first.stdout).toContain(`trusted 1 Codex hook in Codex's config ${join(codexHome, 'config.toml')} (Codex trusts them too):`)
    const appended = `${original}\n[hooks.state."${checkKey}"]\ntrusted_hash = "${CHECK_HASH}"\n`
    expect(readFileSync(configToml, 'utf8')).toBe(appended)

    const second = await run(['hooks', 'trust', '--codex', stopKey])
    expect(second.code).toBe(0)
    expect(second.stdout).toContain(`${stopKey} (Stop, was modified)`)
    expect(readFileSync(configToml, 'utf8')).toBe(appended.replace('"sha256:0000"', `"${STOP_HASH}"`))

    expect(existsSync(trustFile)).toBe(false)
    expect(statuses(await listJson(run))).toEqual({ [checkKey]: 'trusted', [stopKey]: 'trusted' })
  })

  it('unknown keys, and neither keys nor --all, are usage errors (exit 2) that write nothing', async () => {
    const { hooksJson, trustFile, run } = codexProject(GOLDEN)
    const unknown = await run(['hooks', 'trust', `${hooksJson}:pre_tool_use:0:0`, 'nope', `${hooksJson}:stop:0:9`])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toBe(`harness: no Codex hook with keys "nope", "${hooksJson}:stop:0:9" (harness hooks list shows the keys)\n`)
    expect(unknown.stdout).toBe('')

    const none = await run(['hooks', 'trust'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('harness: name the hooks to trust: harness hooks trust KEY…')

    const both = await run(['hooks', 'trust', '--all', `${hooksJson}:stop:0:0`])
    expect(both.code).toBe(2)
    expect(existsSync(trustFile)).toBe(false)
  })
})

describe("a project's .codex/ hooks in a project Codex does not trust", () => {
  it('hooks list and the run say they are not loaded and why; trust --project trusts the project as Codex does', async () => {
    const projectHooks: HooksJson = {
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo ran > project-hook-ran.txt' }] }] },
    }
    const { cwd, codexHome, configToml, trustFile, run } = codexProject(
      { hooks: {} },
      {
        '.git/HEAD': 'ref: refs/heads/main\n',
        '.codex/hooks.json': JSON.stringify(projectHooks),
        'script.yaml': '- text: done\n- text: done again\n',
      },
    )
    const projectJson = join(cwd, '.codex/hooks.json')
    const why = `no [projects.${JSON.stringify(cwd)}] trust_level in ${configToml}`
    const notLoaded = `the project's .codex/ hooks are not loaded because the project ${cwd} is not trusted (${why})`

    // Independent runs, side by side: nothing is trusted yet.
    const [list, json, skipped] = await Promise.all([
      run(['hooks', 'list', '--dialect', 'codex']),
      run(['hooks', 'list', '--dialect', 'codex', '--json']),
      run(['run', 'hi', '--model', 'scripted:script.yaml']),
    ])
    expect(list.code).toBe(0)
    expect(list.stdout).toContain(`no Codex hooks found`)
    expect(list.stdout).toContain(
      `${notLoaded}:\n  ${projectJson}\nTrust the project as Codex does: harness hooks trust --project --codex-home ${codexHome} (add --all to trust its hooks too)`,
    )
    expect(JSON.parse(json.stdout).untrustedProject).toEqual({
      path: cwd,
      configPath: configToml,
      layers: [{ dir: cwd, dotCodex: join(cwd, '.codex'), hookFiles: [projectJson] }],
    })

    expect(skipped.code).toBe(0)
    expect(skipped.stderr).toContain(
      `[notice:warning] ${notLoaded}: ${projectJson}. Trust the project as Codex does with \`harness hooks trust --project --codex-home ${codexHome}\` (add --all to trust its hooks too), or trust it in Codex`,
    )
    expect(existsSync(join(cwd, 'project-hook-ran.txt'))).toBe(false)

    const trust = await run(['hooks', 'trust', '--project'])
    expect(trust.code).toBe(0)
    const hookKey = `${projectJson}:user_prompt_submit:0:0`
    expect(trust.stdout).toBe(
      [
        `trusted the project ${cwd} in Codex's config ${configToml} (Codex trusts it too):`,
        `  [projects.${JSON.stringify(cwd)}] trust_level = "trusted"`,
        'its .codex/ folders hold 1 hook:',
        `  ${hookKey} (UserPromptSubmit, untrusted): echo ran > project-hook-ran.txt`,
        'each hook needs its own trust: review the commands, then harness hooks trust KEY… (or --all)',
        '',
      ].join('\n'),
    )
    expect(readFileSync(configToml, 'utf8')).toBe(`[projects.${JSON.stringify(cwd)}]\ntrust_level = "trusted"\n`)
    expect(existsSync(trustFile)).toBe(false)

    const listed = await run(['hooks', 'list', '--dialect', 'codex'])
    expect(listed.stdout).not.toContain('are not loaded')
    expect(listed.stdout).toMatch(/^ {2}0 +untrusted +yes +- +600s +project +echo ran > project-hook-ran\.txt$/m)

    const both = await run(['hooks', 'trust', '--project', '--all'])
    expect(both.code).toBe(0)
    expect(both.stdout).toContain(`the project ${cwd} is trusted already in Codex's config ${configToml}\n`)
    expect(both.stdout).toContain(
      `trusted 1 Codex hook in the harness trust store ${trustFile}:\n  ${hookKey} (UserPromptSubmit, was untrusted)`,
    )

    const ran = await run(['run', 'hi', '--model', 'scripted:script.yaml'])
    expect(ran.code).toBe(0)
    expect(ran.stderr).not.toContain('are not loaded')
    expect(readFileSync(join(cwd, 'project-hook-ran.txt'), 'utf8')).toBe('ran\n')

    const withKeys = await run(['hooks', 'trust', '--project', hookKey])
    expect(withKeys.code).toBe(2)
    expect(withKeys.stderr).toContain('harness: trust the project first (harness hooks trust --project), then its hooks by key')
  })
})

/** Two PreToolUse blockers for Bash, one by exit 2 (it also saves its stdin), one by JSON; and one for Edit only. */
const BLOCKERS: HooksJson = {
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          { type: 'command', command: 'cat > seen-stdin.json; echo "no shell today" >&2; exit 2' },
          {
            type: 'command',
            command: `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}'`,
          },
        ],
      },
      { matcher: 'Edit', hooks: [{ type: 'command', command: 'echo never >&2; exit 2' }] },
    ],
  },
}

function preToolUsePayload(cwd: string): string {
  const payload = {
    session_id: 'session-1',
    turn_id: 'turn-1',
    transcript_path: null,
    cwd,
    hook_event_name: 'PreToolUse',
    model: 'scripted',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command: 'rm -rf build' },
    tool_use_id: 'call_7',
  }
  // Pretty-printed with a final newline: the handlers must get exactly these bytes.
  return `${JSON.stringify(payload, null, 2)}\n`
}

describe('harness hooks exec', () => {
  it('runs the matching trusted handlers on the payload; the first blocker in display order gives the reason', async () => {
    const { cwd, hooksJson, run } = codexProject(BLOCKERS)
    const payload = preToolUsePayload(cwd)
    writeFileSync(join(cwd, 'payload.json'), payload)
    expect((await run(['hooks', 'trust', '--all'])).code).toBe(0)

    const json = await run(['hooks', 'exec', 'codex', 'PreToolUse', '--payload', 'payload.json', '--json'])
    expect(json.code).toBe(0)
    expect(readFileSync(join(cwd, 'seen-stdin.json'), 'utf8')).toBe(payload)
    const output = JSON.parse(json.stdout)
    expect(output).toMatchObject({ dialect: 'codex', event: 'PreToolUse', subject: 'Bash', bypassTrust: false, skipped: [] })
    expect(output.runs).toHaveLength(2)
    expect(output.runs[0]).toMatchObject({
      id: `pre-tool-use:0:${hooksJson}:call_7`,
      key: `${hooksJson}:pre_tool_use:0:0`,
      status: 'blocked',
      exitCode: 2,
      timedOut: false,
      entries: [{ kind: 'feedback', text: 'no shell today' }],
    })
    expect(output.runs[1]).toMatchObject({
      id: `pre-tool-use:1:${hooksJson}:call_7`,
      status: 'blocked',
      exitCode: 0,
      entries: [{ kind: 'feedback', text: 'json says no' }],
    })
    expect(typeof output.runs[0].durationMs).toBe('number')
    expect(output.merged).toEqual({ family: 'preToolUse', blocked: true, reason: 'no shell today', contexts: [] })

    const text = await run(['hooks', 'exec', 'codex', 'PreToolUse', '--payload', 'payload.json'])
    expect(text.code).toBe(0)
    const out = text.stdout
    expect(out.split('\n')[0]).toBe('PreToolUse (tool_name Bash): 2 handlers ran')
    expect(out).toContain(`run pre-tool-use:0:${hooksJson}:call_7\n  command     cat > seen-stdin.json; echo "no shell today" >&2; exit 2`)
    expect(out).toMatch(/ {2}status {6}blocked \(exit 2, \d+ ms\)\n {2}feedback {4}no shell today\n/)
    expect(out).toMatch(/ {2}status {6}blocked \(exit 0, \d+ ms\)\n {2}feedback {4}json says no\n/)
    expect(out).toContain(
      'decision    blocked: no shell today\nmodel sees  Command blocked by PreToolUse hook: no shell today. Command: rm -rf build',
    )
    expect(out).not.toContain('not run')
  })

  it('skips untrusted handlers and says how to trust them, unless the trust is bypassed', async () => {
    const { cwd, hooksJson, run } = codexProject(BLOCKERS)
    const payload = preToolUsePayload(cwd)
    expect((await run(['hooks', 'trust', `${hooksJson}:pre_tool_use:0:1`])).code).toBe(0)

    const partial = await run(['hooks', 'exec', 'codex', 'PreToolUse', '--payload', '-'], payload)
    expect(partial.code).toBe(0)
    expect(partial.stdout.split('\n')[0]).toBe('PreToolUse (tool_name Bash): 1 handler ran')
    expect(partial.stdout).toContain('  feedback    json says no')
    expect(partial.stdout).toContain(
      `not run:\n  ${hooksJson}:pre_tool_use:0:0 (untrusted): cat > seen-stdin.json; echo "no shell today" >&2; exit 2\n  trust a hook with \`harness hooks trust KEY\``,
    )
    expect(partial.stdout).not.toContain('echo never')
    expect(partial.stdout).toContain('decision    blocked: json says no')
    expect(existsSync(join(cwd, 'seen-stdin.json'))).toBe(false)

    const json = await run(['hooks', 'exec', 'codex', 'PreToolUse', '--payload', '-', '--json'], payload)
    expect(JSON.parse(json.stdout).skipped).toEqual([
      {
        key: `${hooksJson}:pre_tool_use:0:0`,
        command: BLOCKERS.hooks.PreToolUse![0]!.hooks[0]!.command,
        displayOrder: 0,
        reason: 'untrusted',
      },
    ])

    const bypass = await run(['hooks', 'exec', 'codex', 'PreToolUse', '--payload', '-', '--dangerously-bypass-hook-trust'], payload)
    expect(bypass.code).toBe(0)
    expect(bypass.stderr).toContain('`--dangerously-bypass-hook-trust` is enabled: hooks will run without trust checks')
    expect(bypass.stdout.split('\n')[0]).toBe('PreToolUse (tool_name Bash): 2 handlers ran')
    expect(bypass.stdout).toContain('decision    blocked: no shell today')
    expect(readFileSync(join(cwd, 'seen-stdin.json'), 'utf8')).toBe(payload)
  })

  it('an unknown event or dialect, or a payload that is not a JSON object, is a usage error (exit 2)', async () => {
    const { cwd, run } = codexProject(BLOCKERS)
    writeFileSync(join(cwd, 'payload.json'), preToolUsePayload(cwd))
    // Independent runs, side by side.
    const [event, dialect, notJson, missing] = await Promise.all([
      run(['hooks', 'exec', 'codex', 'BeforeTool', '--payload', 'payload.json']),
      run(['hooks', 'exec', 'gemini', 'PreToolUse', '--payload', 'payload.json']),
      run(['hooks', 'exec', 'codex', 'PreToolUse', '--payload', '-'], 'tool_name=Bash'),
      run(['hooks', 'exec', 'codex', 'PreToolUse']),
    ])
    expect(event.code).toBe(2)
    expect(event.stderr).toBe(
      'harness: unknown Codex event "BeforeTool"; valid events: PreModelRequest, PostModelRequest, PreToolUse, PermissionRequest, PostToolUse, PreCompact, PostCompact, SessionStart, SessionEnd, UserPromptSubmit, SubagentStart, SubagentStop, Stop, Interrupt\n',
    )
    expect(dialect.code).toBe(2)
    expect(dialect.stderr).toContain('unknown hook dialect "gemini"; available: codex')
    expect(notJson.code).toBe(2)
    expect(notJson.stderr).toContain('harness: the payload on stdin is not JSON')
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain("required option '--payload <file>' not specified")
  })
})

const DENY_SHELL: HooksJson = {
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "no shell today" >&2; exit 2' }] }] },
}
const BLOCK_TEXT = 'Command blocked by PreToolUse hook: no shell today. Command: echo hello from shell'

interface RecordedRequest {
  request: { messages: { role: string; content: { type: string; output?: string; isError?: boolean }[] }[] }
}

describe('harness run with Codex hooks', () => {
  it("a trusted PreToolUse hook in --codex-home denies the shell tool; the model sees Codex's text", async () => {
    const { cwd, run } = codexProject(DENY_SHELL, {
      'script.yaml': SHELL_SCRIPT,
      'harness.config.mjs': `import { scriptedModel } from '@harness-kernel/scripted-model'
export default { plugins: ({ defaults }) => [...defaults, scriptedModel({ script: 'script.yaml', recordTo: 'requests.jsonl' })] }
`,
    })
    expect((await run(['hooks', 'trust', '--all'])).code).toBe(0)

    const result = await run(['run', 'say hello', '--json'])
    expect(result.code).toBe(0)
    expect(result.stderr).toContain('[tool] shell {"command":"echo hello from shell"} denied')
    expect(result.stderr).toContain(`[tool] shell error: ${BLOCK_TEXT}`)
    const { transcriptPath } = JSON.parse(result.stdout)
    const requests = readJsonLines(join(cwd, 'requests.jsonl')) as RecordedRequest[]
    expect(requests).toHaveLength(2)
    const tool = requests[1]!.request.messages.find((message) => message.role === 'tool')
    expect(tool?.content[0]).toMatchObject({ type: 'tool_result', output: BLOCK_TEXT, isError: true })
    const hookRun = readEvents(transcriptPath).find((event) => event.type === 'hook/run')
    expect(hookRun).toMatchObject({ dialect: 'codex', event: 'PreToolUse', status: 'blocked' })
  })

  it('the default harness skips an untrusted hook with a notice; --dangerously-bypass-hook-trust runs it', async () => {
    const { hooksJson, run } = codexProject(DENY_SHELL, { 'script.yaml': SHELL_SCRIPT })
    const toolOutput = (transcriptPath: string) => {
      const result = readEvents(transcriptPath).find((event) => event.type === 'tool/result')
      return (result as { output?: string } | undefined)?.output
    }

    const untrusted = await run(['run', 'say hello', '--model', 'scripted:script.yaml', '--json'])
    expect(untrusted.code).toBe(0)
    expect(untrusted.stderr).toContain(`[notice:warning] Codex hook ${hooksJson}:pre_tool_use:0:0 (PreToolUse: echo "no shell today"`)
    expect(untrusted.stderr).toContain(`is untrusted and will not run; trust it with \`harness hooks trust ${hooksJson}:pre_tool_use:0:0\``)
    expect(untrusted.stderr).toContain('[tool] shell ok: hello from shell')
    expect(toolOutput(JSON.parse(untrusted.stdout).transcriptPath)).toBe('hello from shell')

    const bypass = await run(['run', 'say hello', '--model', 'scripted:script.yaml', '--json', '--dangerously-bypass-hook-trust'])
    expect(bypass.code).toBe(0)
    expect(bypass.stderr).toContain('harness: warning: `--dangerously-bypass-hook-trust` is enabled: hooks will run without trust checks')
    expect(toolOutput(JSON.parse(bypass.stdout).transcriptPath)).toBe(BLOCK_TEXT)

    expect((await run(['hooks', 'trust', '--all'])).code).toBe(0)
    const trusted = await run(['run', 'say hello', '--model', 'scripted:script.yaml', '--json'])
    expect(trusted.stderr).not.toContain('will not run')
    expect(toolOutput(JSON.parse(trusted.stdout).transcriptPath)).toBe(BLOCK_TEXT)
  })
})
