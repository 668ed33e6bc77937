import { mkdirSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadCodexHooks } from '../src/config/load-codex-hooks.js'
import { CODEX_EVENTS } from '../src/events.js'
import { command, gitRoot, put, tempRoot, trustProject } from './fixtures/config/layout.js'

const stop = (cmd: string) => ({ hooks: { Stop: [{ hooks: [command(cmd)] }] } })
const inlineStop = (cmd: string) => `[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "${cmd}"\n`
const summary = (loaded: ReturnType<typeof loadCodexHooks>) => loaded.handlers.map((h) => `${h.displayOrder} ${h.source} ${h.command}`)

describe('discovery and layering', () => {
  it('loads $CODEX_HOME/hooks.json, defaulting CODEX_HOME to ~/.codex', () => {
    const root = tempRoot()
    put(root, 'user/.codex/hooks.json', stop('default-home'))
    put(root, 'moved/hooks.json', stop('moved-home'))
    const cwd = join(root, 'user')
    expect(summary(loadCodexHooks({ cwd, env: { HOME: join(root, 'user') } }))).toEqual(['0 user default-home'])
    expect(summary(loadCodexHooks({ cwd, env: { HOME: join(root, 'user'), CODEX_HOME: join(root, 'moved') } }))).toEqual([
      '0 user moved-home',
    ])
    expect(summary(loadCodexHooks({ cwd, codexHome: join(root, 'moved'), env: {} }))).toEqual(['0 user moved-home'])
  })

  it('names the canonical CODEX_HOME in keys and paths', () => {
    const root = tempRoot()
    const path = put(root, 'real-home/hooks.json', stop('x'))
    symlinkSync(join(root, 'real-home'), join(root, 'linked-home'))
    const [handler] = loadCodexHooks({ cwd: root, codexHome: join(root, 'linked-home') }).handlers
    expect(handler?.sourcePath).toBe(path)
    expect(handler?.key).toBe(`${path}:stop:0:0`)
  })

  it('loads inline [[hooks.<Event>]] from config.toml, under the config.toml path', () => {
    const root = tempRoot()
    const path = put(
      root,
      'home/config.toml',
      `model = "m"\n\n[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "toml"\ntimeout = 5\n`,
    )
    const loaded = loadCodexHooks({ cwd: root, codexHome: join(root, 'home') })
    expect(loaded.warnings).toEqual([])
    expect(loaded.handlers).toEqual([
      expect.objectContaining({
        key: `${path}:pre_tool_use:0:0`,
        sourcePath: path,
        matcher: 'Bash',
        command: 'toml',
        timeoutSec: 5,
        displayOrder: 0,
      }),
    ])
  })

  it('loads both hooks.json and config.toml of one layer, JSON first, with the exact warning', () => {
    const root = tempRoot()
    const json = put(root, 'home/hooks.json', stop('json'))
    const toml = put(root, 'home/config.toml', inlineStop('toml'))
    const loaded = loadCodexHooks({ cwd: root, codexHome: join(root, 'home') })
    expect(loaded.warnings).toEqual([`loading hooks from both ${json} and ${toml}; prefer a single representation for this layer`])
    expect(summary(loaded)).toEqual(['0 user json', '1 user toml'])
  })

  it('gives no both-representations warning when one side declares nothing', () => {
    const root = tempRoot()
    put(root, 'home/hooks.json', { hooks: { Stop: [] } })
    put(root, 'home/config.toml', `${inlineStop('toml')}[hooks.state."x"]\nenabled = false\n`)
    expect(loadCodexHooks({ cwd: root, codexHome: join(root, 'home') }).warnings).toEqual([])
  })

  it('orders user, project folders from the root down to cwd, session flags, then explicit files', () => {
    const root = tempRoot()
    const project = gitRoot(root, 'proj')
    const codexHome = join(root, 'home')
    put(codexHome, 'hooks.json', stop('user'))
    trustProject(codexHome, project)
    put(project, '.codex/hooks.json', stop('project-root'))
    put(project, 'a/.codex/config.toml', inlineStop('project-a'))
    put(project, 'a/b/.codex/hooks.json', stop('project-cwd'))
    const explicitJson = put(root, 'extra/hooks.json', stop('explicit-json'))
    const explicitToml = put(root, 'extra/more.toml', inlineStop('explicit-toml'))
    const loaded = loadCodexHooks({
      cwd: join(project, 'a/b'),
      codexHome,
      sessionFlags: ['hooks.Stop=[{hooks=[{type="command",command="flag"}]}]'],
      explicitFiles: [explicitJson, explicitToml],
    })
    expect(loaded.warnings).toEqual([])
    expect(summary(loaded)).toEqual([
      '0 user user',
      '1 project project-root',
      '2 project project-a',
      '3 project project-cwd',
      '4 sessionFlags flag',
      '5 explicit explicit-json',
      '6 explicit explicit-toml',
    ])
    expect(loaded.handlers.map((h) => h.key)).toEqual([
      `${codexHome}/hooks.json:stop:0:0`,
      `${project}/.codex/hooks.json:stop:0:0`,
      `${project}/a/.codex/config.toml:stop:0:0`,
      `${project}/a/b/.codex/hooks.json:stop:0:0`,
      '/<session-flags>/config.toml:stop:0:0',
      `${explicitJson}:stop:0:0`,
      `${explicitToml}:stop:0:0`,
    ])
  })

  it('does not load an untrusted project, nor one marked untrusted', () => {
    const root = tempRoot()
    const project = gitRoot(root, 'proj')
    put(project, '.codex/hooks.json', stop('project'))
    put(root, 'home/hooks.json', stop('user'))
    expect(summary(loadCodexHooks({ cwd: project, codexHome: join(root, 'home') }))).toEqual(['0 user user'])
    put(root, 'home/config.toml', `[projects.${JSON.stringify(project)}]\ntrust_level = "untrusted"\n`)
    expect(summary(loadCodexHooks({ cwd: project, codexHome: join(root, 'home') }))).toEqual(['0 user user'])
  })

  it('decides trust per folder: its own entry, else the project root, else the repository root', () => {
    const root = tempRoot()
    const project = gitRoot(root, 'proj')
    const codexHome = join(root, 'home')
    for (const rel of ['', '/a', '/a/b']) put(project, `${rel}/.codex/hooks.json`, stop(`p${rel}`))
    trustProject(codexHome, join(project, 'a'))
    expect(summary(loadCodexHooks({ cwd: join(project, 'a/b'), codexHome }))).toEqual(['0 project p/a'])
    trustProject(codexHome, join(project, 'a/b'))
    expect(summary(loadCodexHooks({ cwd: join(project, 'a/b'), codexHome }))).toEqual(['0 project p/a/b'])
    trustProject(codexHome, project)
    expect(summary(loadCodexHooks({ cwd: join(project, 'a/b'), codexHome }))).toEqual(['0 project p', '1 project p/a', '2 project p/a/b'])
  })

  it('takes cwd as the project root when no ancestor has a .git that Codex recognizes', () => {
    const root = tempRoot()
    const codexHome = join(root, 'home')
    mkdirSync(join(root, 'proj/.git'), { recursive: true }) // an empty .git directory does not count
    for (const rel of ['', '/a']) put(root, `proj${rel}/.codex/hooks.json`, stop(`p${rel}`))
    trustProject(codexHome, join(root, 'proj'))
    expect(summary(loadCodexHooks({ cwd: join(root, 'proj/a'), codexHome }))).toEqual([])
    trustProject(codexHome, join(root, 'proj/a'))
    expect(summary(loadCodexHooks({ cwd: join(root, 'proj/a'), codexHome }))).toEqual(['0 project p/a'])
    rmSync(join(root, 'proj/.git'), { recursive: true })
    put(root, 'proj/.git', 'gitdir: /elsewhere\n') // a .git file, as in a worktree
    trustProject(codexHome, join(root, 'proj'))
    expect(summary(loadCodexHooks({ cwd: join(root, 'proj/a'), codexHome }))).toEqual(['0 project p', '1 project p/a'])
  })

  it('honours project_root_markers', () => {
    const root = tempRoot()
    const codexHome = join(root, 'home')
    mkdirSync(join(root, 'proj/.hg'), { recursive: true })
    for (const rel of ['', '/a']) put(root, `proj${rel}/.codex/hooks.json`, stop(`p${rel}`))
    trustProject(codexHome, join(root, 'proj'), 'project_root_markers = [".hg"]\n')
    expect(summary(loadCodexHooks({ cwd: join(root, 'proj/a'), codexHome }))).toEqual(['0 project p', '1 project p/a'])
  })

  it('does not load CODEX_HOME twice when it is the .codex of a project folder', () => {
    const root = tempRoot()
    const project = gitRoot(root, 'w')
    const codexHome = join(project, '.codex')
    put(codexHome, 'hooks.json', stop('user'))
    trustProject(codexHome, project)
    expect(summary(loadCodexHooks({ cwd: project, codexHome }))).toEqual(['0 user user'])
  })

  it('numbers events in the fixed order, whatever the file order: preModelRequest 0 … stop 11', () => {
    const root = tempRoot()
    const events = CODEX_EVENTS.filter((e) => e !== 'SessionEnd' && e !== 'Interrupt').reverse()
    put(root, 'home/hooks.json', { hooks: Object.fromEntries(events.map((e) => [e, [{ hooks: [command(e)] }]])) })
    const loaded = loadCodexHooks({ cwd: root, codexHome: join(root, 'home') })
    expect(loaded.handlers.map((h) => `${h.event} ${h.displayOrder}`)).toEqual([
      'PreModelRequest 0',
      'PostModelRequest 1',
      'PreToolUse 2',
      'PermissionRequest 3',
      'PostToolUse 4',
      'PreCompact 5',
      'PostCompact 6',
      'SessionStart 7',
      'UserPromptSubmit 8',
      'SubagentStart 9',
      'SubagentStop 10',
      'Stop 11',
    ])
  })

  it('numbers untrusted and disabled handlers, but not skipped ones', () => {
    const root = tempRoot()
    const path = put(root, 'home/hooks.json', {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [command('a'), command(' '), { type: 'prompt', prompt: 'p' }, command('b')] },
          { matcher: '[', hooks: [command('in-invalid-group')] },
          { matcher: 'Edit', hooks: [{ type: 'agent' }, command('c')] },
        ],
      },
    })
    put(root, 'home/config.toml', `[hooks.state."${path}:pre_tool_use:0:3"]\nenabled = false\n`)
    const loaded = loadCodexHooks({ cwd: root, codexHome: join(root, 'home') })
    expect(loaded.handlers.map((h) => [h.key.slice(path.length), h.displayOrder, h.enabled, h.trustStatus])).toEqual([
      [':pre_tool_use:0:0', 0, true, 'untrusted'],
      [':pre_tool_use:0:3', 1, false, 'untrusted'],
      [':pre_tool_use:2:1', 2, true, 'untrusted'],
    ])
  })

  it('reports a broken config.toml and loads the rest (Codex would refuse to start)', () => {
    const root = tempRoot()
    const path = put(root, 'home/config.toml', 'model = "m"\n[hooks\n')
    put(root, 'home/hooks.json', stop('json'))
    const loaded = loadCodexHooks({ cwd: root, codexHome: join(root, 'home') })
    expect(loaded.warnings).toEqual([expect.stringMatching(new RegExp(`^failed to parse config ${path}:2:\\d+: Invalid TOML document`))])
    expect(summary(loaded)).toEqual(['0 user json'])
  })

  it('reports a [hooks] table of the wrong shape and drops only that table', () => {
    const root = tempRoot()
    const path = put(root, 'home/config.toml', '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ncommand = "no type"\n')
    put(root, 'home/hooks.json', stop('json'))
    const loaded = loadCodexHooks({ cwd: root, codexHome: join(root, 'home') })
    expect(loaded.warnings).toEqual([`failed to parse TOML hooks in ${path}: missing field \`type\``])
    expect(summary(loaded)).toEqual(['0 user json'])
  })

  it('reports a missing explicit file', () => {
    const root = tempRoot()
    const loaded = loadCodexHooks({ cwd: root, codexHome: join(root, 'home'), explicitFiles: ['nope.json'] })
    expect(loaded.warnings).toEqual([`failed to read hooks config ${join(root, 'nope.json')}: No such file or directory (os error 2)`])
  })
})

