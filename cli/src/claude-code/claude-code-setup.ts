import { resolve } from 'node:path'
import {
  type ClaudeCodeHooksOptions,
  defaultClaudeConfigDir,
  defaultManagedSettingsPath,
  type LoadedClaudeCodeHooks,
  loadClaudeCodeHooks,
  type PermissionMode,
  permissionModeInForce,
  type SdkPermissionSettings,
  sdkPermissionSettings,
} from '@harness-kernel/claude-code'
import { errorMessage } from '@harness-kernel/kernel'
import { CliError } from '../cli-error.js'

/** The `harness hooks` flags that say where the Claude Code hooks come from. */
export interface ClaudeCodeFlags {
  /** `--claude-config-dir`: default `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
  claudeConfigDir?: string
  /** `--settings`, repeatable: a settings file or inline JSON, as Claude Code's flag. */
  settings?: readonly string[]
  /** `--plugin-dir`, repeatable: a Claude Code plugin directory (`hooks/hooks.json`). */
  pluginDir?: readonly string[]
  /** `--managed-settings`: default the platform's managed-settings.json. */
  managedSettings?: string
}

export interface ClaudeCodeSetup {
  /** The project (`CLAUDE_PROJECT_DIR`): the harness's working directory. */
  projectDir: string
  /** The Claude config dir in effect (user settings.json). */
  configDir: string
  managedSettingsPath: string
  /** Files resolved against the working directory; inline JSON as given. */
  settings: string[]
  plugins: string[]
}

/** Where the Claude Code hooks of one invocation come from; relative paths resolve against `cwd`. */
export function claudeCodeSetup(cwd: string, flags: ClaudeCodeFlags, env: Record<string, string | undefined>): ClaudeCodeSetup {
  return {
    projectDir: cwd,
    configDir: flags.claudeConfigDir === undefined ? defaultClaudeConfigDir(env) : resolve(cwd, flags.claudeConfigDir),
    managedSettingsPath: flags.managedSettings === undefined ? defaultManagedSettingsPath() : resolve(cwd, flags.managedSettings),
    settings: (flags.settings ?? []).map((value) => settingsValue(cwd, value)),
    plugins: (flags.pluginDir ?? []).map((dir) => resolve(cwd, dir)),
  }
}

/** Every Claude Code handler the harness would load for `setup`, those that will not run included (`dropped`). */
export function loadClaudeHooks(setup: ClaudeCodeSetup, env: Record<string, string | undefined>): LoadedClaudeCodeHooks {
  try {
    return loadClaudeCodeHooks({
      projectDir: setup.projectDir,
      configDir: setup.configDir,
      managedSettingsPath: setup.managedSettingsPath,
      settings: setup.settings,
      plugins: setup.plugins,
      env,
    })
  } catch (error) {
    throw new CliError(`cannot load the Claude Code hooks: ${errorMessage(error)}`, { cause: error })
  }
}

/**
 * `claudeCodeHooks()` options for the default harness: the project is `cwd`, and the config dir (`$CLAUDE_CONFIG_DIR`,
 * else `~/.claude`) and the environment hooks inherit are read from `env`, not from the process when a session starts.
 * Relative paths resolve against `cwd`.
 */
export function defaultClaudeCodeHooksOptions(
  cwd: string,
  env: Record<string, string | undefined>,
  options: ClaudeCodeHooksOptions,
): ClaudeCodeHooksOptions {
  const { managedSettingsPath, settings, plugins } = options
  return {
    ...options,
    projectDir: resolve(cwd, options.projectDir ?? '.'),
    configDir: options.configDir === undefined ? defaultClaudeConfigDir(env) : resolve(cwd, options.configDir),
    env: options.env ?? env,
    ...(typeof managedSettingsPath === 'string' ? { managedSettingsPath: resolve(cwd, managedSettingsPath) } : {}),
    ...(settings === undefined ? {} : { settings: settings.map((value) => settingsValue(cwd, value)) }),
    ...(plugins === undefined ? {} : { plugins: plugins.map((dir) => resolve(cwd, dir)) }),
  }
}

/** A `--settings` value: inline JSON (it starts with `{`) as given, else a file path resolved against `cwd`. */
function settingsValue(cwd: string, value: string): string {
  return value.trimStart().startsWith('{') ? value : resolve(cwd, value)
}

/**
 * What a driven Claude Code enforces on its own built-in tools: the user's permission rules as one settings object,
 * and the mode in force (`--permission-mode`, else the settings' `defaultMode`). Read from the same settings files
 * the dialect reads for the kernel's tools.
 */
export function drivenClaudeCodePermissions(options: ClaudeCodeHooksOptions): {
  settings: SdkPermissionSettings
  mode: PermissionMode | undefined
} {
  let loaded: LoadedClaudeCodeHooks
  try {
    loaded = loadClaudeCodeHooks({
      projectDir: options.projectDir ?? process.cwd(),
      ...(options.configDir === undefined ? {} : { configDir: options.configDir }),
      ...(options.managedSettingsPath === undefined ? {} : { managedSettingsPath: options.managedSettingsPath }),
      ...(options.settings === undefined ? {} : { settings: options.settings }),
      ...(options.settingSources === undefined ? {} : { settingSources: options.settingSources }),
      ...(options.env === undefined ? {} : { env: options.env }),
    })
  } catch (error) {
    throw new CliError(`cannot load the Claude Code permissions: ${errorMessage(error)}`, { cause: error })
  }
  return {
    settings: sdkPermissionSettings(loaded.permissions, loaded.sandbox),
    mode: permissionModeInForce(loaded.permissions, options.permissionMode),
  }
}
