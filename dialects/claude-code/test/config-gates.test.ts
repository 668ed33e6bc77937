import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { urlMatchesPattern } from '../src/config/index.js'
import { command, commands, dropReasons, hooksOn, sandbox, write } from './fixtures/config/layout.js'

/** Writes one Stop hook named after each source (plus an optional settings key), and a plugin with one. */
function everySource(settingsBySource: Partial<Record<'managed' | 'flag' | 'local' | 'project' | 'user', Record<string, unknown>>> = {}) {
  const s = sandbox()
  const file = (name: 'managed' | 'local' | 'project' | 'user') => ({ ...hooksOn('Stop', [command(name)]), ...settingsBySource[name] })
  write(s.paths.managed, file('managed'))
  write(s.paths.local, file('local'))
  write(s.paths.project, file('project'))
  write(s.paths.user, file('user'))
  const flag = write(join(s.root, 'flag.json'), { ...hooksOn('Stop', [command('flag')]), ...settingsBySource.flag })
  const plugin = join(s.root, 'plugin')
  write(join(plugin, 'hooks', 'hooks.json'), hooksOn('Stop', [command('plugin')]))
  return { ...s, flag, load: () => s.load({ settings: [flag], plugins: [plugin] }) }
}

describe('disableAllHooks (§9 item 3)', () => {
  it('set in project settings, drops every non-managed hook and keeps the managed ones', () => {
    const s = everySource({ project: { disableAllHooks: true } })
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['managed managed'])
    const reason = `disableAllHooks is set in ${s.paths.project}`
    expect(dropReasons(loaded)).toEqual([
      `flag: ${reason}`,
      `local: ${reason}`,
      `project: ${reason}`,
      `user: ${reason}`,
      `plugin: ${reason}`,
    ])
    expect(loaded.settings.disableAllHooks).toBe(true)
    expect(loaded.warnings).toEqual([])
  })

  it('set in managed settings, drops every hook, managed ones too', () => {
    const s = everySource({ managed: { disableAllHooks: true } })
    const loaded = s.load()
    expect(loaded.handlers).toEqual([])
    const reason = `disableAllHooks is set in ${s.paths.managed}`
    expect(dropReasons(loaded)).toEqual(['managed', 'flag', 'local', 'project', 'user', 'plugin'].map((name) => `${name}: ${reason}`))
  })

  it('takes the value after precedence: managed > --settings > local > project > user', () => {
    const reasonFrom = (settings: Parameters<typeof everySource>[0]) => {
      const loaded = everySource(settings).load()
      return { disabled: loaded.settings.disableAllHooks, running: commands(loaded.handlers), reason: loaded.dropped[0]?.reason }
    }
    expect(reasonFrom({ managed: { disableAllHooks: false }, project: { disableAllHooks: true } })).toEqual({
      disabled: false,
      running: ['managed managed', 'flag flag', 'local local', 'project project', 'user user', 'plugin plugin'],
      reason: undefined,
    })
    expect(reasonFrom({ flag: { disableAllHooks: false }, local: { disableAllHooks: true } }).disabled).toBe(false)
    expect(reasonFrom({ local: { disableAllHooks: false }, project: { disableAllHooks: true } }).disabled).toBe(false)
    expect(reasonFrom({ project: { disableAllHooks: false }, user: { disableAllHooks: true } }).disabled).toBe(false)
    const fromUser = everySource({ user: { disableAllHooks: true } })
    expect(fromUser.load().dropped[0]?.reason).toBe(`disableAllHooks is set in ${fromUser.paths.user}`)
    const fromFlag = everySource({ flag: { disableAllHooks: true }, local: { disableAllHooks: false } })
    expect(fromFlag.load().dropped[0]?.reason).toBe(`disableAllHooks is set in ${fromFlag.flag}`)
  })

  it('within managed settings, a later managed-settings.d file wins', () => {
    const s = everySource({ managed: { disableAllHooks: true } })
    write(join(s.paths.managedDropIns, '10-a.json'), { disableAllHooks: false })
    const enabled = s.load()
    expect(enabled.settings.disableAllHooks).toBe(false)
    expect(enabled.dropped).toEqual([])

    const later = write(join(s.paths.managedDropIns, '20-b.json'), { disableAllHooks: true })
    const disabled = s.load()
    expect(disabled.handlers).toEqual([])
    expect(disabled.dropped[0]?.reason).toBe(`disableAllHooks is set in ${later}`)
  })

  it('ignores a value that is not a boolean, with a warning', () => {
    const s = everySource({ project: { disableAllHooks: 'yes' } })
    const loaded = s.load()
    expect(loaded.settings.disableAllHooks).toBe(false)
    expect(loaded.dropped).toEqual([])
    expect(loaded.warnings).toEqual([`${s.paths.project}: disableAllHooks must be a boolean, got a string; ignored`])
  })
})

