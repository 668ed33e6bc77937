import { mkdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadClaudeCodeHooks } from '../src/config/index.js'
import { command, commands, hooksOn, sandbox, tempRoot, write } from './fixtures/config/layout.js'

describe('sources are concatenated (§9 item 1)', () => {
  it('loads managed, --settings, local, project and user hooks, all of them, in that order', () => {
    const s = sandbox()
    write(s.paths.user, hooksOn('Stop', [command('user-stop')]))
    write(s.paths.project, {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [command('project-pre-1'), command('project-pre-2')] },
          { hooks: [command('project-pre-3')] },
        ],
        Stop: [{ hooks: [command('project-stop')] }],
      },
    })
    write(s.paths.local, hooksOn('Stop', [command('local-stop')]))
    write(s.paths.managed, hooksOn('Stop', [command('managed-stop')]))
    const flagFile = write(join(s.root, 'flag.json'), hooksOn('Stop', [command('flag-stop')]))

    const loaded = s.load({ settings: [flagFile] })

    expect(commands(loaded.handlers)).toEqual([
      'managed managed-stop',
      'flag flag-stop',
      'local local-stop',
      'project project-pre-1',
      'project project-pre-2',
      'project project-pre-3',
      'project project-stop',
      'user user-stop',
    ])
    expect(loaded.handlers.map((handler) => handler.key)).toEqual([
      `${s.paths.managed}:Stop:0:0`,
      `${flagFile}:Stop:0:0`,
      `${s.paths.local}:Stop:0:0`,
      `${s.paths.project}:PreToolUse:0:0`,
      `${s.paths.project}:PreToolUse:0:1`,
      `${s.paths.project}:PreToolUse:1:0`,
      `${s.paths.project}:Stop:0:0`,
      `${s.paths.user}:Stop:0:0`,
    ])
    expect(loaded.dropped).toEqual([])
    expect(loaded.warnings).toEqual([])
    expect(loaded.sources).toEqual([
      { source: 'managed', path: s.paths.managed, found: true },
      { source: 'flag', path: flagFile, found: true },
      { source: 'local', path: s.paths.local, found: true },
      { source: 'project', path: s.paths.project, found: true },
      { source: 'user', path: s.paths.user, found: true },
    ])
  })

  it('keeps the same command from two sources and two groups: dedup is per invocation, not here', () => {
    const s = sandbox()
    write(s.paths.project, { hooks: { Stop: [{ hooks: [command('same.sh')] }, { hooks: [command('same.sh')] }] } })
    write(s.paths.user, hooksOn('Stop', [command('same.sh')]))
    expect(commands(s.load().handlers)).toEqual(['project same.sh', 'project same.sh', 'user same.sh'])
  })

  it('reads the user file from ~/.claude by default, from $CLAUDE_CONFIG_DIR when set, and from configDir above both', () => {
    const root = tempRoot()
    const projectDir = join(root, 'project')
    mkdirSync(projectDir)
    const home = join(root, 'home')
    const defaultUser = write(join(home, '.claude', 'settings.json'), hooksOn('Stop', [command('home-user')]))
    const movedUser = write(join(root, 'moved', 'settings.json'), hooksOn('Stop', [command('moved-user')]))
    write(join(root, 'explicit', 'settings.json'), hooksOn('Stop', [command('explicit-user')]))
    const load = (env: NodeJS.ProcessEnv, configDir?: string) =>
      loadClaudeCodeHooks({ projectDir, managedSettingsPath: false, env, ...(configDir && { configDir }) })

    const byDefault = load({ HOME: home })
    expect(commands(byDefault.handlers)).toEqual(['user home-user'])
    expect(byDefault.handlers[0]?.sourcePath).toBe(defaultUser)

    const moved = load({ HOME: home, CLAUDE_CONFIG_DIR: join(root, 'moved') })
    expect(commands(moved.handlers)).toEqual(['user moved-user'])
    expect(moved.handlers[0]?.sourcePath).toBe(movedUser)

    expect(commands(load({ HOME: home, CLAUDE_CONFIG_DIR: join(root, 'moved') }, join(root, 'explicit')).handlers)).toEqual([
      'user explicit-user',
    ])
  })
})

