// One scenario's directory, the same layout on both sides, so normalized paths compare:
//   <case>/state/proj     the project and the session's cwd (CLAUDE_PROJECT_DIR); .claude/settings.json
//   <case>/state/config   CLAUDE_CONFIG_DIR (no user settings.json: the hooks are project hooks)
//   <case>/state/home     HOME
//   <case>/run            RC_OUT: what hook.sh records (real side: also stream.jsonl, server/)
//   <case>/modes          the behaviour scripts of a scenario with inline `modes`
//   <case>/sessions       kernel only: the session logs
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
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

/** The scenario's `--settings` file (settingsFlag), rendered into the case directory; undefined without one. */
export function writeSettingsFlag(scenario, layout) {
  if (!scenario.settingsFlag) return undefined
  const file = join(layout.dir, 'settings-flag.json')
  writeFileSync(file, renderSettings(scenario.settingsFlag))
  return file
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
