// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${path}` here is hook configuration text, never a template.
import { describe, expect, it } from 'vitest'
import type { ClaudeHandler } from '../src/types.js'
import { command, commands, dropReasons, hooksOn, sandbox, write } from './fixtures/config/layout.js'

/** A literal `${CLAUDE_PROJECT_DIR}`: exec-form args keep placeholders as written. */
const PROJECT_DIR_REF = `\${CLAUDE_PROJECT_DIR}`

describe('handler fields', () => {
  it('loads a command handler with every field, exactly', () => {
    const s = sandbox()
    write(
      s.paths.project,
      hooksOn(
        'PreToolUse',
        [
          command('lint.sh', {
            args: ['--fix', PROJECT_DIR_REF],
            shell: 'bash',
            async: true,
            timeout: 30,
            if: 'Bash(git *)',
            statusMessage: 'linting',
            once: true,
          }),
          command('plain.sh'),
        ],
        'Edit|Write',
      ),
    )
    const loaded = s.load()
    expect(loaded.warnings).toEqual([])
    expect(loaded.handlers).toEqual<ClaudeHandler[]>([
      {
        key: `${s.paths.project}:PreToolUse:0:0`,
        event: 'PreToolUse',
        matcher: 'Edit|Write',
        timeoutSec: 30,
        if: 'Bash(git *)',
        statusMessage: 'linting',
        source: 'project',
        sourcePath: s.paths.project,
        groupIndex: 0,
        handlerIndex: 0,
        unknownFields: [],
        type: 'command',
        command: 'lint.sh',
        args: ['--fix', PROJECT_DIR_REF],
        shell: 'bash',
        async: true,
      },
      {
        key: `${s.paths.project}:PreToolUse:0:1`,
        event: 'PreToolUse',
        matcher: 'Edit|Write',
        timeoutSec: undefined,
        if: undefined,
        statusMessage: undefined,
        source: 'project',
        sourcePath: s.paths.project,
        groupIndex: 0,
        handlerIndex: 1,
        unknownFields: [],
        type: 'command',
        command: 'plain.sh',
        args: undefined,
        shell: undefined,
        async: false,
      },
    ])
    expect(loaded.handlers[0]).not.toHaveProperty('plugin')
  })

  it('loads http and prompt handlers with their fields and defaults', () => {
    const s = sandbox()
    write(s.paths.user, {
      hooks: {
        PostToolUse: [
          {
            hooks: [
              {
                type: 'http',
                url: 'https://hooks.example.com/post',
                headers: { Authorization: 'Bearer $TOKEN' },
                allowedEnvVars: ['TOKEN'],
                timeout: 5,
              },
              { type: 'http', url: 'http://localhost:8080/x' },
            ],
          },
        ],
        Stop: [
          {
            hooks: [
              { type: 'prompt', prompt: 'Done? $ARGUMENTS', model: 'haiku', continueOnBlock: true },
              { type: 'prompt', prompt: 'p' },
            ],
          },
        ],
      },
    })
    const loaded = s.load()
    expect(loaded.warnings).toEqual([])
    expect(loaded.handlers).toMatchObject([
      {
        type: 'http',
        url: 'https://hooks.example.com/post',
        headers: { Authorization: 'Bearer $TOKEN' },
        allowedEnvVars: ['TOKEN'],
        timeoutSec: 5,
      },
      { type: 'http', url: 'http://localhost:8080/x', headers: {}, allowedEnvVars: [], timeoutSec: undefined },
      { type: 'prompt', prompt: 'Done? $ARGUMENTS', model: 'haiku', continueOnBlock: true, event: 'Stop' },
      { type: 'prompt', prompt: 'p', model: undefined, continueOnBlock: false },
    ])
  })

  it('keeps matchers as configured, also on events that ignore them, and leaves an absent one undefined', () => {
    const s = sandbox()
    write(s.paths.project, {
      hooks: {
        Stop: [{ matcher: 'ignored-anyway', hooks: [command('a')] }],
        SessionStart: [{ matcher: '', hooks: [command('b')] }, { hooks: [command('c')] }],
      },
    })
    const loaded = s.load()
    expect(loaded.handlers.map((handler) => handler.matcher)).toEqual(['ignored-anyway', '', undefined])
    expect(loaded.warnings).toEqual([])
  })

  it('drops a handler with "if" on a non-tool event, as Claude Code never runs it, with a warning', () => {
    const s = sandbox()
    write(s.paths.project, hooksOn('Stop', [command('stop', { if: 'Bash(git *)' })]))
    const loaded = s.load()
    expect(loaded.handlers).toEqual([])
    expect(loaded.dropped).toMatchObject([
      { handler: { command: 'stop', if: 'Bash(git *)' }, reason: '"if" applies only to tool events; never run on Stop' },
    ])
    expect(loaded.warnings).toEqual([
      `${s.paths.project}: hooks.Stop[0].hooks[0]: "if" applies only to tool events (PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied); Claude Code never runs this handler on Stop, so neither does the dialect`,
    ])
  })

  it('runs asyncRewake as async, saying the wake-up is not supported', () => {
    const s = sandbox()
    write(s.paths.project, hooksOn('PostToolUse', [command('bg', { asyncRewake: true })]))
    const loaded = s.load()
    expect(loaded.handlers).toMatchObject([{ command: 'bg', async: true, unknownFields: [] }])
    expect(loaded.warnings).toEqual([
      `${s.paths.project}: hooks.PostToolUse[0].hooks[0]: "asyncRewake" is not supported: the hook runs async and its exit code 2 does not wake the model`,
    ])
  })
})

