import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { CommandRule } from '@harness-kernel/kernel'
import { resolveCodexHome } from '../codex-home.js'
import { type ProjectLayer, projectTrust } from '../project-layers.js'
import { isTable } from '../toml-table.js'
import { type ConfigLayer, mergeLayers, profileLayer, readConfigLayer, sessionFlagsLayer } from './config-layers.js'
import { type EffectiveGuardrails, effectiveGuardrails } from './effective-guardrails.js'
import { loadCodexExecPolicy } from './load-codex-rules.js'

export interface LoadCodexGuardrailsOptions {
  cwd: string
  /** Default `$CODEX_HOME`, else `~/.codex`. */
  codexHome?: string
  /** `codex -c key=value` overrides. */
  sessionFlags?: readonly string[]
  /** `codex --profile <name>`: layers `<codexHome>/<name>.config.toml` over the user's config.toml. */
  profile?: string
  /** Where `HOME` (for `~` in writable roots) and `CODEX_HOME` are read. Default `process.env`. */
  env?: NodeJS.ProcessEnv
}

export interface CodexGuardrails extends EffectiveGuardrails {
  /** The exec-policy rules of the user's and the trusted projects' `rules/` folders, in Codex's order. */
  rules: CommandRule[]
  /** Their `host_executable` entries: name → the absolute paths that may match that name's rules. */
  hostExecutables: Map<string, string[]>
  warnings: string[]
}

/**
 * The sandbox, approval policy and exec-policy rules Codex 0.169.0 would use in `cwd`. Layers, lowest precedence
 * first (config_loader `load_config_layers_state`, checked with the real binary):
 * the user's config.toml < the `--profile` file < each trusted project's `.codex/config.toml` (root first; an
 * untrusted project's config and rules are not read) < the `-c` flags. A key nobody set stays undefined (the caller
 * applies its defaults); a bad value in effect throws a `CodexGuardrailsConfigError` naming the value, key and source.
 */
export function loadCodexGuardrails(options: LoadCodexGuardrailsOptions): CodexGuardrails {
  const env = options.env ?? process.env
  const codexHome = resolveCodexHome(options.codexHome, env)
  const cwd = resolve(options.cwd)
  const user = readConfigLayer(join(codexHome, 'config.toml'), codexHome)
  const profile = options.profile === undefined ? [] : [profileLayer({ codexHome, name: options.profile, user })]
  const flags = sessionFlagsLayer(options.sessionFlags ?? [], cwd)
  const trust = projectTrust(cwd, codexHome, mergeLayers([user, ...profile, flags]))
  const trusted = trust.layers.filter((layer) => layer.trusted)
  const projects = trusted.map((layer) => readConfigLayer(join(layer.dotCodex, 'config.toml'), layer.dotCodex))
  const layers: ConfigLayer[] = [user, ...profile, ...projects, flags]
  const settings = effectiveGuardrails(layers, env.HOME || homedir())
  const policy = loadCodexExecPolicy({ codexHome, projectDotCodexDirs: trusted.map((layer) => layer.dotCodex) })
  const warnings = [...legacyProfileWarnings(user, options.profile), ...trust.layers.flatMap(untrustedLayerWarning)]
  return { ...settings, ...policy, warnings }
}

/** Codex 0.169.0 no longer reads `[profiles.<name>]` tables (it reads `<name>.config.toml`) and says nothing. */
function legacyProfileWarnings(user: ConfigLayer, selected: string | undefined): string[] {
  const profiles = user.table.profiles
  if (!isTable(profiles)) return []
  return Object.keys(profiles)
    .filter((name) => name !== selected)
    .map(
      (name) =>
        `${user.source}: [profiles.${name}] is not read by Codex 0.169.0; move it to ${name}.config.toml next to it and select it with --profile ${name}`,
    )
}

function untrustedLayerWarning(layer: ProjectLayer): string[] {
  if (layer.trusted) return []
  const ignored = ['config.toml', 'rules'].filter((name) => existsSync(join(layer.dotCodex, name)))
  if (ignored.length === 0) return []
  return [
    `${layer.dotCodex} is in a project Codex does not trust: its ${ignored.join(' and ')} ${ignored.length > 1 ? 'are' : 'is'} not read`,
  ]
}
