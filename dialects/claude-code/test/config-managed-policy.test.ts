import { mkdirSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { command, commands, dropReasons, hooksOn, sandbox, write } from './fixtures/config/layout.js'

/*
 * What the real Claude Code 2.1.332 (native binary of @anthropic-ai/claude-agent-sdk 0.3.332) did, `claude -p` offline
 * against a fake Messages API, with a real /etc/claude-code/managed-settings.json and a project UserPromptSubmit and
 * PreToolUse command hook writing a marker (run count in brackets):
 * - managed file not JSON, saying `{"allowManagedHooksOnly": true,` [3, and 1 with --debug], not JSON and saying
 *   something else [2], a JSON array [2], a drop-in `managed-settings.d/50-x.json` not JSON beside a valid base [2]:
 *   exit 1 before any model request, no hook ran; stderr `<file>: Managed settings document could not be parsed as a
 *   JSON object; none of its settings are in effect. Fix or remove it.` (the --debug log added nothing about it).
 * - managed-settings.json a directory (EISDIR) [2]: exit 1, "Unable to read managed policy settings. … Detail: <file>:
 *   Settings file could not be read: EISDIR …".
 * - an empty managed file [2]: no settings, the project hooks ran, nothing on stderr.
 * - `allowManagedHooksOnly: "yes"` [2], `: 1` [2], `"yes"` in a drop-in [2]: the session ran, the project hooks did not;
 *   stderr "was present but invalid; treating it as true (its restrictive value) until it is fixed".
 * - `disableAllHooks: "yes"` [2]: ignored ("Failed schema validation. This field was ignored."), the hooks ran.
 * - `hooks: "oops"` [2]: the field ignored, the project hooks ran.
 * - `allowedHttpHookUrls: "http://x/*"` [2]: "enforcing an empty allowlist (no HTTP hooks may run)".
 * - managed `allowedHttpHookUrls: [".../managed*"]`, `httpHookAllowedEnvVars: ["MANAGED_VAR"]`, and a project adding
 *   `.../project*` and `PROJECT_VAR` to the same keys, two project http UserPromptSubmit hooks with headers
 *   `$MANAGED_VAR`/`$PROJECT_VAR` and `allowedEnvVars` naming both [3]: both URLs were called and both variables sent.
 *   The lists concatenate. Controls: managed lists alone [1] (only the managed URL, PROJECT_VAR empty), no managed
 *   file [1] (both), project lists alone [1] (only the project URL, MANAGED_VAR empty).
 */

/** A managed hook in a valid drop-in, and one hook in each of the project, user and flag sources, and a plugin. */
function managedAndOthers() {
  const s = sandbox()
  const dropIn = write(join(s.paths.managedDropIns, '10-audit.json'), hooksOn('Stop', [command('managed-audit')]))
  write(s.paths.project, hooksOn('Stop', [command('project')]))
  write(s.paths.user, hooksOn('Stop', [command('user')]))
  const flag = write(join(s.root, 'flag.json'), hooksOn('Stop', [command('flag')]))
  const plugin = join(s.root, 'plugin')
  write(join(plugin, 'hooks', 'hooks.json'), hooksOn('Stop', [command('plugin')]))
  return { ...s, dropIn, load: () => s.load({ settings: [flag], plugins: [plugin] }) }
}

const unusableReason = (path: string, cause: string) =>
  `managed settings ${path} cannot be used (${cause}), so its policy is unknown: only managed hooks run until it is fixed or removed`
const unusableWarning = (path: string, cause: string) =>
  `${path}: managed settings cannot be used: ${cause}. Only managed hooks run until it is fixed or removed (Claude Code refuses to start with it)`

describe('a managed settings file that exists but cannot be used fails closed', () => {
  it('not JSON: only the hooks of usable managed files run, and every other hook is dropped naming the file and the cause', () => {
    const s = managedAndOthers()
    write(s.paths.managed, '{"allowManagedHooksOnly": true,\n')
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['managed managed-audit'])
    const cause = `invalid JSON at line 2, column 1: expected a property name in double quotes, found the end of the file`
    expect(dropReasons(loaded)).toEqual(
      ['flag', 'project', 'user', 'plugin'].map((name) => `${name}: ${unusableReason(s.paths.managed, cause)}`),
    )
    expect(loaded.warnings).toEqual([unusableWarning(s.paths.managed, cause)])
    expect(loaded.sources[0]).toEqual({ source: 'managed', path: s.paths.managed, found: true, error: cause })
  })

  it('a JSON value that is not an object fails the same way', () => {
    const s = managedAndOthers()
    write(s.paths.managed, '[]')
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['managed managed-audit'])
    expect(new Set(loaded.dropped.map(({ reason }) => reason))).toEqual(
      new Set([unusableReason(s.paths.managed, 'the top level must be a JSON object, got an array')]),
    )
  })

  it('a managed-settings.d drop-in that is not JSON fails the same way, naming the drop-in', () => {
    const s = managedAndOthers()
    write(s.paths.managed, hooksOn('Stop', [command('managed-base')]))
    const broken = write(join(s.paths.managedDropIns, '50-broken.json'), '{')
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['managed managed-base', 'managed managed-audit'])
    const cause = 'invalid JSON at line 1, column 2: expected a property name in double quotes, found the end of the file'
    expect(loaded.dropped.map(({ reason }) => reason)).toEqual(Array(4).fill(unusableReason(broken, cause)))
    expect(loaded.warnings).toEqual([unusableWarning(broken, cause)])
  })

  it('a managed file that cannot be read (here a directory) fails the same way', () => {
    const s = managedAndOthers()
    mkdirSync(s.paths.managed, { recursive: true })
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['managed managed-audit'])
    expect(loaded.dropped).toHaveLength(4)
    expect(loaded.dropped[0]?.reason).toMatch(new RegExp(`^managed settings ${s.paths.managed} cannot be used \\(cannot read: EISDIR`))
  })

  it('a managed-settings.d that exists but cannot be listed (here a symlink loop) fails the same way, naming the folder', () => {
    const s = managedAndOthers()
    write(s.paths.managed, hooksOn('Stop', [command('managed-base')]))
    rmSync(s.paths.managedDropIns, { recursive: true })
    symlinkSync(s.paths.managedDropIns, s.paths.managedDropIns)
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['managed managed-base'])
    expect(loaded.dropped).toHaveLength(4)
    expect(loaded.dropped[0]?.reason).toMatch(
      new RegExp(`^managed settings ${s.paths.managedDropIns} cannot be used \\(cannot list: ELOOP`),
    )
    expect(loaded.warnings).toEqual([
      expect.stringMatching(new RegExp(`^${s.paths.managedDropIns}: managed settings cannot be used: cannot list: ELOOP`)),
    ])
  })

  it('a missing managed file, an empty one, or one whose hooks are broken is no policy failure', () => {
    const s = managedAndOthers()
    const everyHook = ['managed managed-audit', 'flag flag', 'project project', 'user user', 'plugin plugin']
    expect(commands(s.load().handlers)).toEqual(everyHook)
    expect(s.load().warnings).toEqual([])
    write(s.paths.managed, '')
    expect(commands(s.load().handlers)).toEqual(everyHook)
    write(s.paths.managed, { hooks: 'oops' })
    const brokenHooks = s.load()
    expect(commands(brokenHooks.handlers)).toEqual(everyHook)
    expect(brokenHooks.warnings).toEqual([`${s.paths.managed}: "hooks" must be an object of events, got a string; its hooks are skipped`])
  })
})