describe('managed requirements', () => {
  it('loads requirements.toml [hooks] first, managed and always enabled', () => {
    const root = tempRoot()
    const requirements = put(root, 'etc/requirements.toml', `[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "managed"\n`)
    put(root, 'home/hooks.json', stop('user'))
    put(root, 'home/config.toml', `[hooks.state."${requirements}:stop:0:0"]\nenabled = false\ntrusted_hash = "sha256:0"\n`)
    const loaded = loadCodexHooks({ cwd: root, codexHome: join(root, 'home'), managedRequirementsPath: requirements })
    expect(summary(loaded)).toEqual(['0 managed managed', '1 user user'])
    expect(loaded.handlers[0]).toMatchObject({ key: `${requirements}:stop:0:0`, trustStatus: 'managed', enabled: true })
  })

  it('keys managed hooks by managed_dir when it is absolute', () => {
    const root = tempRoot()
    const managedDir = join(root, 'managed-hooks')
    const requirements = put(
      root,
      'etc/requirements.toml',
      `[hooks]\nmanaged_dir = "${managedDir}"\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "m"\n`,
    )
    const loaded = loadCodexHooks({ cwd: root, codexHome: join(root, 'home'), managedRequirementsPath: requirements })
    expect(loaded.handlers.map((h) => h.key)).toEqual([`${managedDir}:stop:0:0`])
  })

  it('drops every other source with allow_managed_hooks_only', () => {
    const root = tempRoot()
    const requirements = put(
      root,
      'etc/requirements.toml',
      `allow_managed_hooks_only = true\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "m"\n`,
    )
    put(root, 'home/hooks.json', stop('user'))
    const loaded = loadCodexHooks({
      cwd: root,
      codexHome: join(root, 'home'),
      managedRequirementsPath: requirements,
      sessionFlags: ['hooks.Stop=[{hooks=[{type="command",command="flag"}]}]'],
      explicitFiles: [put(root, 'x.json', stop('explicit'))],
    })
    expect(summary(loaded)).toEqual(['0 managed m'])
  })
})

