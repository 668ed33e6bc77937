import { resolve } from 'node:path'
import { resolvePermissionSettings } from '../permissions/permission-settings.js'
import { resolveSandboxSettings } from '../permissions/sandbox-settings.js'
import { workspaceTrust } from '../permissions/workspace-trust.js'
import type { ClaudeHandler, DroppedHandler, LoadedClaudeCodeHooks } from '../types.js'
import { defaultClaudeConfigDir } from './claude-config-dir.js'
import { unsupportedReason } from './handler-support.js'
import { settingsGateReason } from './hook-gates.js'
import { resolveHookPolicySettings } from './hook-policy-settings.js'
import { httpUrlDropReason, restrictHttpEnvVars } from './http-hook-policy.js'
import { describeJsonType, isJsonObject } from './json-value.js'
import { defaultManagedSettingsPath } from './managed-settings-path.js'
import { parseHooksObject } from './parse-hooks-object.js'
import { type PluginIdentity, readPluginHooks } from './plugin-hooks-file.js'
import { failSettingsDocument, type SettingsDocument } from './settings-document.js'
import { ALL_SETTING_SOURCES, readSettingsSources, type SettingSourceName } from './settings-sources.js'

export interface LoadClaudeCodeHooksOptions {
  /** The project directory (where the session starts; CLAUDE_PROJECT_DIR). Relative `settings` and `plugins` resolve against it. */
  projectDir: string
  /** Claude's config dir; default $CLAUDE_CONFIG_DIR, else ~/.claude (from env.HOME / os.homedir()). User settings = <configDir>/settings.json. */
  configDir?: string
  /**
   * The managed settings file; default per platform (see `defaultManagedSettingsPath`). Its sibling
   * `managed-settings.d/*.json` (sorted by name) is managed too. `false` = no managed settings.
   */
  managedSettingsPath?: string | false
  /** `--settings`-style sources, each a file path or an inline JSON string (starts with `{`). Loaded as source 'flag'. */
  settings?: readonly string[]
  /**
   * Plugin directories: each has `hooks/hooks.json` (`{description?, hooks:{...}}`) and optionally
   * `.claude-plugin/plugin.json` with a `name` (else the dir basename). Data dir: see `pluginDataDir`.
   */
  plugins?: readonly string[]
  /** Which of user/project/local to read; default all three (like Claude Code's --setting-sources). */
  settingSources?: readonly SettingSourceName[]
  /** Default: process.env. */
  env?: NodeJS.ProcessEnv
  /**
   * Let other sources add entries to an `allowedHttpHookUrls` or `httpHookAllowedEnvVars` list that managed settings
   * set, as Claude Code 2.1.332 does (it concatenates them). Default false: a list managed settings set is the whole
   * list, so a project cannot allow itself a URL or an environment variable the administrator did not.
   */
  widenManagedAllowLists?: boolean
}

interface HooksDocument extends SettingsDocument {
  plugin?: PluginIdentity | undefined
}

/**
 * Loads a user's Claude Code hooks as Claude Code does (claude-code-hooks.md §1–§2): every source's hooks are
 * concatenated in load order (managed, `--settings`, local, project, user, plugins; config order within a file), never
 * deduplicated (that happens per invocation). Each handler that will not run is in `dropped` with its reason: a
 * settings gate, an unknown or never-fired event, an unsupported type, a URL outside `allowedHttpHookUrls`. Never
 * throws on bad configuration: problems are `warnings`, and an unusable file has its `error` in `sources`. A managed
 * file that exists but cannot be used fails closed: only managed hooks run (see `settingsGateReason`).
 */
export function loadClaudeCodeHooks(options: LoadClaudeCodeHooksOptions): LoadedClaudeCodeHooks {
  const env = options.env ?? process.env
  const projectDir = resolve(options.projectDir)
  const configDir = resolve(options.configDir ?? defaultClaudeConfigDir(env))
  const managedSettingsPath = options.managedSettingsPath ?? defaultManagedSettingsPath()
  const warnings: string[] = []

  const settingsDocuments = readSettingsSources(
    {
      projectDir,
      configDir,
      managedSettingsPath: managedSettingsPath === false ? false : resolve(managedSettingsPath),
      settings: options.settings ?? [],
      settingSources: options.settingSources ?? ALL_SETTING_SOURCES,
    },
    warnings,
  )
  const pluginDocuments = (options.plugins ?? []).map((dir) => readPluginHooks(resolve(projectDir, dir), configDir, warnings))
  const trust = workspaceTrust({ projectDir, configDir: options.configDir ?? env.CLAUDE_CONFIG_DIR, env })
  const permissions = resolvePermissionSettings(settingsDocuments, { projectDir, trust }, warnings)
  const sandbox = resolveSandboxSettings(settingsDocuments, { cwd: projectDir }, warnings)
  const policy = resolveHookPolicySettings(settingsDocuments, { widenManagedAllowLists: options.widenManagedAllowLists ?? false }, warnings)

  const documents: HooksDocument[] = [...settingsDocuments, ...pluginDocuments]
  const handlers: ClaudeHandler[] = []
  const dropped: DroppedHandler[] = []
  for (const document of documents) {
    for (const loaded of hooksOf(document, warnings)) {
      const handler = restrictHttpEnvVars(loaded, policy)
      const reason = settingsGateReason(handler, policy) ?? unsupportedReason(handler) ?? httpUrlDropReason(handler, policy)
      if (reason === undefined) handlers.push(handler)
      else dropped.push({ handler, reason })
    }
  }

  return {
    handlers,
    dropped,
    sources: documents.map((document) => document.report),
    warnings,
    settings: {
      disableAllHooks: policy.disableAllHooks?.value ?? false,
      allowManagedHooksOnly: policy.allowManagedHooksOnly?.value ?? false,
      allowedHttpHookUrls: policy.allowedHttpHookUrls?.values,
      httpHookAllowedEnvVars: policy.httpHookAllowedEnvVars?.values,
    },
    permissions,
    sandbox,
    projectDir,
  }
}

/**
 * Settings files may hold any other keys (env, model…): only `hooks` is read here (`permissions` before). A `hooks` that is not
 * an object makes the file's hooks unusable, but its settings keys (read before) still count: a managed file with a
 * broken `hooks` still enforces its `allowManagedHooksOnly`.
 */
function hooksOf(document: HooksDocument, warnings: string[]): ClaudeHandler[] {
  const hooks = document.content?.hooks
  if (hooks === undefined) return []
  if (!isJsonObject(hooks)) {
    failSettingsDocument(document, `"hooks" must be an object of events, got ${describeJsonType(hooks)}`, warnings)
    return []
  }
  const { source, path } = document.report
  return parseHooksObject(hooks, { source, sourcePath: path, plugin: document.plugin }, warnings)
}