describe('allowManagedHooksOnly (§9 item 4)', () => {
  it('in managed settings, keeps only managed hooks; plugin hooks are dropped, saying why', () => {
    const s = everySource({ managed: { allowManagedHooksOnly: true } })
    write(join(s.paths.managedDropIns, 'extra.json'), hooksOn('Stop', [command('managed-drop-in')]))
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['managed managed', 'managed managed-drop-in'])
    const reason = `allowManagedHooksOnly is set in ${s.paths.managed}: only managed hooks run`
    expect(dropReasons(loaded)).toEqual([
      `flag: ${reason}`,
      `local: ${reason}`,
      `project: ${reason}`,
      `user: ${reason}`,
      `plugin: ${reason} (the kernel cannot force-enable plugins, so plugin hooks are dropped too)`,
    ])
    expect(loaded.settings.allowManagedHooksOnly).toBe(true)
    expect(loaded.warnings).toEqual([])
  })

  it('anywhere else, is ignored with a warning, and every hook runs', () => {
    const s = everySource({
      flag: { allowManagedHooksOnly: true },
      project: { allowManagedHooksOnly: true },
      user: { allowManagedHooksOnly: true },
    })
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual([
      'managed managed',
      'flag flag',
      'local local',
      'project project',
      'user user',
      'plugin plugin',
    ])
    expect(loaded.settings.allowManagedHooksOnly).toBe(false)
    expect(loaded.warnings).toEqual(
      [s.flag, s.paths.project, s.paths.user].map((path) => `${path}: allowManagedHooksOnly counts only in managed settings; ignored`),
    )
  })

  it('still holds when the managed file has no hooks or broken hooks', () => {
    const s = everySource()
    write(s.paths.managed, { allowManagedHooksOnly: true, hooks: 'oops' })
    const loaded = s.load()
    expect(loaded.handlers).toEqual([])
    expect(loaded.dropped.map(({ handler }) => handler.source)).toEqual(['flag', 'local', 'project', 'user', 'plugin'])
    expect(loaded.sources[0]).toEqual({
      source: 'managed',
      path: s.paths.managed,
      found: true,
      error: '"hooks" must be an object of events, got a string',
    })
  })

  it('gives way to a managed disableAllHooks, whose reason is the one shown', () => {
    const s = everySource({ managed: { allowManagedHooksOnly: true, disableAllHooks: true } })
    const loaded = s.load()
    expect(loaded.handlers).toEqual([])
    expect(new Set(loaded.dropped.map(({ reason }) => reason))).toEqual(new Set([`disableAllHooks is set in ${s.paths.managed}`]))
  })
})

describe('allowedHttpHookUrls', () => {
  const http = (url: string) => ({ type: 'http', url })

  it('drops http handlers whose URL matches no pattern, naming the files that set the list (lists widened, as Claude Code does)', () => {
    const s = sandbox()
    write(s.paths.managed, { allowedHttpHookUrls: ['https://hooks.example.com/*'] })
    write(s.paths.project, {
      allowedHttpHookUrls: ['http://localhost:*'],
      ...hooksOn('PostToolUse', [
        http('https://hooks.example.com/post/1'),
        http('http://localhost:8080/hook'),
        http('https://evil.example.net/hook'),
        command('not-http'),
      ]),
    })
    const loaded = s.load({ widenManagedAllowLists: true })
    expect(loaded.handlers.map((handler) => ('url' in handler ? handler.url : handler.type))).toEqual([
      'https://hooks.example.com/post/1',
      'http://localhost:8080/hook',
      'command',
    ])
    expect(dropReasons(loaded)).toEqual([
      `http: url "https://evil.example.net/hook" does not match allowedHttpHookUrls (set in ${s.paths.managed}, ${s.paths.project})`,
    ])
    expect(loaded.settings.allowedHttpHookUrls).toEqual(['https://hooks.example.com/*', 'http://localhost:*'])
  })

  it('merges the lists of every source, deduplicated; unset everywhere means no restriction', () => {
    const s = sandbox()
    write(s.paths.user, { allowedHttpHookUrls: ['https://a/*', 'https://b/*'], ...hooksOn('Stop', [http('https://anything.example/')]) })
    write(s.paths.local, { allowedHttpHookUrls: ['https://b/*', 'https://c/*'] })
    expect(s.load({ settingSources: ['local', 'user'] }).settings.allowedHttpHookUrls).toEqual([
      'https://b/*',
      'https://c/*',
      'https://a/*',
    ])
    const unrestricted = s.load({ settingSources: ['project'] })
    expect(unrestricted.settings.allowedHttpHookUrls).toBeUndefined()
    write(s.paths.project, hooksOn('Stop', [http('https://anything.example/')]))
    expect(s.load({ settingSources: ['project'] }).dropped).toEqual([])
  })

  it('allows no http hook when the list is empty, or is not an array', () => {
    const s = sandbox()
    write(s.paths.project, { allowedHttpHookUrls: [], ...hooksOn('Stop', [http('https://a.example/')]) })
    expect(dropReasons(s.load())).toEqual([`http: url "https://a.example/" does not match allowedHttpHookUrls (set in ${s.paths.project})`])

    write(s.paths.project, { allowedHttpHookUrls: 'https://a.example/*', ...hooksOn('Stop', [http('https://a.example/')]) })
    const loaded = s.load()
    expect(loaded.handlers).toEqual([])
    expect(loaded.settings.allowedHttpHookUrls).toEqual([])
    expect(loaded.warnings).toEqual([
      `${s.paths.project}: allowedHttpHookUrls must be an array of strings, got a string; it allows nothing`,
    ])
  })

  it('matches the whole URL, literally, with * for any run of characters', () => {
    expect(urlMatchesPattern('https://hooks.example.com/a/b?c=1', 'https://hooks.example.com/*')).toBe(true)
    expect(urlMatchesPattern('https://hooks.example.com', 'https://hooks.example.com/*')).toBe(false)
    expect(urlMatchesPattern('https://hooks.example.com.evil.net/', 'https://hooks.example.com/*')).toBe(false)
    expect(urlMatchesPattern('http://localhost:8080/x', 'http://localhost:*')).toBe(true)
    expect(urlMatchesPattern('https://hooksXexample.com/', 'https://hooks.example.com/')).toBe(false)
    expect(urlMatchesPattern('https://x.com/path', 'https://x.com')).toBe(false)
    expect(urlMatchesPattern('https://api.x.com/v1/h', 'https://*.x.com/*/h')).toBe(true)
    expect(urlMatchesPattern('https://x.com/(a)+', 'https://x.com/(a)+')).toBe(true)
    expect(urlMatchesPattern('https://x.com/aa', 'https://x.com/(a)+')).toBe(false)
    expect(urlMatchesPattern('anything', '*')).toBe(true)
  })
})

