/**
 * codex-hooks.md §11, "Configuration and trust" (items 1–22), end to end: real hook processes (the recorder), real
 * temp CODEX_HOMEs and projects, hooks loaded by the kernel at session start. Never the real ~/.codex or ~/.harness.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { JsonFileTrustStore, MemoryTrustStore } from '@harness-kernel/hook-protocol'
import { createKernel, type Message, type SessionEvent, textOf } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { tools } from '@harness-kernel/tools'
import { describe, expect, it } from 'vitest'
import { codexHooks, loadCodexHooks, trustCodexHooks } from '../src/index.js'
import { codexHarnessPerTest, hookRuns, RECORDER, rec } from './codex-harness.js'

const setup = codexHarnessPerTest()

const write = (path: string, content: string) => {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, content)
  return path
}
const tomlHook = (event: string, tag: string, extra = '') =>
  `[[hooks.${event}]]\n[[hooks.${event}.hooks]]\ntype = "command"\ncommand = "${RECORDER} ${event} ${tag}"\n${extra}`
const hooksJson = (hooks: Record<string, unknown>) => JSON.stringify({ hooks }).replaceAll('@REC@', RECORDER)
const logEvents = (path: string): SessionEvent[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
const warnings = (path: string) =>
  logEvents(path).flatMap((event) => (event.type === 'notice' && event.source === 'codex-hooks' ? [event.text] : []))
const texts = (messages: readonly Message[]) => messages.map((message) => `${message.role}:${textOf(message)}`)
const tags = (h: { calls(event?: string): { tag: string }[] }, event?: string) => h.calls(event).map((call) => call.tag)

describe('discovery and layering at runtime (items 1–6)', () => {
  it('1: $CODEX_HOME/hooks.json runs; ~/.codex is the default; setting CODEX_HOME moves it', async () => {
    const h = setup({ script: [] })
    const home = join(h.dir, 'user-home')
    write(join(home, '.codex/hooks.json'), hooksJson({ UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', 'default')] }] }))
    const moved = join(h.dir, 'moved-codex-home')
    write(join(moved, 'hooks.json'), hooksJson({ UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', 'moved')] }] }))
    const saved = { HOME: process.env.HOME, CODEX_HOME: process.env.CODEX_HOME }
    const runOnce = async () => {
      const kernel = createKernel(
        [scriptedModel({ script: [{ text: 'ok' }] }), tools(), codexHooks({ trust: 'all', trustStore: false, tmpDir: join(h.dir, 'tmp') })],
        { cwd: h.cwd },
      )
      try {
        const session = await kernel.startSession()
        await session.run('go')
        return hookRuns(session.transcriptPath).map((run) => run.sourcePath)
      } finally {
        await kernel.dispose()
      }
    }
    try {
      process.env.HOME = home
      delete process.env.CODEX_HOME
      expect(await runOnce()).toEqual([join(home, '.codex/hooks.json')])
      expect(tags(h)).toEqual(['default'])
      process.env.CODEX_HOME = moved
      expect(await runOnce()).toEqual([join(moved, 'hooks.json')])
      expect(tags(h)).toEqual(['default', 'moved'])
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
      }
    }
  })

  it('2: inline [[hooks.<Event>]] in config.toml run, and their run id names config.toml', async () => {
    const h = setup({ script: [{ text: 'ok' }], responses: { 'UserPromptSubmit-toml.stdout': 'from toml' } })
    const path = write(join(h.codexHome, 'config.toml'), `model = "m"\n\n${tomlHook('UserPromptSubmit', 'toml')}`)
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(tags(h)).toEqual(['toml'])
    expect(texts(h.model.requests[0]!.messages)).toEqual(['user:go', 'developer:from toml'])
    expect(hookRuns(session.transcriptPath)).toEqual([
      expect.objectContaining({
        id: `user-prompt-submit:0:${path}`,
        key: `${path}:user_prompt_submit:0:0`,
        sourcePath: path,
        source: 'user',
      }),
    ])
  })

  it('3: hooks.json and config.toml of one layer both run, JSON first, with the exact warning as a notice', async () => {
    const h = setup({
      script: [{ text: 'ok' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', 'json')] }] },
      responses: { 'UserPromptSubmit-json.stdout': 'json context', 'UserPromptSubmit-toml.stdout': 'toml context' },
    })
    const json = join(h.codexHome, 'hooks.json')
    const toml = write(join(h.codexHome, 'config.toml'), tomlHook('UserPromptSubmit', 'toml'))
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(texts(h.model.requests[0]!.messages)).toEqual(['user:go', 'developer:json context', 'developer:toml context'])
    expect(hookRuns(session.transcriptPath).map((run) => run.id)).toEqual([`user-prompt-submit:0:${json}`, `user-prompt-submit:1:${toml}`])
    expect(warnings(session.transcriptPath)).toContain(
      `loading hooks from both ${json} and ${toml}; prefer a single representation for this layer`,
    )
  })

  /** A git project at h.cwd, hooks at its root (config.toml) and in `a/` (hooks.json); the session runs in `a/`. */
  const projectSetup = (trust: 'trusted' | 'untrusted' | 'none') => {
    const h = setup({
      script: [{ text: 'ok' }],
      hooks: { UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', 'user')] }] },
      responses: Object.fromEntries(['user', 'root', 'sub', 'flag'].map((tag) => [`UserPromptSubmit-${tag}.stdout`, `ctx ${tag}`])),
      options: { sessionFlags: [`hooks.UserPromptSubmit=[{hooks=[{type="command",command="${RECORDER} UserPromptSubmit flag"}]}]`] },
    })
    write(join(h.cwd, '.git/HEAD'), 'ref: refs/heads/main\n')
    const root = write(join(h.cwd, '.codex/config.toml'), tomlHook('UserPromptSubmit', 'root'))
    const sub = write(join(h.cwd, 'a/.codex/hooks.json'), hooksJson({ UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', 'sub')] }] }))
    if (trust !== 'none') write(join(h.codexHome, 'config.toml'), `[projects.${JSON.stringify(h.cwd)}]\ntrust_level = "${trust}"\n`)
    return { h, root, sub, cwd: join(h.cwd, 'a') }
  }

  it('4: user, then trusted project folders from the root down to cwd, then -c flags; cwd (-C) moves the payload and the process', async () => {
    const { h, root, sub, cwd } = projectSetup('trusted')
    const session = await h.kernel.startSession({ cwd })
    await session.run('go')
    expect(texts(h.model.requests[0]!.messages)).toEqual([
      'user:go',
      'developer:ctx user',
      'developer:ctx root',
      'developer:ctx sub',
      'developer:ctx flag',
    ])
    expect(hookRuns(session.transcriptPath).map((run) => [run.displayOrder, run.source, run.sourcePath])).toEqual([
      [0, 'user', join(h.codexHome, 'hooks.json')],
      [1, 'project', root],
      [2, 'project', sub],
      [3, 'sessionFlags', '/<session-flags>/config.toml'],
    ])
    expect(hookRuns(session.transcriptPath)[3]!.id).toBe('user-prompt-submit:3:/<session-flags>/config.toml')
    for (const call of h.calls()) {
      expect(JSON.parse(call.stdin).cwd).toBe(cwd)
      expect(call.meta.cwd).toBe(cwd)
    }
  })

  it('5: the .codex/ folders of an untrusted project (no entry, or trust_level = "untrusted") do not run', async () => {
    for (const trust of ['none', 'untrusted'] as const) {
      const { h, cwd } = projectSetup(trust)
      const session = await h.kernel.startSession({ cwd })
      await session.run('go')
      expect(tags(h).sort()).toEqual(['flag', 'user'])
      expect(hookRuns(session.transcriptPath).map((run) => run.source)).toEqual(['user', 'sessionFlags'])
    }
  })

  it('6: display order follows the fixed event order, not the file’s key order, in run ids and hook prompts', async () => {
    const h = setup({
      script: [{ tool_calls: [{ name: 'shell', input: { command: 'true' } }] }, { text: 'first' }, { text: 'second' }],
      // Keys deliberately in reverse of Codex's order.
      hooks: {
        Stop: [{ hooks: [rec('Stop')] }],
        UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }],
        PreToolUse: [{ hooks: [rec('PreToolUse')] }],
      },
      responses: { 'Stop-h.1.stdout': JSON.stringify({ decision: 'block', reason: 'again' }) },
    })
    const session = await h.kernel.startSession()
    await session.run('go')
    const path = join(h.codexHome, 'hooks.json')
    const runs = hookRuns(session.transcriptPath)
    expect(runs.map((run) => `${run.event} ${run.displayOrder}`)).toEqual(['UserPromptSubmit 1', 'PreToolUse 0', 'Stop 2', 'Stop 2'])
    expect(runs[1]!.id).toBe(`pre-tool-use:0:${path}:${runs[1]!.toolUseId}`)
    expect(textOf(h.model.requests[2]!.messages.at(-1)!)).toBe(`<hook_prompt hook_run_id="stop:2:${path}">again</hook_prompt>`)
  })
})