describe('which files are read', () => {
  it('reads only the chosen settingSources, but always managed and --settings', () => {
    const s = sandbox()
    write(s.paths.user, hooksOn('Stop', [command('user')]))
    write(s.paths.project, hooksOn('Stop', [command('project')]))
    write(s.paths.local, hooksOn('Stop', [command('local')]))
    write(s.paths.managed, hooksOn('Stop', [command('managed')]))
    const loaded = s.load({
      settingSources: ['project'],
      settings: ['{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"flag"}]}]}}'],
    })
    expect(commands(loaded.handlers)).toEqual(['managed managed', 'flag flag', 'project project'])
    expect(loaded.sources.map((report) => report.source)).toEqual(['managed', 'flag', 'project'])
    expect(commands(s.load({ settingSources: [] }).handlers)).toEqual(['managed managed'])
  })

  it('reports missing files as not found, without warnings', () => {
    const s = sandbox()
    const loaded = s.load()
    expect(loaded.handlers).toEqual([])
    expect(loaded.warnings).toEqual([])
    expect(loaded.sources).toEqual([
      { source: 'managed', path: s.paths.managed, found: false },
      { source: 'local', path: s.paths.local, found: false },
      { source: 'project', path: s.paths.project, found: false },
      { source: 'user', path: s.paths.user, found: false },
    ])
  })

  it('reads no managed settings with managedSettingsPath: false', () => {
    const s = sandbox()
    write(s.paths.managed, hooksOn('Stop', [command('managed')]))
    const loaded = s.load({ managedSettingsPath: false })
    expect(loaded.handlers).toEqual([])
    expect(loaded.sources.map((report) => report.source)).toEqual(['local', 'project', 'user'])
  })

  it('reads `permissions` beside the hooks (an untrusted project allows nothing) and ignores the other keys', () => {
    const s = sandbox()
    write(s.paths.project, {
      $schema: 'https://json.schemastore.org/claude-code-settings.json',
      permissions: { allow: ['Bash(npm test)'] },
      env: { FOO: '1' },
      model: 'opus',
      ...hooksOn('Stop', [command('stop')]),
    })
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['project stop'])
    expect(loaded.permissions.rules).toEqual([])
    expect(loaded.warnings).toEqual([
      expect.stringMatching(/^Ignoring 1 permissions\.allow entry from \.claude\/settings\.json: this workspace has not been trusted\./),
    ])
  })

  it('returns the project dir resolved to an absolute path', () => {
    const s = sandbox()
    write(s.paths.project, hooksOn('Stop', [command('stop')]))
    const loaded = s.load({ projectDir: relative(process.cwd(), s.projectDir) })
    expect(loaded.projectDir).toBe(s.projectDir)
    expect(loaded.handlers[0]?.sourcePath).toBe(s.paths.project)
  })
})

describe('managed-settings.d', () => {
  it('loads the base file, then every *.json drop-in sorted by name, skipping hidden and other files', () => {
    const s = sandbox()
    write(s.paths.managed, hooksOn('Stop', [command('base')]))
    const b = write(join(s.paths.managedDropIns, '20-b.json'), hooksOn('Stop', [command('20-b')]))
    const a = write(join(s.paths.managedDropIns, '10-a.json'), hooksOn('Stop', [command('10-a')]))
    const c = write(join(s.paths.managedDropIns, '9-c.json'), hooksOn('Stop', [command('9-c')]))
    write(join(s.paths.managedDropIns, '.00-hidden.json'), hooksOn('Stop', [command('hidden')]))
    write(join(s.paths.managedDropIns, '05-notes.txt'), hooksOn('Stop', [command('txt')]))
    write(s.paths.project, hooksOn('Stop', [command('project')]))

    const loaded = s.load()

    expect(commands(loaded.handlers)).toEqual(['managed base', 'managed 10-a', 'managed 20-b', 'managed 9-c', 'project project'])
    expect(loaded.sources.slice(0, 4)).toEqual([
      { source: 'managed', path: s.paths.managed, found: true },
      { source: 'managed', path: a, found: true },
      { source: 'managed', path: b, found: true },
      { source: 'managed', path: c, found: true },
    ])
    expect(loaded.handlers[1]?.key).toBe(`${a}:Stop:0:0`)
  })

  it('loads drop-ins when the base file is absent', () => {
    const s = sandbox()
    write(join(s.paths.managedDropIns, 'only.json'), hooksOn('Stop', [command('drop-in')]))
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['managed drop-in'])
    expect(loaded.sources[0]).toEqual({ source: 'managed', path: s.paths.managed, found: false })
  })
})

describe('--settings', () => {
  it('takes inline JSON, named <--settings #N>, and files relative to the project dir, in the order given', () => {
    const s = sandbox()
    const file = write(join(s.projectDir, 'conf', 'extra.json'), hooksOn('Stop', [command('from-file')]))
    const inline = JSON.stringify(hooksOn('PreToolUse', [command('inline')], 'Bash'))
    const loaded = s.load({ settings: [`  ${inline}`, 'conf/extra.json', inline] })

    expect(commands(loaded.handlers)).toEqual(['flag inline', 'flag from-file', 'flag inline'])
    expect(loaded.handlers.map((handler) => handler.key)).toEqual([
      '<--settings #1>:PreToolUse:0:0',
      `${file}:Stop:0:0`,
      '<--settings #3>:PreToolUse:0:0',
    ])
    expect(loaded.handlers[0]).toMatchObject({ sourcePath: '<--settings #1>', matcher: 'Bash', source: 'flag' })
    expect(loaded.sources.filter((report) => report.source === 'flag')).toEqual([
      { source: 'flag', path: '<--settings #1>', found: true },
      { source: 'flag', path: file, found: true },
      { source: 'flag', path: '<--settings #3>', found: true },
    ])
  })

  it('warns about a --settings file that does not exist, and still loads the rest', () => {
    const s = sandbox()
    write(s.paths.project, hooksOn('Stop', [command('project')]))
    const loaded = s.load({ settings: ['missing.json'] })
    const missing = join(s.projectDir, 'missing.json')
    expect(loaded.sources[1]).toEqual({ source: 'flag', path: missing, found: false })
    expect(loaded.warnings).toEqual([`--settings file ${missing} does not exist`])
    expect(commands(loaded.handlers)).toEqual(['project project'])
  })

  it('reports bad inline JSON under its <--settings #N> name', () => {
    const s = sandbox()
    const loaded = s.load({ settings: ['{"hooks": '] })
    expect(loaded.sources[1]).toMatchObject({ source: 'flag', path: '<--settings #1>', found: true })
    expect(loaded.sources[1]?.error).toBe('invalid JSON at line 1, column 11: expected a value, found the end of the file')
    expect(loaded.warnings).toEqual([
      '<--settings #1>: invalid JSON at line 1, column 11: expected a value, found the end of the file; its hooks are skipped',
    ])
  })
})
