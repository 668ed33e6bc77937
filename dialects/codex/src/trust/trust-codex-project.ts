import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { resolveCodexHome } from '../config/codex-home.js'
import { projectTrust, projectTrustKeys } from '../config/project-layers.js'
import { parseToml } from '../config/read-toml-file.js'
import type { TomlTable } from '../config/toml-table.js'
import { setTomlTableField } from './edit-hook-state-toml.js'
import { writeFileAtomic } from './write-file-atomic.js'

export interface TrustCodexProjectOptions {
  /** The working directory whose project is trusted. */
  cwd: string
  /** Default `$CODEX_HOME`, else `~/.codex`. */
  codexHome?: string
  env?: NodeJS.ProcessEnv
}

export interface TrustCodexProjectResult {
  /** The project as Codex records its trust: the repository root (a worktree's main repository), else `cwd`. */
  project: string
  /** The user config.toml that holds `[projects."<path>"] trust_level`. */
  configPath: string
  /** The `[projects."<key>"]` entries set to `trust_level = "trusted"`; empty when the project was trusted already. */
  trusted: string[]
}

/**
 * Trusts the project of `cwd` the way Codex's trust prompt does: `[projects."<project>"] trust_level = "trusted"` in
 * `$CODEX_HOME/config.toml` (created if missing), where `<project>` is the repository root, else `cwd`. A `.codex/`
 * folder that an entry of its own keeps untrusted gets that entry set to trusted too. The file is edited in place,
 * atomically, changing nothing else (or the edit is refused with an error); it is not written when nothing changes.
 * Afterwards Codex and the harness load the project's `.codex/` config and hooks; each hook still needs its own trust.
 */
export function trustCodexProject(options: TrustCodexProjectOptions): TrustCodexProjectResult {
  const env = options.env ?? process.env
  const codexHome = resolveCodexHome(options.codexHome, env)
  const cwd = resolve(options.cwd)
  const configPath = join(codexHome, 'config.toml')
  let text = ''
  try {
    text = readFileSync(configPath, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  let config: TomlTable
  try {
    config = parseToml(text)
  } catch (err) {
    throw new Error(`${configPath}: the config is not valid TOML: ${(err as Error).message.split('\n')[0]}`)
  }
  const project = projectTrust(cwd, codexHome, config).target
  const trusted = projectTrustKeys(cwd, codexHome, config)
  let next = text
  try {
    for (const key of trusted) next = setTomlTableField(next, ['projects', key], 'trust_level', 'trusted')
  } catch (err) {
    throw new Error(`${configPath}: ${(err as Error).message}`)
  }
  if (next !== text) writeFileAtomic(configPath, next)
  return { project, configPath, trusted }
}