describe('httpHookAllowedEnvVars', () => {
  it('intersects each http handler allowedEnvVars with the merged list (lists widened, as Claude Code does)', () => {
    const s = sandbox()
    write(s.paths.managed, { httpHookAllowedEnvVars: ['TOKEN'] })
    write(s.paths.project, {
      httpHookAllowedEnvVars: ['TEAM', 'TOKEN'],
      ...hooksOn('Stop', [
        { type: 'http', url: 'https://h.example/', allowedEnvVars: ['TOKEN', 'SECRET', 'TEAM'] },
        { type: 'http', url: 'https://h.example/2' },
      ]),
    })
    const loaded = s.load({ widenManagedAllowLists: true })
    expect(loaded.settings.httpHookAllowedEnvVars).toEqual(['TOKEN', 'TEAM'])
    expect(loaded.handlers).toMatchObject([{ allowedEnvVars: ['TOKEN', 'TEAM'] }, { allowedEnvVars: [] }])
  })

  it('leaves allowedEnvVars alone when unset', () => {
    const s = sandbox()
    write(s.paths.project, hooksOn('Stop', [{ type: 'http', url: 'https://h.example/', allowedEnvVars: ['TOKEN', 'SECRET'] }]))
    const loaded = s.load()
    expect(loaded.settings.httpHookAllowedEnvVars).toBeUndefined()
    expect(loaded.handlers).toMatchObject([{ allowedEnvVars: ['TOKEN', 'SECRET'] }])
  })

  it('drops entries that are not strings, with a warning', () => {
    const s = sandbox()
    write(s.paths.project, { httpHookAllowedEnvVars: ['TOKEN', 7] })
    const loaded = s.load()
    expect(loaded.settings.httpHookAllowedEnvVars).toEqual(['TOKEN'])
    expect(loaded.warnings).toEqual([`${s.paths.project}: httpHookAllowedEnvVars entry a number ignored; entries are strings`])
  })
})

describe('one reason per dropped handler', () => {
  it('names a gate before an unsupported event or type, and an unsupported event before a URL', () => {
    const s = sandbox()
    // Managed hooks outlive a user disableAllHooks, so their own reasons show.
    write(s.paths.managed, {
      allowedHttpHookUrls: [],
      hooks: {
        FileChanged: [{ hooks: [{ type: 'http', url: 'https://h.example/' }] }],
        Stop: [
          {
            hooks: [
              { type: 'agent', prompt: 'p' },
              { type: 'http', url: 'https://h.example/' },
            ],
          },
        ],
      },
    })
    write(s.paths.user, { disableAllHooks: true, ...hooksOn('Foo', [command('foo')]) })
    expect(dropReasons(s.load())).toEqual([
      'http: never fired: the kernel watches no files',
      'agent: handler type "agent" is not supported by the kernel',
      `http: url "https://h.example/" does not match allowedHttpHookUrls (set in ${s.paths.managed})`,
      `foo: disableAllHooks is set in ${s.paths.user}`,
    ])
  })
})
