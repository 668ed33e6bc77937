// One scenario's directory, the same layout on both sides, so normalized paths compare:
//   <case>/state/proj     the project and the session's cwd (CLAUDE_PROJECT_DIR); .claude/settings.json
//   <case>/state/config   CLAUDE_CONFIG_DIR (user settings.json only with `userSettings`; .claude.json with `trusted`)
//   <case>/state/home     HOME
//   <case>/run            RC_OUT: what hook.sh records (real side: also stream.jsonl, server/)
//   <case>/modes          the behaviour scripts of a scenario with inline `modes`
//   <case>/sessions       kernel only: the session logs
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { MCP_SERVER_SCRIPT } from '../../lib/real-clients.mjs'
import { hookScript, modesDir } from './env.mjs'

export function caseLayout(dir) {
  return {
    dir,
    proj: join(dir, 'state', 'proj'),
    config: join(dir, 'state', 'config'),
    home: join(dir, 'state', 'home'),
    run: join(dir, 'run'),
    modes: join(dir, 'modes'),
    sessions: join(dir, 'sessions'),
    harnessHome: join(dir, 'harness-home'),
  }
}

/** RC_MODE_DIR: shared modes/<mode>, or the case's own modes/ (inline scripts; empty = hooks only record). */
export function modeDirFor(scenario, layout) {
  return scenario.mode ? join(modesDir(), scenario.mode) : layout.modes
}

/** Writes the inline behaviour scripts (`modes: { Event: body }`) as executables. */
export function writeModes(scenario, layout) {
  mkdirSync(layout.modes, { recursive: true })
  for (const [event, body] of Object.entries(scenario.modes ?? {})) {
    const file = join(layout.modes, event)
    writeFileSync(file, body.startsWith('#!') ? body : `#!/bin/bash\n${body}`)
    chmodSync(file, 0o755)
  }
}

/**
 * A settings template (`@HOOK@` not yet replaced) for a "hooks" object, as gen-settings.mjs takes it; `extra`: other
 * top-level settings keys (the scenario's `settingsExtra`), before "hooks".
 */
export const settingsTemplate = (hooks, extra = {}) => `${JSON.stringify({ ...extra, hooks }, null, 2)}\n`
/** A rendered settings file (what gen-settings.mjs writes). */
export const renderSettings = (hooks, extra = {}) => settingsTemplate(hooks, extra).split('@HOOK@').join(hookScript())

/**
 * The scenario's project `.mcp.json` (`mcpJson`, `@MCP_SERVER@` = conformance/lib/mcp-server.mjs), written into the
 * project before the run (run-cli.sh leaves the project's other files alone).
 */
export function writeMcpJson(scenario, layout) {
  if (!scenario.mcpJson) return
  mkdirSync(layout.proj, { recursive: true })
  writeFileSync(
    join(layout.proj, '.mcp.json'),
    `${JSON.stringify(scenario.mcpJson, null, 2).split('@MCP_SERVER@').join(MCP_SERVER_SCRIPT)}\n`,
  )
}

/**
 * The scenario's `--settings` value: a file rendered into the case directory from `settingsFlag` (its "hooks") and
 * `settingsFlagExtra` (its other top-level keys), or that JSON itself with `settingsFlagInline`; undefined without one.
 */
export function writeSettingsFlag(scenario, layout) {
  if (!scenario.settingsFlag && !scenario.settingsFlagExtra) return undefined
  const text = renderSettings(scenario.settingsFlag, scenario.settingsFlagExtra)
  if (scenario.settingsFlagInline) return JSON.stringify(JSON.parse(text))
  const file = join(layout.dir, 'settings-flag.json')
  writeFileSync(file, text)
  return file
}

/** The prompt placeholders: `@PROJECT@`, `@CONFIG@`, `@HOME@`, `@CASE@` (the case directory, outside the project). */
export function expandPlaceholders(text, layout) {
  return text
    .split('@PROJECT@')
    .join(layout.proj)
    .split('@CONFIG@')
    .join(layout.config)
    .split('@HOME@')
    .join(layout.home)
    .split('@CASE@')
    .join(layout.dir)
}

/**
 * What a scenario puts in the case before the run, the same on both sides: `userSettings` ($CLAUDE_CONFIG_DIR/settings.json),
 * `localSettings` (.claude/settings.local.json), `trusted` ($CLAUDE_CONFIG_DIR/.claude.json with the project's
 * `hasTrustDialogAccepted`), `files` (project-relative path → content; `@PROJECT@` and the other placeholders work in
 * paths and contents). Settings objects may hold "hooks" with `@HOOK@`.
 */
export function writeCaseFiles(scenario, layout) {
  for (const p of [layout.proj, layout.config, layout.home]) mkdirSync(p, { recursive: true })
  const writeJson = (file, value) => {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, `${JSON.stringify(value, null, 2).split('@HOOK@').join(hookScript())}\n`)
  }
  if (scenario.userSettings) writeJson(join(layout.config, 'settings.json'), scenario.userSettings)
  if (scenario.localSettings) writeJson(join(layout.proj, '.claude', 'settings.local.json'), scenario.localSettings)
  if (scenario.trusted) writeJson(join(layout.config, '.claude.json'), { projects: { [layout.proj]: { hasTrustDialogAccepted: true } } })
  for (const [rel, content] of Object.entries(scenario.files ?? {})) {
    const file = resolve(layout.proj, expandPlaceholders(rel, layout))
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, expandPlaceholders(content, layout))
  }
}

/** Paths to placeholders, for payloads, env values and model-visible text. */
export function casePathMap(layout, modeDir) {
  return [
    [layout.proj, '<PROJECT>'],
    [layout.config, '<CONFIG>'],
    [layout.home, '<HOME>'],
    [layout.run, '<RUN>'],
    [layout.sessions, '<SESSIONS>'],
    [hookScript(), '<HOOK_SH>'],
    [modeDir, '<MODE_DIR>'],
    [MCP_SERVER_SCRIPT, '<MCP_SERVER>'],
    [layout.dir, '<CASE>'],
  ]
}
