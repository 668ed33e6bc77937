import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CodexGuardrailsConfigError, type LoadCodexGuardrailsOptions, loadCodexGuardrails } from '../src/index.js'
import { gitRoot, put, tempRoot } from './fixtures/config/layout.js'

/**
 * Layering observed with the real Codex 0.169.0 (`codex [-c …] [--profile p] debug prompt-input`, HOME and CODEX_HOME
 * in an empty temp dir, reading `sandbox_mode is …`, the approval text and the writable roots in the permissions
 * instructions; about 45 runs): user config.toml < `--profile p` (`p.config.toml`) < trusted project
 * `.codex/config.toml` < `-c`; an untrusted project's config and rules are not read; only the merged value is
 * checked (a bad user value that `-c` replaces starts fine).
 */
function layout(options: { user?: string; project?: string; trust?: 'trusted' | 'untrusted' | 'none' } = {}) {
  const root = tempRoot()
  const codexHome = join(root, 'home')
  const cwd = gitRoot(root, 'repo')
  const trust = options.trust ?? 'trusted'
  const entry = trust === 'none' ? '' : `\n[projects.${JSON.stringify(cwd)}]\ntrust_level = "${trust}"\n`
  const userConfig = put(codexHome, 'config.toml', `${options.user ?? ''}${entry}`)
  if (options.project !== undefined) put(cwd, '.codex/config.toml', options.project)
  const load = (more: Partial<LoadCodexGuardrailsOptions> = {}) => loadCodexGuardrails({ cwd, codexHome, env: { HOME: root }, ...more })
  return { root, codexHome, cwd, userConfig, projectConfig: join(cwd, '.codex/config.toml'), load }
}

const WORKSPACE_WRITE = {
  type: 'workspaceWrite',
  writableRoots: [],
  networkAccess: false,
  excludeTmpdirEnvVar: false,
  excludeSlashTmp: false,
}

function errorOf(run: () => unknown): CodexGuardrailsConfigError {
  try {
    run()
  } catch (err) {
    expect(err).toBeInstanceOf(CodexGuardrailsConfigError)
    return err as CodexGuardrailsConfigError
  }
  throw new Error('expected a CodexGuardrailsConfigError')
}

describe('loadCodexGuardrails: what is in effect', () => {
  it('leaves every key nobody set undefined, for the caller to default', () => {
    expect(layout().load()).toEqual({ rules: [], hostExecutables: new Map(), warnings: [] })
  })

  it('reads sandbox_mode and [sandbox_workspace_write] into the App Server policy shape', () => {
    const { load } = layout({
      user: `sandbox_mode = "workspace-write"\napproval_policy = "never"\n[sandbox_workspace_write]\nwritable_roots = ["/opt/cache"]\nnetwork_access = true\nexclude_tmpdir_env_var = true\nexclude_slash_tmp = true\n`,
    })
    const settings = { writableRoots: ['/opt/cache'], networkAccess: true, excludeTmpdirEnvVar: true, excludeSlashTmp: true }
    expect(load()).toEqual({
      sandbox: { type: 'workspaceWrite', ...settings },
      approval: 'never',
      workspaceWrite: settings,
      rules: [],
      hostExecutables: new Map(),
      warnings: [],
    })
  })

  it('applies [sandbox_workspace_write] only to workspace-write, and still reports it when sandbox_mode is unset', () => {
    const table = '[sandbox_workspace_write]\nnetwork_access = true\n'
    expect(layout({ user: `sandbox_mode = "read-only"\n${table}` }).load().sandbox).toEqual({ type: 'readOnly', networkAccess: false })
    expect(layout({ user: `sandbox_mode = "danger-full-access"\n${table}` }).load().sandbox).toEqual({ type: 'dangerFullAccess' })
    const unset = layout({ user: table }).load()
    expect(unset.sandbox).toBeUndefined()
    expect(unset.workspaceWrite).toEqual({ networkAccess: true })
  })

  it('fills what [sandbox_workspace_write] leaves out with Codex defaults', () => {
    const { load } = layout({ user: 'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nexclude_slash_tmp = true\n' })
    expect(load().sandbox).toEqual({ ...WORKSPACE_WRITE, excludeSlashTmp: true })
  })

  it('reads approval policies, granular with its two optional categories defaulting to false', () => {
    expect(layout({ user: 'approval_policy = "on-failure"\n' }).load().approval).toBe('on-failure')
    const { load } = layout({
      user: 'approval_policy = { granular = { sandbox_approval = true, rules = false, mcp_elicitations = true } }\n',
    })
    expect(load().approval).toEqual({
      granular: { sandbox_approval: true, rules: false, skill_approval: false, request_permissions: false, mcp_elicitations: true },
    })
  })
})