describe('load-time warnings at runtime (items 8–13)', () => {
  it('9, 10, 12, 13, 8: Codex’s warnings become notices; a broken hooks.json loads nothing while config.toml still runs; skipped handlers keep their index', async () => {
    const h = setup({ script: [{ text: 'ok' }] })
    const json = write(join(h.codexHome, 'hooks.json'), '{"hooks":{"Stop":[\n')
    const toml = write(
      join(h.codexHome, 'config.toml'),
      [
        'unknown_top_level = 1',
        '[[hooks.UserPromptSubmit]]',
        'matcher = "ignored"',
        '[[hooks.UserPromptSubmit.hooks]]',
        'type = "command"',
        'command = "   "',
        '[[hooks.UserPromptSubmit.hooks]]',
        'type = "prompt"',
        'prompt = "p"',
        '[[hooks.UserPromptSubmit.hooks]]',
        'type = "agent"',
        '[[hooks.UserPromptSubmit.hooks]]',
        'type = "command"',
        `command = "${RECORDER} UserPromptSubmit kept"`,
        'bogus_handler_key = true',
        '[[hooks.Stop]]',
        '[[hooks.Stop.hooks]]',
        'type = "command"',
        `command = "${RECORDER} Stop s"`,
        'additionalContextLimit = 10',
        '[[hooks.SessionEnd]]',
        '[[hooks.SessionEnd.hooks]]',
        'type = "command"',
        'command = "true"',
        'timeout = 10',
        '[[hooks.Bogus]]',
        '[[hooks.Bogus.hooks]]',
        'type = "command"',
        'command = "false"',
        '',
      ].join('\n'),
    )
    const session = await h.kernel.startSession()
    await session.run('go')
    const runs = hookRuns(session.transcriptPath)
    await session.end()
    expect(warnings(session.transcriptPath).filter((text) => !text.startsWith('Codex hook trust is bypassed'))).toEqual([
      `failed to parse hooks config ${json}: EOF while parsing a list at line 2 column 0`,
      `clamping SessionEnd hook timeout to 3s in ${toml}`,
      `skipping empty hook command in ${toml}`,
      `skipping prompt hook in ${toml}: prompt hooks are not supported yet`,
      `skipping agent hook in ${toml}: agent hooks are not supported yet`,
      `ignoring additionalContextLimit for Stop hook in ${toml}: this event cannot emit additionalContext`,
    ])
    expect(tags(h)).toEqual(['kept', 's'])
    expect(runs.map((run) => [run.key, run.displayOrder])).toEqual([
      [`${toml}:user_prompt_submit:0:3`, 1],
      [`${toml}:stop:0:0`, 2],
    ])
  })
})

