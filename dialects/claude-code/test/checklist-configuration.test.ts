// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` here is hook configuration text, never a template.
/**
 * claude-code-hooks.md §9, "Configuration" (items 1–7), end to end: every settings source, plugin directories, the
 * `disableAllHooks` / `allowManagedHooksOnly` gates, unknown entries, `http` handlers against a real local server, and
 * the skipped `agent` type, each selecting (or not) real hook processes in a real kernel session.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { definePlugin, type Message, type NoticePayload, type SessionEvent } from '@harness-kernel/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { loadClaudeCodeHooks } from '../src/index.js'
import { bash, claudeHarnessPerTest, hookRuns, RECORDER, rec } from './claude-harness.js'

const harness = claudeHarnessPerTest()
const PLUGIN = 'claude-code-hooks'

/** Writes JSON (with `@REC@` → the recorder's path), creating directories; returns the path. */
function writeJson(path: string, value: unknown): string {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, JSON.stringify(value).replaceAll('@REC@', RECORDER))
  return path
}

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), `hk-claude-${prefix}-`))
const cmd = (event: string, tag: string) => `${RECORDER} ${event} ${tag}`
/** A `hooks` object with one UserPromptSubmit recorder; `{ hooks: ups(tag) }` is a settings file. */
const ups = (tag: string) => ({ UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', tag)] }] })
const settingsFile = (tag: string, extra: Record<string, unknown> = {}) => ({ ...extra, hooks: ups(tag) })
const tags = (calls: { tag: string }[]) => calls.map((call) => call.tag).sort()

/** The dialect's notices in the session log, oldest first. */
function pluginNotices(path: string): { level: string; text: string }[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
    .flatMap((event) => (event.type === 'notice' && event.source === PLUGIN ? [{ level: event.level, text: event.text }] : []))
}

function toolResults(messages: readonly Message[]) {
  return messages.flatMap((message) => message.content).filter((block) => block.type === 'tool_result')
}

/** A Claude Code plugin directory: `.claude-plugin/plugin.json` and `hooks/hooks.json`. */
function claudePlugin(root: string, name: string, hooks: Record<string, unknown>): string {
  const dir = join(root, name)
  writeJson(join(dir, '.claude-plugin', 'plugin.json'), { name })
  writeJson(join(dir, 'hooks', 'hooks.json'), { description: `${name} hooks`, hooks })
  return dir
}

function noticeTap(): { plugin: ReturnType<typeof definePlugin>; seen: NoticePayload[] } {
  const seen: NoticePayload[] = []
  const plugin = definePlugin({
    name: 'notice-tap',
    setup(kernel) {
      kernel.hooks.notice.tap('notice-tap', (payload) => {
        seen.push(payload)
      })
    },
  })
  return { plugin, seen }
}

describe('checklist: configuration sources (claude-code-hooks.md §9, 1–2)', () => {
  it('1. managed (and managed-settings.d/), --settings (file and inline), local, project and user hooks all run once, concatenated in that order', async () => {
    const etc = tempDir('managed')
    const managed = writeJson(join(etc, 'managed-settings.json'), settingsFile('managed'))
    writeJson(join(etc, 'managed-settings.d', '10-dropin.json'), settingsFile('dropin'))
    const inline = JSON.stringify(settingsFile('inline')).replaceAll('@REC@', RECORDER)
    const h = harness({
      script: [{ text: 'done' }],
      hooks: ups('project'),
      // A relative --settings file resolves against the project.
      options: { managedSettingsPath: managed, settings: ['flag-settings.json', inline] },
    })
    writeJson(join(h.project, 'flag-settings.json'), settingsFile('flagfile'))
    writeJson(join(h.project, '.claude', 'settings.local.json'), settingsFile('local'))
    writeJson(join(h.configDir, 'settings.json'), settingsFile('user'))
    const session = await h.kernel.startSession()
    expect((await session.run('go')).status).toBe('completed')

    expect(tags(h.calls('UserPromptSubmit'))).toEqual(['dropin', 'flagfile', 'inline', 'local', 'managed', 'project', 'user'])
    expect(hookRuns(session.transcriptPath).map((run) => [run.source, run.command])).toEqual([
      ['managed', cmd('UserPromptSubmit', 'managed')],
      ['managed', cmd('UserPromptSubmit', 'dropin')],
      ['flag', cmd('UserPromptSubmit', 'flagfile')],
      ['flag', cmd('UserPromptSubmit', 'inline')],
      ['local', cmd('UserPromptSubmit', 'local')],
      ['project', cmd('UserPromptSubmit', 'project')],
      ['user', cmd('UserPromptSubmit', 'user')],
    ])
    expect(pluginNotices(session.transcriptPath)).toEqual([])
  })

  it('1. the user file is ~/.claude/settings.json, and $CLAUDE_CONFIG_DIR moves it', async () => {
    const root = tempDir('home')
    const home = join(root, 'home')
    const moved = join(root, 'moved')
    writeJson(join(home, '.claude', 'settings.json'), settingsFile('home'))
    writeJson(join(moved, 'settings.json'), settingsFile('moved'))
    const saved = { HOME: process.env.HOME, CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR }
    const restore = (name: 'HOME' | 'CLAUDE_CONFIG_DIR') => {
      if (saved[name] === undefined) delete process.env[name]
      else process.env[name] = saved[name]
    }
    try {
      process.env.HOME = home
      delete process.env.CLAUDE_CONFIG_DIR
      const atHome = harness({ script: [{ text: 'done' }], options: { configDir: undefined } })
      const first = await atHome.kernel.startSession()
      await first.run('go')
      expect(tags(atHome.calls('UserPromptSubmit'))).toEqual(['home'])

      process.env.CLAUDE_CONFIG_DIR = moved
      const movedAway = harness({ script: [{ text: 'done' }], options: { configDir: undefined } })
      const second = await movedAway.kernel.startSession()
      await second.run('go')
      expect(tags(movedAway.calls('UserPromptSubmit'))).toEqual(['moved'])
      expect(hookRuns(second.transcriptPath).map((run) => [run.source, run.sourcePath])).toEqual([['user', join(moved, 'settings.json')]])
    } finally {
      restore('HOME')
      restore('CLAUDE_CONFIG_DIR')
    }
  })

  it('2. plugin hooks load from <plugin>/hooks/hooks.json and run with CLAUDE_PLUGIN_ROOT (and _DATA) set; `${CLAUDE_PLUGIN_ROOT}` is expanded by the shell', async () => {
    const plugins = tempDir('plugins')
    const command = '"${CLAUDE_PLUGIN_ROOT}/scripts/rec.sh" UserPromptSubmit plugin'
    const pluginDir = claudePlugin(plugins, 'lint-kit', { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] })
    mkdirSync(join(pluginDir, 'scripts'))
    copyFileSync(RECORDER, join(pluginDir, 'scripts', 'rec.sh'))
    chmodSync(join(pluginDir, 'scripts', 'rec.sh'), 0o755)
    const h = harness({ script: [{ text: 'done' }], hooks: ups('project'), options: { plugins: [pluginDir] } })
    const session = await h.kernel.startSession()
    await session.run('go')

    const [plugin] = h.calls('UserPromptSubmit').filter((call) => call.tag === 'plugin')
    expect(plugin?.env.CLAUDE_PLUGIN_ROOT).toBe(pluginDir)
    expect(plugin?.env.CLAUDE_PLUGIN_DATA).toBe(join(h.configDir, 'plugins', 'data', 'lint-kit-inline'))
    expect(plugin?.env.CLAUDE_PROJECT_DIR).toBe(h.project)
    expect(plugin?.meta.parent).toBe(`/bin/sh -c ${command} `)
    const [project] = h.calls('UserPromptSubmit').filter((call) => call.tag === 'project')
    expect(project?.env.CLAUDE_PLUGIN_ROOT).toBeUndefined()
    expect(project?.env.CLAUDE_PLUGIN_DATA).toBeUndefined()
    expect(hookRuns(session.transcriptPath).map((run) => [run.source, run.command, run.outcome])).toEqual([
      ['project', cmd('UserPromptSubmit', 'project'), 'success'],
      ['plugin', command, 'success'],
    ])
  })
})

describe('checklist: gates (claude-code-hooks.md §9, 3–4)', () => {
  /**
   * A UserPromptSubmit recorder in every source: managed (with `managed` extra keys), an inline --settings, local,
   * project (with `project` extra keys), user and a plugin; the tag is the source.
   */
  function everywhere(extra: { managed?: Record<string, unknown>; project?: Record<string, unknown> } = {}) {
    const managed = writeJson(join(tempDir('managed'), 'managed-settings.json'), settingsFile('managed', extra.managed))
    const pluginDir = claudePlugin(tempDir('plugins'), 'kit', ups('plugin'))
    const flag = JSON.stringify(settingsFile('flag')).replaceAll('@REC@', RECORDER)
    const h = harness({
      script: [{ text: 'done' }],
      hooks: ups('project'),
      ...(extra.project ? { settings: extra.project } : {}),
      options: { managedSettingsPath: managed, plugins: [pluginDir], settings: [flag] },
    })
    writeJson(join(h.project, '.claude', 'settings.local.json'), settingsFile('local'))
    writeJson(join(h.configDir, 'settings.json'), settingsFile('user'))
    return h
  }
  const ALL = ['flag', 'local', 'managed', 'plugin', 'project', 'user']

  it('3. a project `disableAllHooks: true` stops every hook but the managed ones (--settings, local, project, user, plugin)', async () => {
    const h = everywhere({ project: { disableAllHooks: true } })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(tags(h.calls())).toEqual(['managed'])
  })

  it('3. a managed `disableAllHooks: true` stops every hook, managed ones included', async () => {
    const h = everywhere({ managed: { disableAllHooks: true } })
    const session = await h.kernel.startSession()
    expect((await session.run('go')).status).toBe('completed')
    expect(h.calls()).toEqual([])
    expect(hookRuns(session.transcriptPath)).toEqual([])
  })

  it('3. `disableAllHooks` counts after precedence: a managed `false` overrides a project `true`, so every hook runs', async () => {
    const h = everywhere({ managed: { disableAllHooks: false }, project: { disableAllHooks: true } })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(tags(h.calls())).toEqual(ALL)
  })

  it('4. a managed `allowManagedHooksOnly: true` keeps only managed hooks: --settings, local, project, user and plugin hooks are dropped', async () => {
    const h = everywhere({ managed: { allowManagedHooksOnly: true } })
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(tags(h.calls())).toEqual(['managed'])
    expect(hookRuns(session.transcriptPath).map((run) => run.source)).toEqual(['managed'])
  })

  it('4. `allowManagedHooksOnly` outside managed settings is ignored (with a warning): every hook still runs', async () => {
    const h = everywhere({ project: { allowManagedHooksOnly: true } })
    writeJson(join(h.configDir, 'settings.json'), settingsFile('user', { allowManagedHooksOnly: true }))
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(tags(h.calls())).toEqual(ALL)
    const projectFile = join(h.project, '.claude', 'settings.json')
    const userFile = join(h.configDir, 'settings.json')
    expect(pluginNotices(session.transcriptPath)).toEqual([
      { level: 'warning', text: `${projectFile}: allowManagedHooksOnly counts only in managed settings; ignored` },
      { level: 'warning', text: `${userFile}: allowManagedHooksOnly counts only in managed settings; ignored` },
    ])
  })
})

describe('checklist: unknown entries and handler types (claude-code-hooks.md §9, 5–7)', () => {
  it('5. unknown events, handler types and fields load with warnings; the known handler still runs; the others are listed as unsupported', async () => {
    const h = harness({
      script: [{ text: 'done' }],
      hooks: {
        BogusEvent: [{ hooks: [rec('BogusEvent', 'bogus')] }],
        UserPromptSubmit: [
          {
            hooks: [
              { type: 'wizard', spell: 'sparkle' },
              { ...rec('UserPromptSubmit', 'known'), frobnicate: 1 },
            ],
          },
        ],
        UserPromptExpansion: [{ hooks: [rec('UserPromptExpansion', 'expand')] }],
      },
    })
    const session = await h.kernel.startSession()
    expect((await session.run('go')).status).toBe('completed')
    const path = join(h.project, '.claude', 'settings.json')

    expect(h.calls().map((call) => `${call.event}-${call.tag}`)).toEqual(['UserPromptSubmit-known'])
    expect(pluginNotices(session.transcriptPath)).toEqual([
      { level: 'warning', text: `${path}: unknown event "BogusEvent"; its hooks are listed, never run` },
      { level: 'warning', text: `${path}: hooks.UserPromptSubmit[0].hooks[0]: unknown handler type "wizard"; listed, never run` },
      { level: 'warning', text: `${path}: hooks.UserPromptSubmit[0].hooks[1]: unknown field(s) "frobnicate" ignored` },
      {
        level: 'warning',
        text: `UserPromptSubmit hook ${path}:UserPromptSubmit:0:0 has type "wizard", which the kernel does not run; it was skipped`,
      },
    ])
    // What `harness hooks list` shows: every handler that will not run, and why.
    const listed = loadClaudeCodeHooks({ projectDir: h.project, configDir: h.configDir, managedSettingsPath: false, env: {} })
    expect(listed.dropped.map((dropped) => [dropped.handler.key, dropped.reason])).toEqual([
      [`${path}:BogusEvent:0:0`, 'unknown event "BogusEvent"'],
      [`${path}:UserPromptSubmit:0:0`, 'unknown handler type "wizard"'],
      [`${path}:UserPromptExpansion:0:0`, 'never fired: the kernel has no slash commands'],
    ])
    expect(listed.handlers.map((handler) => [handler.key, handler.unknownFields])).toEqual([
      [`${path}:UserPromptSubmit:0:1`, ['frobnicate']],
    ])
  })

  it('5. events the kernel never produces (Setup, …) load, are listed as unsupported and never run; Notification and StopFailure do run', async () => {
    const neverFired = [
      'Setup',
      'ConfigChange',
      'TeammateIdle',
      'TaskCreated',
      'TaskCompleted',
      'Elicitation',
      'ElicitationResult',
      'WorktreeCreate',
      'WorktreeRemove',
      'FileChanged',
      'DirectoryAdded',
      'PreSkillShellCommand',
      'PreModelSwitch',
      'PostModelSwitch',
    ]
    const askPolicy = definePlugin({
      name: 'ask-policy',
      setup(kernel) {
        kernel.hooks.toolPreExecute.tap({ name: 'ask-policy', stage: -100 }, () => ({ kind: 'ask', reason: 'policy asks' }))
      },
    })
    const h = harness({
      // Turn 1: a permission prompt (no approver: denied). Turn 2: the model fails, so the turn fails.
      script: [bash('echo hi'), { text: 'done' }, { error: { message: 'HTTP 529 overloaded', retryable: false, status: 529 } }],
      hooks: {
        ...Object.fromEntries(neverFired.map((event) => [event, [{ hooks: [rec(event, 'never')] }]])),
        Notification: [{ matcher: 'permission_prompt', hooks: [rec('Notification', 'fired')] }],
        StopFailure: [{ matcher: 'server_error', hooks: [rec('StopFailure', 'fired')] }],
      },
      plugins: [askPolicy],
    })
    const session = await h.kernel.startSession()
    expect((await session.run('first')).status).toBe('completed')
    expect((await session.run('second')).status).toBe('failed')
    await session.end()
    const path = join(h.project, '.claude', 'settings.json')
    const listed = loadClaudeCodeHooks({ projectDir: h.project, configDir: h.configDir, managedSettingsPath: false, env: {} })
    expect(listed.handlers.map((handler) => handler.event)).toEqual(['Notification', 'StopFailure'])
    expect(listed.dropped.map((dropped) => [dropped.handler.key, dropped.reason.startsWith('never fired: ')])).toEqual(
      neverFired.map((event) => [`${path}:${event}:0:0`, true]),
    )
    // Both are detached observers: which process records first is up to the machine, so no order is asserted.
    expect(
      h
        .calls()
        .map((call) => `${call.event}/${call.tag}`)
        .sort(),
    ).toEqual(['Notification/fired', 'StopFailure/fired'])
    const [notification] = h.calls('Notification')
    const [failure] = h.calls('StopFailure')
    expect(Object.keys(notification!.payload).slice(3)).toEqual(['prompt_id', 'hook_event_name', 'message', 'notification_type'])
    expect(notification!.payload).toMatchObject({
      message: 'Claude needs your permission to use Bash',
      notification_type: 'permission_prompt',
    })
    expect(failure!.payload).toMatchObject({ hook_event_name: 'StopFailure', error: 'server_error', last_assistant_message: 'done' })
    expect(failure!.payload.error_details).toContain('HTTP 529 overloaded')
  })

  describe('6. http handlers', () => {
    const servers: Server[] = []
    const timers: NodeJS.Timeout[] = []
    afterEach(() => {
      for (const timer of timers.splice(0)) clearTimeout(timer)
      for (const server of servers.splice(0)) {
        server.closeAllConnections()
        server.close()
      }
    })

    interface Received {
      method: string | undefined
      url: string | undefined
      contentType: string | undefined
      body: string
    }
    type Reply = { status: number; body: string; delayMs?: number }

    async function serve(routes: Record<string, Reply>): Promise<{ base: string; received: Received[] }> {
      const received: Received[] = []
      const server = createServer((req: IncomingMessage, res) => {
        const chunks: Buffer[] = []
        req.on('data', (chunk: Buffer) => chunks.push(chunk))
        req.on('end', () => {
          received.push({
            method: req.method,
            url: req.url,
            contentType: req.headers['content-type'],
            body: Buffer.concat(chunks).toString('utf8'),
          })
          const reply = routes[req.url ?? ''] ?? { status: 404, body: 'no route' }
          const send = () => res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body)
          if (reply.delayMs === undefined) send()
          else timers.push(setTimeout(send, reply.delayMs))
        })
      })
      servers.push(server)
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received }
    }

    /** A port nothing listens on: a server's, once closed. */
    async function closedPort(): Promise<number> {
      const server = createServer()
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      const { port } = server.address() as AddressInfo
      await new Promise<void>((resolve) => server.close(() => resolve()))
      return port
    }

    const deny = (reason: string) =>
      JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })

    it('6. a 2xx JSON body decides (deny: the tool does not run); the POST body is the payload, byte for byte the stdin without its newline; one URL is called once', async () => {
      const { base, received } = await serve({ '/pre': { status: 200, body: deny('HTTP-DENY-REASON') } })
      const h = harness({
        script: [bash('touch ran.txt'), { text: 'done' }],
        // The same URL in a second group is the same handler: it is called once.
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'http', url: `${base}/pre` }, rec('PreToolUse', 'twin')] },
            { hooks: [{ type: 'http', url: `${base}/pre`, timeout: 30 }] },
          ],
        },
      })
      const session = await h.kernel.startSession()
      const result = await session.run('go')
      expect(existsSync(join(h.project, 'ran.txt'))).toBe(false)
      expect(toolResults(result.messages)).toEqual([
        { type: 'tool_result', callId: 'toolu_1', output: 'PreToolUse:Bash hook error: HTTP-DENY-REASON', isError: true },
      ])
      const [twin] = h.calls('PreToolUse')
      expect(received).toEqual([{ method: 'POST', url: '/pre', contentType: 'application/json', body: twin!.stdin.slice(0, -1) }])
      expect(twin!.stdin.endsWith('}\n')).toBe(true)
      const http = hookRuns(session.transcriptPath).find((run) => run.handlerType === 'http')
      expect(http).toMatchObject({ command: `${base}/pre`, outcome: 'success', decision: 'deny' })
    })

    it('6. a non-2xx reply (even one carrying a deny), a refused connection and a timeout never block: the tool runs', async () => {
      const { base, received } = await serve({
        '/fail': { status: 500, body: deny('FROM-A-500') },
        '/slow': { status: 200, body: deny('TOO-LATE'), delayMs: 5000 },
      })
      const refused = `http://127.0.0.1:${await closedPort()}/hook`
      const h = harness({
        script: [bash('touch ran.txt && echo ran'), { text: 'done' }],
        hooks: {
          PreToolUse: [
            {
              hooks: [
                { type: 'http', url: `${base}/fail` },
                { type: 'http', url: `${base}/slow`, timeout: 1 },
                { type: 'http', url: refused },
              ],
            },
          ],
        },
      })
      const session = await h.kernel.startSession()
      const result = await session.run('go')
      expect(existsSync(join(h.project, 'ran.txt'))).toBe(true)
      expect(toolResults(result.messages)).toEqual([{ type: 'tool_result', callId: 'toolu_1', output: 'ran', isError: false }])
      expect(received.map((request) => request.url).sort()).toEqual(['/fail', '/slow'])
      const runs = hookRuns(session.transcriptPath).filter((run) => run.event === 'PreToolUse')
      expect(runs.map((run) => [run.command, run.outcome, run.decision, run.timedOut])).toEqual([
        [`${base}/fail`, 'error', undefined, false],
        [`${base}/slow`, 'timeout', undefined, true],
        [refused, 'error', undefined, false],
      ])
    })
  })

  it('7. skipped `agent` handlers: one notice each per session, and a `hook/run` with outcome `skipped` per invocation; `mcp_tool` handlers run', async () => {
    const { plugin, seen } = noticeTap()
    const h = harness({
      script: [bash('echo one', 'toolu_1'), bash('echo two', 'toolu_2'), { text: 'done' }],
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'agent', prompt: 'Is this command safe? $ARGUMENTS' },
              { type: 'mcp_tool', server: 'guard', tool: 'check', input: {} },
              rec('PreToolUse', 'rec'),
            ],
          },
        ],
      },
      plugins: [plugin],
    })
    const session = await h.kernel.startSession()
    const result = await session.run('go')
    expect(toolResults(result.messages).map((block) => [block.output, block.isError])).toEqual([
      ['one', false],
      ['two', false],
    ])
    expect(h.calls('PreToolUse')).toHaveLength(2)
    const path = join(h.project, '.claude', 'settings.json')
    // No mcp() plugin here: the mcp_tool handler runs and fails as Claude Code's does for a server it does not have.
    const failed = `PreToolUse:Bash hook guard/check failed: MCP server 'guard' not connected`
    const expected = [
      `PreToolUse hook ${path}:PreToolUse:0:0 has type "agent", which the kernel does not run; it was skipped`,
      failed,
      failed,
    ]
    expect(seen.filter((notice) => notice.source === PLUGIN).map((notice) => [notice.level, notice.text])).toEqual(
      expected.map((text) => ['warning', text]),
    )
    expect(pluginNotices(session.transcriptPath).map((notice) => notice.text)).toEqual(expected)
    expect(hookRuns(session.transcriptPath).map((run) => [run.key, run.handlerType, run.outcome])).toEqual([
      [`${path}:PreToolUse:0:0`, 'agent', 'skipped'],
      [`${path}:PreToolUse:0:1`, 'mcp_tool', 'error'],
      [`${path}:PreToolUse:0:2`, 'command', 'success'],
      [`${path}:PreToolUse:0:0`, 'agent', 'skipped'],
      [`${path}:PreToolUse:0:1`, 'mcp_tool', 'error'],
      [`${path}:PreToolUse:0:2`, 'command', 'success'],
    ])
  })
})