describe('loadCodexGuardrails: layers and precedence', () => {
  it('user < profile file < trusted project < -c flags', () => {
    const { codexHome, load } = layout({ user: 'sandbox_mode = "read-only"\n', project: 'sandbox_mode = "danger-full-access"\n' })
    put(codexHome, 'p.config.toml', 'sandbox_mode = "workspace-write"\napproval_policy = "never"\n')
    // Observed: the trusted project's danger-full-access beats the profile's workspace-write.
    expect(load({ profile: 'p' })).toMatchObject({ sandbox: { type: 'dangerFullAccess' }, approval: 'never' })
    expect(load({ profile: 'p', sessionFlags: ['sandbox_mode=read-only'] }).sandbox).toEqual({ type: 'readOnly', networkAccess: false })
  })

  it('the profile file beats the user config; -c beats the profile file', () => {
    const { codexHome, load } = layout({ user: 'sandbox_mode = "read-only"\napproval_policy = "on-request"\n' })
    put(codexHome, 'p.config.toml', 'sandbox_mode = "workspace-write"\n')
    expect(load()).toMatchObject({ sandbox: { type: 'readOnly' }, approval: 'on-request' })
    expect(load({ profile: 'p' })).toMatchObject({ sandbox: WORKSPACE_WRITE, approval: 'on-request' })
    expect(load({ profile: 'p', sessionFlags: ['sandbox_mode="danger-full-access"'] }).sandbox).toEqual({ type: 'dangerFullAccess' })
  })

  it('merges [sandbox_workspace_write] key by key across layers', () => {
    const { load } = layout({
      user: 'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nnetwork_access = true\nwritable_roots = ["/user"]\n',
      project: '[sandbox_workspace_write]\nwritable_roots = ["/project"]\n',
    })
    expect(load({ sessionFlags: ['sandbox_workspace_write.exclude_slash_tmp=true'] }).sandbox).toEqual({
      ...WORKSPACE_WRITE,
      writableRoots: ['/project'],
      networkAccess: true,
      excludeSlashTmp: true,
    })
  })

  it("does not read an untrusted project's config or rules, and says so", () => {
    const { cwd, load } = layout({
      user: 'sandbox_mode = "read-only"\n',
      project: 'sandbox_mode = "danger-full-access"\n',
      trust: 'untrusted',
    })
    put(cwd, '.codex/rules/project.rules', 'prefix_rule(pattern=["projrule"])\n')
    const loaded = load()
    expect(loaded.sandbox).toEqual({ type: 'readOnly', networkAccess: false })
    expect(loaded.rules).toEqual([])
    expect(loaded.warnings).toEqual([`${join(cwd, '.codex')} is in a project Codex does not trust: its config.toml and rules are not read`])
    // Nor one nobody decided on.
    expect(layout({ project: 'sandbox_mode = "danger-full-access"\n', trust: 'none' }).load().sandbox).toBeUndefined()
  })

  it('layers nested trusted .codex folders from the project root down to cwd', () => {
    const { cwd, codexHome } = layout({ project: 'sandbox_mode = "danger-full-access"\napproval_policy = "never"\n' })
    const sub = join(cwd, 'pkg')
    put(sub, '.codex/config.toml', 'sandbox_mode = "read-only"\n')
    expect(loadCodexGuardrails({ cwd: sub, codexHome, env: {} })).toMatchObject({
      sandbox: { type: 'readOnly', networkAccess: false },
      approval: 'never',
    })
  })

  it('returns the rules of CODEX_HOME and of the trusted project, in that order, with their files', () => {
    const { codexHome, cwd, load } = layout()
    const user = put(codexHome, 'rules/default.rules', 'prefix_rule(pattern=["userrule", "x"], decision="allow")\n')
    const project = put(cwd, '.codex/rules/a.rules', 'prefix_rule(pattern=["projrule"], decision="forbidden")\n')
    expect(load().rules).toEqual([
      { pattern: ['userrule', 'x'], decision: 'allow', source: user },
      { pattern: ['projrule'], decision: 'forbidden', source: project },
    ])
  })

  it('resolves a relative writable root against the folder of the file naming it, -c against cwd, ~ against HOME', () => {
    // Observed: `writable_roots = ["rel/dir"]` in ~/.codex/config.toml made `<codexHome>/rel/dir` writable; `-c` ones
    // resolved against cwd; "~/tilde" against HOME; "" named the config folder itself.
    const { root, codexHome, cwd, load } = layout({
      user: 'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nwritable_roots = ["rel/dir", "../up", "~/tilde", "~", ""]\n',
    })
    expect(load().workspaceWrite?.writableRoots).toEqual([
      join(codexHome, 'rel/dir'),
      join(root, 'up'),
      join(root, 'tilde'),
      root,
      codexHome,
    ])
    const flagged = load({ sessionFlags: ['sandbox_workspace_write.writable_roots=["relc"]'] })
    expect(flagged.workspaceWrite?.writableRoots).toEqual([join(cwd, 'relc')])
    const project = layout({ project: '[sandbox_workspace_write]\nwritable_roots = ["out"]\n' })
    expect(project.load().workspaceWrite?.writableRoots).toEqual([join(project.cwd, '.codex/out')])
  })

  it('warns that legacy [profiles.<name>] tables are not read, as Codex 0.169.0 ignores them', () => {
    const { userConfig, load } = layout({ user: 'sandbox_mode = "read-only"\n[profiles.work]\nsandbox_mode = "danger-full-access"\n' })
    const loaded = load()
    expect(loaded.sandbox).toEqual({ type: 'readOnly', networkAccess: false })
    expect(loaded.warnings).toEqual([
      `${userConfig}: [profiles.work] is not read by Codex 0.169.0; move it to work.config.toml next to it and select it with --profile work`,
    ])
  })

  it('lets a later layer replace a bad value, as Codex checks only the merged config', () => {
    const { load } = layout({ user: 'sandbox_mode = "bogus"\napproval_policy = "untrusted"\n' })
    expect(load({ sessionFlags: ['sandbox_mode=read-only', 'approval_policy=never'] })).toMatchObject({
      sandbox: { type: 'readOnly' },
      approval: 'never',
    })
  })
})