describe('[features] hooks at runtime (item 14)', () => {
  it('14: hooks = false (config.toml, the codex_hooks alias, or a -c flag): no hook runs at all', async () => {
    const hooks = {
      SessionStart: [{ hooks: [rec('SessionStart')] }],
      UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit')] }],
      PreToolUse: [{ hooks: [rec('PreToolUse')] }],
      Stop: [{ hooks: [rec('Stop')] }],
      SessionEnd: [{ hooks: [rec('SessionEnd')] }],
    }
    const script = [{ tool_calls: [{ name: 'shell', input: { command: 'true' } }] }, { text: 'ok' }]
    for (const [config, sessionFlags] of [
      ['[features]\nhooks = false\n', []],
      ['[features]\ncodex_hooks = false\n', []],
      ['', ['features.hooks=false']],
    ] as const) {
      const h = setup({ script, hooks, options: { sessionFlags } })
      write(join(h.codexHome, 'config.toml'), config)
      const session = await h.kernel.startSession()
      expect((await session.run('go')).status).toBe('completed')
      await session.end()
      expect(h.calls()).toEqual([])
      expect(hookRuns(session.transcriptPath)).toEqual([])
    }
    // The control: the same setup with the feature on runs every one of them.
    const h = setup({ script, hooks })
    const session = await h.kernel.startSession()
    await session.run('go')
    await session.end()
    expect(h.calls().map((call) => call.event)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop', 'SessionEnd'])
  })
})

describe('trust at runtime (items 7, 17–22)', () => {
  /** UserPromptSubmit handlers a, (blank), b, c, d in one group of the user hooks.json. */
  const trustSetup = (options: Parameters<typeof setup>[0]['options'] = {}) => {
    const h = setup({
      script: [{ text: 'one' }, { text: 'two' }, { text: 'three' }],
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              rec('UserPromptSubmit', 'a'),
              { type: 'command', command: '  ' },
              rec('UserPromptSubmit', 'b'),
              rec('UserPromptSubmit', 'c'),
              rec('UserPromptSubmit', 'd'),
            ],
          },
        ],
      },
      options: { trust: 'codex', ...options },
    })
    const path = join(h.codexHome, 'hooks.json')
    const key = (index: number) => `${path}:user_prompt_submit:0:${index}`
    const hashes = new Map(
      loadCodexHooks({ cwd: h.cwd, codexHome: h.codexHome }).handlers.map((handler) => [handler.key, handler.currentHash]),
    )
    return { h, path, key, hash: (index: number) => hashes.get(key(index))! }
  }

  it('19, 7, 18: only trusted handlers run; untrusted and modified ones neither run nor are reported; skipped ones take no number', async () => {
    const store = new MemoryTrustStore()
    const { h, path, key, hash } = trustSetup({ trustStore: store })
    store.update({ [key(2)]: { trustedHash: hash(2) }, [key(3)]: { trustedHash: hash(3) }, [key(4)]: { trustedHash: 'sha256:0000' } })
    write(join(h.codexHome, 'config.toml'), `[hooks.state.${JSON.stringify(key(2))}]\nenabled = false\n`)
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(tags(h)).toEqual(['c'])
    // a (untrusted) and b (disabled) took display numbers 0 and 1; the blank command took none.
    expect(hookRuns(session.transcriptPath)).toEqual([
      expect.objectContaining({ id: `user-prompt-submit:2:${path}`, key: key(3), displayOrder: 2, status: 'completed' }),
    ])
    const notices = warnings(session.transcriptPath)
    expect(notices.filter((text) => text.includes(' is untrusted and will not run'))).toEqual([expect.stringContaining(key(0))])
    expect(notices.filter((text) => text.includes(' is modified and will not run'))).toEqual([expect.stringContaining(key(4))])
  })

  it('17, 19: changing the timeout un-trusts a hook (modified, not run); adding commandWindows does not', async () => {
    const store = new MemoryTrustStore()
    const { h, path, key, hash } = trustSetup({ trustStore: store })
    store.update({ [key(0)]: { trustedHash: hash(0) } })
    const first = await h.kernel.startSession()
    await first.run('go')
    expect(tags(h)).toEqual(['a'])
    const edit = (extra: Record<string, unknown>) =>
      writeFileSync(
        path,
        hooksJson({ UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', 'a', extra), { type: 'command', command: '  ' }] }] }),
      )
    edit({ timeout: 30 })
    const second = await h.kernel.startSession()
    await second.run('go')
    expect(tags(h)).toEqual(['a'])
    expect(hookRuns(second.transcriptPath)).toEqual([])
    expect(warnings(second.transcriptPath).filter((text) => text.includes('will not run'))).toEqual([
      expect.stringContaining(`${key(0)} (UserPromptSubmit: ${RECORDER} UserPromptSubmit a) is modified and will not run`),
    ])
    edit({ commandWindows: 'C:\\hooks\\a.cmd' })
    const third = await h.kernel.startSession()
    await third.run('go')
    expect(tags(h)).toEqual(['a', 'a'])
  })

  it('20: enabled = false never runs, even with the bypass; the bypass runs every other hook and warns', async () => {
    const { h, key } = trustSetup({ trust: 'all', trustStore: new MemoryTrustStore() })
    write(join(h.codexHome, 'config.toml'), `[hooks.state.${JSON.stringify(key(3))}]\nenabled = false\n`)
    const session = await h.kernel.startSession()
    await session.run('go')
    expect(tags(h).sort()).toEqual(['a', 'b', 'd'])
    expect(warnings(session.transcriptPath).filter((text) => !text.startsWith('skipping empty hook command'))).toEqual([
      expect.stringMatching(/trust is bypassed/),
    ])
  })

  it('21: state comes from the user config.toml and -c flags, field by field; a project config.toml cannot set it', async () => {
    const { h, key, hash } = trustSetup({ trustStore: false })
    write(join(h.cwd, '.git/HEAD'), 'ref: refs/heads/main\n')
    const projectHooks = write(
      join(h.cwd, '.codex/hooks.json'),
      hooksJson({ UserPromptSubmit: [{ hooks: [rec('UserPromptSubmit', 'p')] }] }),
    )
    const projectKey = `${projectHooks}:user_prompt_submit:0:0`
    const projectHash = loadCodexHooks({
      cwd: h.cwd,
      codexHome: h.codexHome,
      sessionFlags: [`projects.${JSON.stringify(h.cwd)}.trust_level="trusted"`],
    }).handlers.find((handler) => handler.key === projectKey)!.currentHash
    write(
      join(h.cwd, '.codex/config.toml'),
      `[hooks.state.${JSON.stringify(projectKey)}]\ntrusted_hash = "${projectHash}"\n[hooks.state.${JSON.stringify(key(4))}]\ntrusted_hash = "${hash(4)}"\n`,
    )
    write(
      join(h.codexHome, 'config.toml'),
      [
        `[projects.${JSON.stringify(h.cwd)}]`,
        'trust_level = "trusted"',
        `[hooks.state.${JSON.stringify(key(2))}]`,
        'enabled = false',
        `[hooks.state.${JSON.stringify(key(3))}]`,
        `trusted_hash = "${hash(3)}"`,
        'enabled = false',
        '',
      ].join('\n'),
    )
    const kernelWithFlags = createKernel(
      [
        scriptedModel({ script: [{ text: 'ok' }] }),
        tools(),
        codexHooks({
          codexHome: h.codexHome,
          trust: 'codex',
          trustStore: false,
          sessionFlags: [
            // a: trusted by a flag alone; b: the flag's hash cannot undo the user config's enabled = false; c: the flag
            // re-enables it and the user config's hash still counts.
            `hooks.state={${JSON.stringify(key(0))}={trusted_hash="${hash(0)}"},${JSON.stringify(key(2))}={trusted_hash="${hash(2)}"},${JSON.stringify(key(3))}={enabled=true}}`,
          ],
        }),
      ],
      { cwd: h.cwd },
    )
    try {
      const session = await kernelWithFlags.startSession()
      await session.run('go')
      expect(tags(h).sort()).toEqual(['a', 'c'])
    } finally {
      await kernelWithFlags.dispose()
    }
  })

  it('22: `hooks trust` into the harness store makes the hook run with trust "codex"; the --codex target only appends its table', async () => {
    const storePath = join(mkdtempSync(join(tmpdir(), 'hk-codex-store-')), 'harness-home/trust/codex.json')
    const { h, key } = trustSetup({ trustStore: new JsonFileTrustStore(storePath, 'codex') })
    const handlers = loadCodexHooks({ cwd: h.cwd, codexHome: h.codexHome }).handlers
    trustCodexHooks({
      handlers,
      keys: [key(0)],
      target: 'harness',
      trustStore: new JsonFileTrustStore(storePath, 'codex'),
      codexHome: h.codexHome,
    })
    const userConfig = '# mine\nmodel = "gpt-5.1-codex"  # keep\n'
    const configPath = write(join(h.codexHome, 'config.toml'), userConfig)
    const first = await h.kernel.startSession()
    await first.run('go')
    expect(tags(h)).toEqual(['a'])
    expect(readFileSync(configPath, 'utf8')).toBe(userConfig)

    trustCodexHooks({ handlers, keys: [key(3)], target: 'codex', codexHome: h.codexHome })
    expect(readFileSync(configPath, 'utf8')).toBe(
      `${userConfig}\n[hooks.state.${JSON.stringify(key(3))}]\ntrusted_hash = "${handlers.find((handler) => handler.key === key(3))!.currentHash}"\n`,
    )
    const second = await h.kernel.startSession()
    await second.run('go')
    expect(tags(h).slice(1).sort()).toEqual(['a', 'c'])
  })
})