describe('unknown events, types and fields load and are listed as unsupported (§9 item 5)', () => {
  it('lists an unknown event as dropped, with a warning', () => {
    const s = sandbox()
    write(s.paths.project, { hooks: { Foo: [{ hooks: [command('foo')] }], Stop: [{ hooks: [command('stop')] }] } })
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['project stop'])
    expect(dropReasons(loaded)).toEqual(['foo: unknown event "Foo"'])
    expect(loaded.dropped[0]?.handler).toMatchObject({ event: 'Foo', key: `${s.paths.project}:Foo:0:0`, type: 'command' })
    expect(loaded.warnings).toEqual([`${s.paths.project}: unknown event "Foo"; its hooks are listed, never run`])
  })

  it('lists the events the kernel never produces as dropped, saying why, without a warning', () => {
    const s = sandbox()
    write(s.paths.project, {
      hooks: { FileChanged: [{ matcher: '.env', hooks: [command('watch')] }], ConfigChange: [{ hooks: [command('config')] }] },
    })
    const loaded = s.load()
    expect(loaded.handlers).toEqual([])
    expect(dropReasons(loaded)).toEqual([
      'watch: never fired: the kernel watches no files',
      'config: never fired: the configuration is read once, at session start',
    ])
    expect(loaded.warnings).toEqual([])
  })

  it('lists agent handlers as unsupported, keeping their raw objects', () => {
    const s = sandbox()
    const agent = { type: 'agent', prompt: 'Check $ARGUMENTS', model: 'sonnet', timeout: 60 }
    write(s.paths.project, hooksOn('Stop', [agent]))
    const loaded = s.load()
    expect(loaded.handlers).toEqual([])
    expect(dropReasons(loaded)).toEqual(['agent: handler type "agent" is not supported by the kernel'])
    expect(loaded.dropped.map(({ handler }) => handler)).toMatchObject([{ type: 'agent', raw: agent, timeoutSec: 60, unknownFields: [] }])
    expect(loaded.warnings).toEqual([])
  })

  it('parses mcp_tool handlers: server, tool, input, onFailure (any value but "continue" reads as "block", as in Claude Code 2.1.332)', () => {
    const s = sandbox()
    const handlers = [
      { type: 'mcp_tool', server: 'memory', tool: 'save', input: { x: '${tool_input.command}' }, timeout: 5, statusMessage: 'saving' },
      { type: 'mcp_tool', server: 'memory', tool: 'save', onFailure: 'block' },
      { type: 'mcp_tool', server: 'memory', tool: 'save', onFailure: 'continue' },
      { type: 'mcp_tool', server: 'memory', tool: 'save', onFailure: 'yes' },
      { type: 'mcp_tool', server: 'memory' },
      { type: 'mcp_tool', server: 'memory', tool: 'save', input: 'x' },
    ]
    write(s.paths.project, hooksOn('Stop', handlers))
    const loaded = s.load()
    expect(loaded.handlers).toMatchObject([
      {
        type: 'mcp_tool',
        server: 'memory',
        tool: 'save',
        input: { x: '${tool_input.command}' },
        timeoutSec: 5,
        statusMessage: 'saving',
        onFailure: 'continue',
        unknownFields: [],
      },
      { type: 'mcp_tool', input: undefined, onFailure: 'block' },
      { type: 'mcp_tool', onFailure: 'continue' },
      { type: 'mcp_tool', onFailure: 'block' },
    ])
    expect(loaded.warnings).toEqual([
      `${s.paths.project}: hooks.Stop[0].hooks[4]: "tool" is required; skipped`,
      `${s.paths.project}: hooks.Stop[0].hooks[5]: "input" must be an object, got "x"; skipped`,
    ])
  })

  it('lists an unknown handler type as dropped, with a warning', () => {
    const s = sandbox()
    write(s.paths.project, hooksOn('Stop', [{ type: 'webhook', endpoint: 'x' }]))
    const loaded = s.load()
    expect(dropReasons(loaded)).toEqual(['webhook: unknown handler type "webhook"'])
    expect(loaded.dropped[0]?.handler).toMatchObject({ type: 'webhook', raw: { type: 'webhook', endpoint: 'x' } })
    expect(loaded.warnings).toEqual([`${s.paths.project}: hooks.Stop[0].hooks[0]: unknown handler type "webhook"; listed, never run`])
  })

  it('tolerates unknown fields: the handler runs, the fields are recorded, one warning names them', () => {
    const s = sandbox()
    write(s.paths.project, hooksOn('Stop', [command('stop', { color: 'red', onFailure: 'block' })]))
    const loaded = s.load()
    expect(loaded.handlers).toMatchObject([{ command: 'stop', unknownFields: ['color', 'onFailure'] }])
    expect(loaded.dropped).toEqual([])
    expect(loaded.warnings).toEqual([`${s.paths.project}: hooks.Stop[0].hooks[0]: unknown field(s) "color", "onFailure" ignored`])
  })

  it('warns about unknown matcher-group fields and loads the group', () => {
    const s = sandbox()
    write(s.paths.project, { hooks: { Stop: [{ description: 'x', hooks: [command('stop')] }] } })
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['project stop'])
    expect(loaded.warnings).toEqual([`${s.paths.project}: hooks.Stop[0]: unknown field(s) "description" ignored`])
  })
})

