import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pluginDataDir } from '../src/config/index.js'
import { command, commands, hooksOn, sandbox, write } from './fixtures/config/layout.js'

/** The command as configured: `${CLAUDE_PLUGIN_ROOT}` stays for the shell to expand. */
const FORMAT_SH = `\${CLAUDE_PLUGIN_ROOT}/format.sh`

describe('plugin hooks load, with their root and data dirs (§9 item 2)', () => {
  it('loads hooks/hooks.json after every settings file, named by .claude-plugin/plugin.json', () => {
    const s = sandbox()
    const root = join(s.root, 'plugins', 'formatter-dir')
    write(join(root, '.claude-plugin', 'plugin.json'), { name: 'formatter', version: '1.0.0' })
    const hooksPath = write(join(root, 'hooks', 'hooks.json'), {
      description: 'Formats after edits',
      hooks: {
        PostToolUse: [{ matcher: 'Edit|Write', hooks: [command(FORMAT_SH)] }],
        SessionStart: [{ hooks: [command('setup')] }],
      },
    })
    write(s.paths.user, hooksOn('Stop', [command('user')]))

    const loaded = s.load({ plugins: [root] })

    expect(commands(loaded.handlers)).toEqual(['user user', `plugin ${FORMAT_SH}`, 'plugin setup'])
    const plugin = { name: 'formatter', root, data: join(s.configDir, 'plugins', 'data', 'formatter-inline') }
    expect(loaded.handlers[1]).toMatchObject({
      key: `${hooksPath}:PostToolUse:0:0`,
      source: 'plugin',
      sourcePath: hooksPath,
      matcher: 'Edit|Write',
      plugin,
    })
    expect(loaded.handlers[2]?.plugin).toEqual(plugin)
    expect(loaded.handlers[0]).not.toHaveProperty('plugin')
    expect(loaded.sources.at(-1)).toEqual({ source: 'plugin', path: hooksPath, found: true })
    expect(loaded.warnings).toEqual([])
  })

  it('names a plugin after its directory without a manifest name, and resolves a relative dir against the project', () => {
    const s = sandbox()
    const root = join(s.projectDir, 'tools', 'my.plugin')
    write(join(root, 'hooks', 'hooks.json'), hooksOn('Stop', [command('stop')]))
    const loaded = s.load({ plugins: [relative(s.projectDir, root)] })
    expect(loaded.handlers[0]?.plugin).toEqual({ name: 'my.plugin', root, data: join(s.configDir, 'plugins', 'data', 'my-plugin-inline') })
    expect(loaded.warnings).toEqual([])
  })

  it('warns about an unusable manifest and falls back to the directory name', () => {
    const s = sandbox()
    const broken = join(s.root, 'broken')
    const brokenManifest = write(join(broken, '.claude-plugin', 'plugin.json'), '{"name": ')
    write(join(broken, 'hooks', 'hooks.json'), hooksOn('Stop', [command('a')]))
    const nameless = join(s.root, 'nameless')
    const namelessManifest = write(join(nameless, '.claude-plugin', 'plugin.json'), { name: 42 })
    write(join(nameless, 'hooks', 'hooks.json'), hooksOn('Stop', [command('b')]))

    const loaded = s.load({ plugins: [broken, nameless] })

    expect(loaded.handlers.map((handler) => handler.plugin?.name)).toEqual(['broken', 'nameless'])
    expect(loaded.warnings).toEqual([
      `${brokenManifest}: invalid JSON at line 1, column 10: expected a value, found the end of the file; the plugin is named "broken" after its directory`,
      `${namelessManifest}: no "name" string; the plugin is named "nameless" after its directory`,
    ])
  })

  it('takes a plugin without hooks/hooks.json as one without hooks, and warns about a directory that does not exist', () => {
    const s = sandbox()
    const noHooks = join(s.root, 'no-hooks')
    write(join(noHooks, '.claude-plugin', 'plugin.json'), { name: 'no-hooks' })
    const missing = join(s.root, 'missing')
    const loaded = s.load({ plugins: [noHooks, missing] })
    expect(loaded.handlers).toEqual([])
    expect(loaded.sources.slice(-2)).toEqual([
      { source: 'plugin', path: join(noHooks, 'hooks', 'hooks.json'), found: false },
      { source: 'plugin', path: join(missing, 'hooks', 'hooks.json'), found: false },
    ])
    expect(loaded.warnings).toEqual([`plugin directory ${missing} does not exist`])
  })

  it('reports a hooks.json without a "hooks" object, or with bad JSON, and still loads the other plugins', () => {
    const s = sandbox()
    const bare = join(s.root, 'bare')
    const barePath = write(join(bare, 'hooks', 'hooks.json'), { Stop: [{ hooks: [command('bare')] }] })
    const bad = join(s.root, 'bad')
    const badPath = write(join(bad, 'hooks', 'hooks.json'), '{"hooks": {}} trailing')
    const good = join(s.root, 'good')
    write(join(good, 'hooks', 'hooks.json'), hooksOn('Stop', [command('good')]))

    const loaded = s.load({ plugins: [bare, bad, good] })

    expect(commands(loaded.handlers)).toEqual(['plugin good'])
    expect(loaded.sources.slice(-3)).toEqual([
      { source: 'plugin', path: barePath, found: true, error: 'no "hooks" object' },
      {
        source: 'plugin',
        path: badPath,
        found: true,
        error: 'invalid JSON at line 1, column 15: expected the end of the file after the value, found "t"',
      },
      { source: 'plugin', path: join(good, 'hooks', 'hooks.json'), found: true },
    ])
    expect(loaded.warnings).toEqual([
      `${barePath}: no "hooks" object; its hooks are skipped`,
      `${badPath}: invalid JSON at line 1, column 15: expected the end of the file after the value, found "t"; its hooks are skipped`,
    ])
  })

  it('gives each copy of the same plugin hook its own handler', () => {
    const s = sandbox()
    const a = join(s.root, 'a')
    const b = join(s.root, 'b')
    write(join(a, 'hooks', 'hooks.json'), hooksOn('Stop', [command('same.sh')]))
    write(join(b, 'hooks', 'hooks.json'), hooksOn('Stop', [command('same.sh')]))
    expect(s.load({ plugins: [a, b] }).handlers.map((handler) => handler.plugin?.name)).toEqual(['a', 'b'])
  })
})

describe('pluginDataDir', () => {
  it('is <config dir>/plugins/data/<name>@inline with every character outside [A-Za-z0-9_-] replaced by -', () => {
    expect(pluginDataDir('/home/u/.claude', 'formatter')).toBe('/home/u/.claude/plugins/data/formatter-inline')
    expect(pluginDataDir('/c', 'my_plugin-2')).toBe('/c/plugins/data/my_plugin-2-inline')
    expect(pluginDataDir('/c', '@scope/pkg v2')).toBe('/c/plugins/data/-scope-pkg-v2-inline')
  })
})
