// Loads scenarios/*.mjs (one file per behaviour; the file name is the scenario name). A scenario
// with `renderings: ['system', 'classic']` becomes two runs: `<name>` (Claude's default model,
// system-role rendering) and `<name>-s45` (--model claude-sonnet-4-5-20250929, classic rendering).
import { commonProblems, nameMatcher, scenarioModules, throwProblems } from '../../lib/scenarios.mjs'
import { SCENARIOS_DIR } from './env.mjs'
import { P, standardHooks } from './kit.mjs'

const KNOWN_KEYS = new Set([
  'description',
  'prompt',
  'mode',
  'modes',
  'hooks',
  'settingsFlag',
  'settingsFlagExtra',
  'settingsFlagInline',
  'settingsExtra',
  'userSettings',
  'localSettings',
  'trusted',
  'files',
  'permissionMode',
  'addDirs',
  'mcpJson',
  'compactAfter',
  'subagents',
  'renderings',
  'bypass',
  'args',
  'env',
  'expect',
  'timeoutMs',
  'claudeSandboxPath',
  'failureOutput',
])
const RENDERINGS = ['system', 'classic']
/** `permissionMode`: Claude's `--permission-mode` values the dialect also takes; null: no mode flag at all. */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'auto', 'dontAsk', 'bypassPermissions']
const EXPECT_KEYS = new Set(['requests', 'subagentRequests', 'hooks', 'detached', 'contains', 'absent', 'outcome'])

function validate(name, s) {
  const problems = commonProblems(s, KNOWN_KEYS)
  if (s.mode !== undefined && s.modes !== undefined) problems.push('give mode (a shared modes/ name) or modes (inline scripts), not both')
  if (s.mode !== undefined && (typeof s.mode !== 'string' || s.mode.includes('/'))) problems.push('mode must be a name in shared modes/')
  for (const [ev, body] of Object.entries(s.modes ?? {}))
    if (!/^[A-Za-z]+$/.test(ev) || typeof body !== 'string') problems.push(`modes.${ev}: an event name and a script body`)
  for (const r of s.renderings ?? []) if (!RENDERINGS.includes(r)) problems.push(`rendering "${r}" is not one of ${RENDERINGS.join(', ')}`)
  if (s.hooks !== undefined && (typeof s.hooks !== 'object' || Array.isArray(s.hooks)))
    problems.push('hooks is the "hooks" object of the project settings.json (null: no project settings)')
  if (s.settingsFlag !== undefined && (typeof s.settingsFlag !== 'object' || s.settingsFlag === null || Array.isArray(s.settingsFlag)))
    problems.push('settingsFlag is the "hooks" object of a --settings file')
  for (const key of ['settingsExtra', 'settingsFlagExtra', 'userSettings', 'localSettings', 'mcpJson', 'files'])
    if (s[key] !== undefined && (typeof s[key] !== 'object' || s[key] === null || Array.isArray(s[key])))
      problems.push(`${key} must be an object`)
  if (s.compactAfter !== undefined && typeof s.compactAfter !== 'string')
    problems.push('compactAfter is the /compact instructions (a string, may be empty)')
  for (const [rel, content] of Object.entries(s.files ?? {}))
    if (typeof content !== 'string') problems.push(`files["${rel}"] must be a string`)
  if (s.permissionMode !== undefined && s.permissionMode !== null && !PERMISSION_MODES.includes(s.permissionMode))
    problems.push(`permissionMode must be null or one of ${PERMISSION_MODES.join(', ')}`)
  if (s.permissionMode !== undefined && s.bypass !== undefined) problems.push('give bypass or permissionMode, not both')
  if (s.addDirs !== undefined && (!Array.isArray(s.addDirs) || s.addDirs.some((d) => typeof d !== 'string')))
    problems.push('addDirs is a list of directories (--add-dir)')
  for (const key of ['trusted', 'settingsFlagInline', 'claudeSandboxPath', 'failureOutput'])
    if (s[key] !== undefined && typeof s[key] !== 'boolean') problems.push(`${key} must be a boolean`)
  if (s.subagents !== undefined && typeof s.subagents !== 'boolean') problems.push('subagents must be a boolean')
  throwProblems(name, problems)
}

function expectFor(name, s, rendering) {
  const e = typeof s.expect === 'function' ? s.expect(rendering) : (s.expect ?? {})
  for (const k of Object.keys(e)) if (!EXPECT_KEYS.has(k)) throw new Error(`scenarios/${name}.mjs: unknown expect key "${k}"`)
  return e
}

/** @param {string[]} filters  substrings or globs (`*`) of run names; none = all */
export async function loadScenarios(filters = []) {
  const match = nameMatcher(filters)
  const scenarios = []
  for await (const { base, scenario: s } of scenarioModules(SCENARIOS_DIR)) {
    validate(base, s)
    for (const rendering of s.renderings ?? ['system']) {
      const name = rendering === 'classic' ? `${base}-s45` : base
      if (!match(name)) continue
      scenarios.push({
        name,
        file: base,
        description: s.description,
        prompt: s.prompt ?? P,
        mode: s.mode,
        modes: s.modes,
        hooks: s.hooks === undefined ? standardHooks() : s.hooks,
        settingsFlag: s.settingsFlag,
        settingsFlagExtra: s.settingsFlagExtra,
        settingsFlagInline: s.settingsFlagInline ?? false,
        settingsExtra: s.settingsExtra,
        userSettings: s.userSettings,
        localSettings: s.localSettings,
        trusted: s.trusted ?? false,
        files: s.files ?? {},
        // undefined: the `bypass` flag decides (--dangerously-skip-permissions, or nothing); null: no mode flag
        permissionMode: s.permissionMode,
        addDirs: s.addDirs ?? [],
        mcpJson: s.mcpJson,
        compactAfter: s.compactAfter,
        subagents: s.subagents ?? false,
        rendering,
        bypass: s.bypass ?? true,
        args: s.args ?? [],
        env: s.env ?? {},
        expect: expectFor(base, s, rendering),
        timeoutMs: s.timeoutMs ?? 60_000,
        // the Claude Code side runs with $CLAUDE_SANDBOX_BIN (bwrap, socat) first on PATH; skipped without it
        claudeSandboxPath: s.claudeSandboxPath ?? false,
        // a failed call's output is compared too: `<tool failed: exit N>\n<output>` (default: only the exit code)
        failureOutput: s.failureOutput ?? false,
      })
    }
  }
  return scenarios
}