describe('loadCodexGuardrails: bad input fails closed, naming value, key and source', () => {
  it('an unknown sandbox_mode, from a file or a -c flag', () => {
    const { userConfig, load } = layout({ user: 'sandbox_mode = "bogus"\n' })
    const fromFile = errorOf(load)
    expect(fromFile.message).toBe(
      `${userConfig}: sandbox_mode: "bogus" is not a sandbox mode; expected "read-only", "workspace-write" or "danger-full-access"`,
    )
    expect(fromFile.source).toBe(userConfig)
    const fromFlag = errorOf(() => layout().load({ sessionFlags: ['model=x', 'sandbox_mode=sandboxed'] }))
    expect(fromFlag.message).toMatch(/^-c sandbox_mode=sandboxed: sandbox_mode: "sandboxed" is not a sandbox mode/)
    expect(fromFlag.source).toBe('-c sandbox_mode=sandboxed')
  })

  it('approval_policy = "untrusted" in any layer, with Codex 0.169.0 words', () => {
    // Observed (4 runs: user, project, profile, -c): `Error: approval_policy = "untrusted" is no longer supported;
    // remove this setting`, exit 1.
    const words = 'approval_policy = "untrusted" is no longer supported; remove this setting'
    const project = layout({ project: 'approval_policy = "untrusted"\n' })
    expect(errorOf(project.load).message).toBe(`${project.projectConfig}: ${words}`)
    const user = layout({ user: 'approval_policy = "untrusted"\n' })
    expect(errorOf(user.load).message).toBe(`${user.userConfig}: ${words}`)
    const profile = layout()
    const profileFile = put(profile.codexHome, 'p.config.toml', 'approval_policy = "untrusted"\n')
    expect(errorOf(() => profile.load({ profile: 'p' })).message).toBe(`${profileFile} (profile p): ${words}`)
    const flag = errorOf(() => layout().load({ sessionFlags: ['approval_policy=untrusted'] }))
    expect(flag.message).toBe(`-c approval_policy=untrusted: ${words}`)
    expect(flag.source).toBe('-c approval_policy=untrusted')
  })

  it('an unknown or malformed approval_policy', () => {
    const { userConfig, load } = layout({ user: 'approval_policy = "sometimes"\n' })
    expect(errorOf(load).message).toBe(
      `${userConfig}: approval_policy: "sometimes" is not an approval policy; expected "untrusted", "on-failure", "on-request", "never" or { granular = {…} }`,
    )
    const missing = layout({ user: 'approval_policy = { granular = { sandbox_approval = true, mcp_elicitations = true } }\n' })
    expect(errorOf(missing.load).message).toBe(`${missing.userConfig}: approval_policy.granular.rules: is missing (a boolean is required)`)
    const notBoolean = layout({
      user: 'approval_policy = { granular = { sandbox_approval = "yes", rules = true, mcp_elicitations = true } }\n',
    })
    expect(errorOf(notBoolean.load).message).toBe(
      `${notBoolean.userConfig}: approval_policy.granular.sandbox_approval: "yes" is not a boolean`,
    )
    const notTable = layout({ user: 'approval_policy = { granular = "all" }\n' })
    expect(errorOf(notTable.load).message).toBe(`${notTable.userConfig}: approval_policy.granular: "all" is not a table of booleans`)
  })

  it('a non-boolean flag, a non-string or non-array writable root, a non-table [sandbox_workspace_write]', () => {
    const flag = layout({ project: '[sandbox_workspace_write]\nnetwork_access = "yes"\n' })
    expect(errorOf(flag.load).message).toBe(`${flag.projectConfig}: sandbox_workspace_write.network_access: "yes" is not a boolean`)
    const root = layout({ user: '[sandbox_workspace_write]\nwritable_roots = [1]\n' })
    expect(errorOf(root.load).message).toBe(`${root.userConfig}: sandbox_workspace_write.writable_roots: 1 is not a path string`)
    const roots = errorOf(() => layout().load({ sessionFlags: ['sandbox_workspace_write.writable_roots="/tmp/x"'] }))
    expect(roots.message).toBe(
      `-c sandbox_workspace_write.writable_roots="/tmp/x": sandbox_workspace_write.writable_roots: "/tmp/x" is not an array of paths`,
    )
    const table = layout({ user: 'sandbox_workspace_write = 3\n' })
    expect(errorOf(table.load).message).toBe(`${table.userConfig}: sandbox_workspace_write: 3 is not a table`)
  })

  it('profiles: the legacy selector, a legacy table with --profile, a bad name, a missing file', () => {
    // Observed: `profile = "p"` in config.toml or `-c profile=p` → "legacy `profile = "p"` config is no longer
    // supported; use `--profile p` with `p.config.toml` instead"; `--profile p` with `[profiles.p]` → the message
    // below; `--profile ../x` → "invalid --profile value `../x`; pass a plain name such as `work`" (exit 2).
    const legacy = layout({ user: 'profile = "p"\n' })
    expect(errorOf(legacy.load).message).toBe(
      `${legacy.userConfig}: legacy \`profile = "p"\` config is no longer supported; use \`--profile p\` with \`p.config.toml\` instead`,
    )
    expect(errorOf(() => layout().load({ sessionFlags: ['profile=p'] })).source).toBe('-c profile=p')
    const table = layout({ user: '[profiles.p]\nsandbox_mode = "read-only"\n' })
    put(table.codexHome, 'p.config.toml', '')
    expect(errorOf(() => table.load({ profile: 'p' })).message).toBe(
      `--profile \`p\` cannot be used while ${table.userConfig} contains legacy \`profile = "p"\` or \`[profiles.p]\` config; move those settings into ${join(table.codexHome, 'p.config.toml')} and remove the legacy profile selector/table.`,
    )
    expect(errorOf(() => layout().load({ profile: '../x' })).message).toBe(
      'invalid --profile value `../x`; pass a plain name such as `work`',
    )
    // Codex 0.169.0 runs on without the file (observed); the harness refuses: the profile was chosen for its settings.
    const missing = layout()
    expect(errorOf(() => missing.load({ profile: 'strict' })).message).toBe(
      `profile strict: ${join(missing.codexHome, 'strict.config.toml')} does not exist; create it or choose another profile`,
    )
  })

  it('a profile file error names the profile', () => {
    const { codexHome, load } = layout()
    const path = put(codexHome, 'p.config.toml', 'sandbox_mode = "sandboxed"\n')
    expect(errorOf(() => load({ profile: 'p' })).message).toMatch(
      new RegExp(`^${path.replaceAll('.', '\\.')} \\(profile p\\): sandbox_mode: "sandboxed" is not a sandbox mode`),
    )
  })

  it('a config.toml that does not parse, and a malformed -c flag', () => {
    const { userConfig, load } = layout({ user: 'sandbox_mode = \n' })
    const broken = errorOf(load)
    expect(broken.source).toBe(userConfig)
    expect(broken.message).toMatch(new RegExp(`^failed to parse config ${userConfig.replaceAll('.', '\\.')}:1:`))
    expect(errorOf(() => layout().load({ sessionFlags: ['sandbox_mode'] })).message).toBe(
      "-c: Invalid override (missing '='): sandbox_mode",
    )
  })

  it('a malformed rules file, naming it', () => {
    const { codexHome, load } = layout()
    const path = put(codexHome, 'rules/default.rules', 'prefix_rule(pattern=["git"], decision="deny")\n')
    expect(errorOf(load).message).toBe(`${path}:1:1: invalid decision: deny`)
  })
})