describe('a managed allowManagedHooksOnly that is not a boolean counts as true', () => {
  it('keeps only managed hooks, saying why', () => {
    const s = managedAndOthers()
    write(s.paths.managed, { allowManagedHooksOnly: 'yes' })
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['managed managed-audit'])
    const reason = `allowManagedHooksOnly in ${s.paths.managed} is a string, not a boolean, so it counts as true (its restrictive value): only managed hooks run`
    expect(dropReasons(loaded)).toEqual([
      `flag: ${reason}`,
      `project: ${reason}`,
      `user: ${reason}`,
      `plugin: ${reason} (the kernel cannot force-enable plugins, so plugin hooks are dropped too)`,
    ])
    expect(loaded.settings.allowManagedHooksOnly).toBe(true)
    expect(loaded.warnings).toEqual([
      `${s.paths.managed}: allowManagedHooksOnly must be a boolean, got a string; it counts as true (its restrictive value) until it is fixed`,
    ])
  })

  it('in a drop-in, even where another managed file says false', () => {
    const s = managedAndOthers()
    write(s.paths.managed, { allowManagedHooksOnly: false })
    const invalid = write(join(s.paths.managedDropIns, '05-policy.json'), { allowManagedHooksOnly: 1 })
    write(join(s.paths.managedDropIns, '90-later.json'), { allowManagedHooksOnly: false })
    const loaded = s.load()
    expect(commands(loaded.handlers)).toEqual(['managed managed-audit'])
    expect(loaded.dropped[0]?.reason).toMatch(`allowManagedHooksOnly in ${invalid} is a number, not a boolean`)
  })

  it('a managed disableAllHooks that is not a boolean is ignored, as Claude Code does', () => {
    const s = managedAndOthers()
    write(s.paths.managed, { disableAllHooks: 'yes' })
    expect(s.load().dropped).toEqual([])
  })
})