describe('[features] hooks', () => {
  const featureEnabled = (config: string, extra: { sessionFlags?: string[] } = {}) => {
    const root = tempRoot()
    put(root, 'home/config.toml', config)
    return loadCodexHooks({ cwd: root, codexHome: join(root, 'home'), ...extra }).featureEnabled
  }

  it('is on by default and off with hooks = false or the codex_hooks alias', () => {
    expect(featureEnabled('')).toBe(true)
    expect(featureEnabled('[features]\nhooks = false\n')).toBe(false)
    expect(featureEnabled('[features]\ncodex_hooks = false\n')).toBe(false)
    expect(featureEnabled('[features]\ncodex_hooks = false\nhooks = true\n')).toBe(true)
  })

  it('follows the effective config: session flags and trusted projects, not untrusted ones', () => {
    expect(featureEnabled('', { sessionFlags: ['features.hooks=false'] })).toBe(false)
    expect(featureEnabled('[features]\nhooks = false\n', { sessionFlags: ['features.hooks=true'] })).toBe(true)
    const root = tempRoot()
    const project = gitRoot(root, 'p')
    put(project, '.codex/config.toml', '[features]\nhooks = false\n')
    const codexHome = join(root, 'home')
    expect(loadCodexHooks({ cwd: project, codexHome }).featureEnabled).toBe(true)
    trustProject(codexHome, project)
    expect(loadCodexHooks({ cwd: project, codexHome }).featureEnabled).toBe(false)
  })
})
