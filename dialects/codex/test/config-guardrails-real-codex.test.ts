import { spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { CodexGuardrailsConfigError, loadCodexGuardrails } from '../src/config/guardrails/index.js'
import { gitRoot, put, tempRoot } from './fixtures/config/layout.js'

/**
 * loadCodexGuardrails against the real Codex 0.169.0: `codex [--profile p] [-c …] debug prompt-input` (offline, HOME
 * and CODEX_HOME in a temp dir, about 0.5 s a run) prints the permissions instructions the model gets, which name the
 * sandbox mode, the network, the writable roots and the approval policy in effect; a config Codex refuses exits 1.
 */
const CODEX = fileURLToPath(new URL('../../../node_modules/@openai/codex/bin/codex.js', import.meta.url))

interface Scenario {
  user?: string
  profile?: string
  project?: string
  trust?: 'trusted' | 'untrusted'
  flags?: string[]
}

function setUp(scenario: Scenario) {
  const root = tempRoot()
  const codexHome = join(root, 'home')
  const cwd = gitRoot(root, 'repo')
  put(
    codexHome,
    'config.toml',
    `${scenario.user ?? ''}\n[projects.${JSON.stringify(cwd)}]\ntrust_level = "${scenario.trust ?? 'trusted'}"\n`,
  )
  if (scenario.profile !== undefined) put(codexHome, 'p.config.toml', scenario.profile)
  if (scenario.project !== undefined) put(cwd, '.codex/config.toml', scenario.project)
  const profile = scenario.profile === undefined ? [] : ['--profile', 'p']
  const flags = (scenario.flags ?? []).flatMap((flag) => ['-c', flag])
  const run = spawnSync(process.execPath, [CODEX, ...profile, ...flags, 'debug', 'prompt-input'], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: root, CODEX_HOME: codexHome },
  })
  const load = () =>
    loadCodexGuardrails({
      cwd,
      codexHome,
      env: { HOME: root },
      sessionFlags: scenario.flags ?? [],
      ...(scenario.profile === undefined ? {} : { profile: 'p' }),
    })
  return { run, load, cwd, codexHome, cleanUp: () => rmSync(root, { recursive: true, force: true }) }
}

/** What the permissions instructions say (JSON-escaped in the printed input, hence the loose patterns). */
function codexSays(stdout: string) {
  return {
    mode: /`sandbox_mode` is `([a-z-]+)`/.exec(stdout)?.[1],
    network: /Network access is (enabled|restricted)/.exec(stdout)?.[1],
    roots:
      /The writable roots are (.*?)\.(?:\\n|<)/
        .exec(stdout)?.[1]
        ?.match(/`[^`]+`/g)
        ?.map((root) => root.slice(1, -1)) ?? [],
    never: stdout.includes('Approval policy is currently never'),
    granular: stdout.includes('Approval policy is `granular`'),
  }
}

const MODE_NAMES = { readOnly: 'read-only', workspaceWrite: 'workspace-write', dangerFullAccess: 'danger-full-access' }

const ACCEPTED: Record<string, Scenario> = {
  'user < profile < trusted project': {
    user: 'sandbox_mode = "read-only"',
    profile: 'sandbox_mode = "workspace-write"',
    project: 'sandbox_mode = "danger-full-access"',
  },
  'profile < -c': {
    user: 'sandbox_mode = "danger-full-access"',
    profile: 'sandbox_mode = "workspace-write"',
    flags: ['sandbox_mode=read-only'],
  },
  'trusted project < -c': { project: 'sandbox_mode = "workspace-write"', flags: ['sandbox_mode=danger-full-access'] },
  'untrusted project ignored': { user: 'sandbox_mode = "read-only"', project: 'sandbox_mode = "danger-full-access"', trust: 'untrusted' },
  'workspace-write table, relative roots': {
    user: 'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nwritable_roots = ["rel/dir", "/opt/abs"]\nnetwork_access = true',
    flags: ['sandbox_workspace_write.writable_roots=["relc"]'],
  },
  'project workspace-write table': {
    user: 'sandbox_mode = "workspace-write"',
    project: '[sandbox_workspace_write]\nwritable_roots = ["out"]',
  },
  'approval never from the project': { project: 'approval_policy = "never"' },
  granular: { user: 'approval_policy = { granular = { sandbox_approval = true, rules = false, mcp_elicitations = false } }' },
  'a bad value a later layer replaces': {
    user: 'sandbox_mode = "bogus"\napproval_policy = "untrusted"',
    flags: ['sandbox_mode=read-only', 'approval_policy=never'],
  },
}

const REFUSED: Record<string, Scenario> = {
  'untrusted in -c': { flags: ['approval_policy=untrusted'] },
  'untrusted in the project': { project: 'approval_policy = "untrusted"' },
  'unknown sandbox_mode': { user: 'sandbox_mode = "bogus"' },
  'network_access not a boolean': { flags: ['sandbox_workspace_write.network_access=yes'] },
  'writable root not a string': { user: '[sandbox_workspace_write]\nwritable_roots = [1]' },
  'granular without rules': { user: 'approval_policy = { granular = { sandbox_approval = true, mcp_elicitations = true } }' },
  'legacy profile selector': { flags: ['profile=p'] },
  'legacy profile table with --profile': { user: '[profiles.p]\nsandbox_mode = "read-only"', profile: '' },
}

describe.skipIf(!existsSync(CODEX))('loadCodexGuardrails against the real Codex 0.169.0', () => {
  it('finds the sandbox, network, writable roots and approval Codex tells the model (1 run each: 9)', () => {
    for (const [name, scenario] of Object.entries(ACCEPTED)) {
      const { run, load, cwd, cleanUp } = setUp(scenario)
      expect(run.status, `${name}: ${run.stderr}`).toBe(0)
      const codex = codexSays(run.stdout)
      const ours = load()
      if (ours.sandbox) expect(codex.mode, name).toBe(MODE_NAMES[ours.sandbox.type])
      if (ours.sandbox?.type === 'workspaceWrite') {
        expect(codex.network, name).toBe(ours.sandbox.networkAccess ? 'enabled' : 'restricted')
        expect(codex.roots, name).toContain(cwd)
        for (const root of ours.sandbox.writableRoots) expect(codex.roots, name).toContain(root)
      }
      expect(codex.never, name).toBe(ours.approval === 'never')
      expect(codex.granular, name).toBe(typeof ours.approval === 'object')
      cleanUp()
    }
  })

  it('refuses what Codex refuses to start with (1 run each: 8)', () => {
    for (const [name, scenario] of Object.entries(REFUSED)) {
      const { run, load, cleanUp } = setUp(scenario)
      expect(run.status, name).toBe(1)
      let message = ''
      try {
        load()
      } catch (err) {
        expect(err, name).toBeInstanceOf(CodexGuardrailsConfigError)
        message = (err as Error).message
      }
      expect(message, name).not.toBe('')
      // Where the harness keeps Codex's own words, they are Codex's.
      const codexWords = message.search(/approval_policy = "untrusted" is no longer|legacy `profile|--profile `p` cannot/)
      if (codexWords >= 0) expect(run.stderr, name).toContain(message.slice(codexWords))
      cleanUp()
    }
  })
})