describe('malformed handlers, groups and events', () => {
  it('skips each malformed handler with a warning naming file, event, group and index; the rest of the file loads', () => {
    const s = sandbox()
    write(s.paths.project, {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              command('ok-0'),
              { type: 'command', command: 42 },
              command('ok-2'),
              command('bad-timeout', { timeout: '30' }),
              command('bad-args', { args: 'a b' }),
              command('bad-shell', { shell: 'zsh' }),
              { type: 'command' },
              'echo hi',
              { command: 'no-type' },
              { type: 'http', url: 'not a url' },
              { type: 'prompt', prompt: 'p', continueOnBlock: 'yes' },
              command('bad-async', { async: 'true', timeout: 0 }),
              command('ok-12'),
            ],
          },
        ],
      },
    })
    const loaded = s.load()
    const where = `${s.paths.project}: hooks.PreToolUse[0].hooks`
    expect(commands(loaded.handlers)).toEqual(['project ok-0', 'project ok-2', 'project ok-12'])
    expect(loaded.handlers.map((handler) => handler.key)).toEqual([
      `${s.paths.project}:PreToolUse:0:0`,
      `${s.paths.project}:PreToolUse:0:2`,
      `${s.paths.project}:PreToolUse:0:12`,
    ])
    expect(loaded.warnings).toEqual([
      `${where}[1]: "command" must be a string, got a number; skipped`,
      `${where}[3]: "timeout" must be a positive number, got "30"; skipped`,
      `${where}[4]: "args" must be an array of strings, got "a b"; skipped`,
      `${where}[5]: "shell" must be "bash" or "powershell", got "zsh"; skipped`,
      `${where}[6]: "command" is required; skipped`,
      `${where}[7]: a handler must be an object, got a string; skipped`,
      `${where}[8]: "type" must be a string, got nothing; skipped`,
      `${where}[9]: "url" must be a URL, got "not a url"; skipped`,
      `${where}[10]: "continueOnBlock" must be a boolean, got "yes"; skipped`,
      `${where}[11]: "timeout" must be a positive number, got a number; "async" must be a boolean, got "true"; skipped`,
    ])
    expect(loaded.dropped).toEqual([])
    expect(loaded.sources[2]).toEqual({ source: 'project', path: s.paths.project, found: true })
  })

  it('skips a group whose matcher is not a string or whose hooks is not an array, and an event that is not an array', () => {
    const s = sandbox()
    write(s.paths.project, {
      hooks: {
        PreToolUse: [{ matcher: ['Bash'], hooks: [command('array-matcher')] }, { matcher: 'Bash' }, 'group', { hooks: [command('ok')] }],
        Stop: { hooks: [command('object-event')] },
        SessionEnd: [{ hooks: [command('end')] }],
      },
    })
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['project ok', 'project end'])
    expect(loaded.handlers[0]?.key).toBe(`${s.paths.project}:PreToolUse:3:0`)
    expect(loaded.warnings).toEqual([
      `${s.paths.project}: hooks.PreToolUse[0]: "matcher" must be a string, got an array; group skipped`,
      `${s.paths.project}: hooks.PreToolUse[1]: "hooks" must be an array of handlers, got nothing; group skipped`,
      `${s.paths.project}: hooks.PreToolUse[2]: a matcher group must be an object, got a string; skipped`,
      `${s.paths.project}: hooks.Stop must be an array of matcher groups, got an object; skipped`,
    ])
  })
})