describe('allow lists that managed settings set cannot be widened by other sources (widenManagedAllowLists)', () => {
  const http = (url: string, allowedEnvVars: string[] = []) => ({ type: 'http', url, allowedEnvVars })

  function widenedLists() {
    const s = sandbox()
    write(s.paths.managed, { allowedHttpHookUrls: ['http://127.0.0.1:9/managed*'], httpHookAllowedEnvVars: ['MANAGED_VAR'] })
    write(s.paths.project, {
      allowedHttpHookUrls: ['http://127.0.0.1:9/project*'],
      httpHookAllowedEnvVars: ['PROJECT_VAR'],
      ...hooksOn('UserPromptSubmit', [
        http('http://127.0.0.1:9/managed-path', ['MANAGED_VAR', 'PROJECT_VAR']),
        http('http://127.0.0.1:9/project-path', ['MANAGED_VAR', 'PROJECT_VAR']),
      ]),
    })
    return s
  }

  it('by default, only the managed entries count: a project URL or variable beyond them is not allowed', () => {
    const s = widenedLists()
    const loaded = s.load()
    expect(loaded.handlers).toMatchObject([{ url: 'http://127.0.0.1:9/managed-path', allowedEnvVars: ['MANAGED_VAR'] }])
    expect(dropReasons(loaded)).toEqual([
      `http: url "http://127.0.0.1:9/project-path" does not match allowedHttpHookUrls (set in ${s.paths.managed})`,
    ])
    expect(loaded.settings.allowedHttpHookUrls).toEqual(['http://127.0.0.1:9/managed*'])
    expect(loaded.settings.httpHookAllowedEnvVars).toEqual(['MANAGED_VAR'])
    expect(loaded.warnings).toEqual(
      ['allowedHttpHookUrls', 'httpHookAllowedEnvVars'].map(
        (key) => `${s.paths.project}: ${key} cannot widen the list managed settings set; ignored (see widenManagedAllowLists)`,
      ),
    )
  })

  it('with widenManagedAllowLists, the lists concatenate across sources, as Claude Code does', () => {
    const s = widenedLists()
    const loaded = s.load({ widenManagedAllowLists: true })
    expect(loaded.handlers).toMatchObject([
      { url: 'http://127.0.0.1:9/managed-path', allowedEnvVars: ['MANAGED_VAR', 'PROJECT_VAR'] },
      { url: 'http://127.0.0.1:9/project-path', allowedEnvVars: ['MANAGED_VAR', 'PROJECT_VAR'] },
    ])
    expect(loaded.warnings).toEqual([])
  })

  it('a list that managed settings do not set still merges across the other sources', () => {
    const s = widenedLists()
    write(s.paths.managed, { httpHookAllowedEnvVars: ['MANAGED_VAR'] })
    write(s.paths.user, { allowedHttpHookUrls: ['http://127.0.0.1:9/managed*'] })
    const loaded = s.load()
    expect(loaded.settings.allowedHttpHookUrls).toEqual(['http://127.0.0.1:9/project*', 'http://127.0.0.1:9/managed*'])
    expect(loaded.dropped).toEqual([])
    expect(loaded.settings.httpHookAllowedEnvVars).toEqual(['MANAGED_VAR'])
  })
})