describe('unusable files', () => {
  it('records invalid JSON as the source error with the parse position; the other sources still load', () => {
    const s = sandbox()
    write(s.paths.project, '{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n')
    write(s.paths.user, hooksOn('Stop', [command('user')]))
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['user user'])
    const report = loaded.sources.find((source) => source.source === 'project')
    expect(report).toMatchObject({ source: 'project', path: s.paths.project, found: true })
    expect(report?.error).toBe('invalid JSON at line 3, column 14: expected a value, found ","')
    expect(loaded.warnings).toEqual([
      `${s.paths.project}: invalid JSON at line 3, column 14: expected a value, found ","; its hooks are skipped`,
    ])
  })

  it('records a top level that is not an object, and a hooks that is not an object', () => {
    const s = sandbox()
    write(s.paths.project, [hooksOn('Stop', [command('x')])])
    write(s.paths.local, { hooks: [command('x')] })
    write(s.paths.user, { hooks: 'Stop' })
    const loaded = s.load()
    expect(loaded.handlers).toEqual([])
    expect(loaded.sources.map((report) => report.error)).toEqual([
      undefined,
      '"hooks" must be an object of events, got an array',
      'the top level must be a JSON object, got an array',
      '"hooks" must be an object of events, got a string',
    ])
    expect(loaded.warnings).toEqual([
      `${s.paths.project}: the top level must be a JSON object, got an array; its hooks are skipped`,
      `${s.paths.local}: "hooks" must be an object of events, got an array; its hooks are skipped`,
      `${s.paths.user}: "hooks" must be an object of events, got a string; its hooks are skipped`,
    ])
  })

  it('records a settings path that is a directory as unreadable', () => {
    const s = sandbox()
    write(`${s.paths.project}/x`, '')
    const loaded = s.load()
    expect(loaded.sources[2]).toMatchObject({ source: 'project', found: true, error: expect.stringMatching(/^cannot read: EISDIR/) })
    expect(loaded.warnings).toHaveLength(1)
  })

  it('loads an empty file as no settings, and a file with a byte-order mark', () => {
    const s = sandbox()
    write(s.paths.project, '  \n')
    write(s.paths.user, `\uFEFF${JSON.stringify(hooksOn('Stop', [command('bom')]))}`)
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['user bom'])
    expect(loaded.warnings).toEqual([])
    expect(loaded.sources.map((report) => report.error)).toEqual([undefined, undefined, undefined, undefined])
  })
})
