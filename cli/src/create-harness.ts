import { resolve } from 'node:path'
import { type ClaudeCodeHooksOptions, claudeCodeHooks } from '@harness-kernel/claude-code'
import { type CodexHooksOptions, codexHooks } from '@harness-kernel/codex'
import { type Budgets, compaction, createKernel, errorMessage, type Kernel, type Plugin, useDriver } from '@harness-kernel/kernel'
import { subagents } from '@harness-kernel/subagents'
import { tools } from '@harness-kernel/tools'
import { defaultClaudeCodeHooksOptions, drivenClaudeCodePermissions } from './claude-code/claude-code-setup.js'
import { CliError } from './cli-error.js'
import { defaultCodexHooksOptions } from './codex/codex-setup.js'
import { withFlagBudgets } from './commands/budget-flags.js'
import type { HarnessConfig } from './config/define-config.js'
import { loadConfig } from './config/load-config.js'
import { loadSettings, settingsPath } from './config/settings-file.js'
import {
  claudeCodeModelName,
  codexModelName,
  DEFAULT_DRIVER,
  type DriverOption,
  driverOwnsModel,
  drivers,
  isDriverObject,
  parseDriverName,
} from './driver-spec.js'
import { defaultMcpPlugin } from './mcp-setup.js'
import { createModelPlugin, modelOptionsHelp } from './model-spec.js'
import { MODEL_USAGE } from './model-usage.js'
import { sessionStorePlugin } from './session-store-option.js'
import { defaultTelemetryPlugin } from './telemetry-setup.js'

export interface CreateHarnessOptions {
  /** The harness's working directory; relative paths below resolve against it. Default `process.cwd()`. */
  cwd?: string
  /** A config file, or a config object. Default: the first of `harness.config.{mjs,js,ts,mts}` in `cwd`, if any. */
  config?: string | HarnessConfig
  /**
   * A model spec (`scripted:FILE`, …); overrides the config's `model` and `HARNESS_MODEL`. With the claude-code driver,
   * Claude Code's model name (`claude-sonnet-4-5`, or `anthropic:claude-sonnet-4-5`); with the codex driver, Codex's
   * (`openai:gpt-5.1-codex`, or `gpt-5.1-codex`); a spec of another provider is an error.
   */
  model?: string
  /**
   * The driver: `'native'`, `'claude-code'`, `'codex'` or a `Driver` object; overrides the config's `driver`. Default: the config's,
   * else whatever the plugins provide (the kernel's own loop unless one provides a `driver`).
   */
  driver?: DriverOption
  /** Overrides the config's `sessionsDir`. Default `<cwd>/.harness/sessions`. */
  sessionsDir?: string
  /**
   * Where sessions are kept instead of JSONL files in `sessionsDir`: a PostgreSQL URL (`postgres://…`, see
   * `@harness-kernel/store-postgres`). Default `HARNESS_STORE` from `env`, else the JSONL files.
   */
  store?: string
  /**
   * Where `HARNESS_MODEL` is read, and the environment a driven program (Claude Code, Codex) gets; the codex driver's
   * endpoint (`OPENAI_BASE_URL`) and key (`OPENAI_API_KEY`) are read here too. Default `process.env`.
   */
  env?: Record<string, string | undefined>
  /** Added after the configured plugins (the CLI's progress reporter, a transport, …). */
  plugins?: readonly Plugin[]
  /**
   * A `guardrails()` plugin (the CLI's `--sandbox`, `--ask-for-approval` and Codex's config): added after the configured
   * plugins, in place of a configured plugin of that name, so its policy is the one in force.
   */
  guardrails?: Plugin
  /** `false` composes without a model, e.g. to read sessions. Default `true`. */
  requireModel?: boolean
  /** Token and cost limits (the CLI's budget flags): each limit given replaces the config's limit of that name. */
  budgets?: Budgets
  /**
   * Options for the `codexHooks()` plugin of the default harness, or `false` to leave it out. A relative
   * `codexHome` resolves against `cwd`; by default it is `$CODEX_HOME`, else `~/.codex`, and the trust store
   * `$HARNESS_HOME/trust/codex.json`, both read from `env`.
   */
  codex?: CodexHooksOptions | false
  /**
   * Options for the `claudeCodeHooks()` plugin of the default harness, or `false` to leave it out. By default the
   * project is `cwd` and the config dir `$CLAUDE_CONFIG_DIR`, else `~/.claude`, read from `env` (as is the environment
   * hooks inherit); relative paths resolve against `cwd`.
   */
  claudeCode?: ClaudeCodeHooksOptions | false
  /**
   * The harness's settings file, the lowest config layer: the config file's keys win over its keys, and for `model`,
   * `HARNESS_MODEL` does too. Default `$HARNESS_HOME/config.json` (`~/.harness/config.json`), read from `env`; a path
   * reads another, `false` none.
   */
  settings?: string | false
}

export interface Harness {
  readonly kernel: Kernel
  readonly cwd: string
  readonly sessionsDir: string
  /** Where the sessions are, for messages: the session store's address (`--store`), else `sessionsDir`. */
  readonly sessionsAt: string
  /** The config file used, if any. */
  readonly configPath: string | undefined
  /** The settings file used, if there was one. */
  readonly settingsPath: string | undefined
  /** The config in effect: the config file's keys over the settings file's. */
  readonly config: HarnessConfig
  /** The model spec in effect, if any (with the claude-code or codex driver: that program's model name, if one was given). */
  readonly model: string | undefined
  /** The id of the driver in effect: `native` unless `--driver`, the config or a plugin chose another. */
  readonly driver: string
}

export const NO_MODEL_HINT = `pass ${MODEL_USAGE}, set "model" in harness.config.{mjs,js,ts,mts}, or set HARNESS_MODEL`

/** The hint, then every provider with the variables it reads and whether they are set. */
export function noModelMessage(env: Record<string, string | undefined>, lead = 'no model:'): string {
  return `${lead} ${NO_MODEL_HINT}. The providers:\n${modelOptionsHelp(env)}`
}

/**
 * Composes a kernel from a config and flags. Without config plugins: the defaults, `tools()`, `compaction()`, `subagents()` (on
 * the native loop), `codexHooks()`, `claudeCodeHooks()`, `mcp()` (when either program configures servers) and the model. With them: those plugins (the defaults are theirs to spread), plus the model plugin when a spec is in
 * effect (it is added last, so it wins). A chosen driver (`driver`, else the config's) is added after them as `useDriver()`; a driver
 * that brings its own model (claude-code, codex) needs no model plugin, and the model spec names its model instead. Resolves once every
 * plugin is set up.
 */
export async function createHarness(options: CreateHarnessOptions = {}): Promise<Harness> {
  const cwd = resolve(options.cwd ?? process.cwd())
  const env = options.env ?? process.env
  const loaded =
    typeof options.config === 'object' ? { path: undefined, config: options.config } : await loadConfig({ cwd, file: options.config })
  const configPath = loaded?.path
  const project: HarnessConfig = loaded?.config ?? {}
  const settings = options.settings === false ? undefined : loadSettings(options.settings ?? settingsPath(env))
  const config: HarnessConfig = { ...settings?.config, ...definedKeys(project) }
  const configWhere = configPath === undefined ? 'config' : `config ${configPath}`
  /** Where a key of `config` came from, for messages. */
  const where = (key: keyof HarnessConfig) =>
    project[key] === undefined && settings?.config[key] !== undefined ? `settings ${settings.path}` : configWhere
  const driverChoice = chosenDriver(options.driver, config.driver, where('driver'))
  const ownModel = driverChoice !== undefined && driverOwnsModel(driverChoice)
  const requireModel = (options.requireModel ?? true) && !ownModel
  let model: string | undefined
  let modelPlugin: Plugin | undefined
  if (ownModel && driverChoice !== undefined) {
    // The driven program samples its own model: `--model` (else the config's) names it; HARNESS_MODEL is not read.
    model = modelOfOwnDriver(driverChoice, options.model, config.model, where('model'))
  } else {
    model = options.model ?? project.model ?? (env.HARNESS_MODEL?.trim() || undefined) ?? settings?.config.model
    modelPlugin = requireModel && model !== undefined ? createModelPlugin(model, { cwd, env }) : undefined
  }
  const claudeCodeOptions = options.claudeCode === false ? undefined : defaultClaudeCodeHooksOptions(cwd, env, options.claudeCode ?? {})
  const claudeCodePermissions =
    driverChoice === 'claude-code' && claudeCodeOptions !== undefined ? drivenClaudeCodePermissions(claudeCodeOptions) : undefined
  // Before the driver: a driven Claude Code is told where the harness exports, to export its own telemetry there too.
  // A harness composed without a model (to read sessions) runs no turn: it loads no telemetry.
  const telemetryPlugin =
    options.requireModel === false
      ? undefined
      : await defaultTelemetryPlugin(cwd, env, options.codex === false ? undefined : (options.codex ?? {}))
  const driverObject =
    driverChoice === undefined
      ? undefined
      : typeof driverChoice === 'string'
        ? await drivers[driverChoice].create({
            cwd,
            env,
            ...(model === undefined ? {} : { model }),
            ...(claudeCodePermissions === undefined ? {} : { claudeCodePermissions }),
            ...(telemetryPlugin === undefined ? {} : { claudeCodeEnvironment: telemetryPlugin.claudeCodeEnvironment }),
          })
        : driverChoice
  const driverPlugin = driverObject === undefined ? undefined : useDriver(driverObject)
  const driverId = driverObject?.id ?? DEFAULT_DRIVER
  // Where the driver brings its own model, Codex's payloads name that model when it is known (else the dialect names the driver).
  const drivenModel = ownModel
    ? (model ?? (driverChoice === 'claude-code' ? env.ANTHROPIC_MODEL?.trim() || undefined : undefined))
    : undefined
  const codexDefaults = drivenModel === undefined ? {} : { model: drivenModel }
  const codexOptions = options.codex === false ? undefined : defaultCodexHooksOptions(cwd, env, { ...codexDefaults, ...options.codex })
  const codexPlugin = codexOptions === undefined ? undefined : codexHooks(codexOptions)
  const claudeCodePlugin = claudeCodeOptions === undefined ? undefined : claudeCodeHooks(claudeCodeOptions)
  const mcpPlugin = defaultMcpPlugin(cwd, env, { codex: codexOptions, claudeCode: claudeCodeOptions })
  // A driven program has subagents of its own; the kernel's loop gets Claude Code's Agent tool, or Codex's tools when
  // only Codex's hooks are in the harness.
  const subagentsPlugin =
    driverId === DEFAULT_DRIVER ? subagents({ tools: claudeCodePlugin === undefined && codexPlugin ? 'codex' : 'claude-code' }) : undefined
  const defaults = [
    tools(),
    compaction(),
    ...(subagentsPlugin ? [subagentsPlugin] : []),
    ...(codexPlugin ? [codexPlugin] : []),
    ...(claudeCodePlugin ? [claudeCodePlugin] : []),
    ...(mcpPlugin ? [mcpPlugin] : []),
    ...(modelPlugin ? [modelPlugin] : []),
  ]

  let plugins: Plugin[]
  if (config.plugins === undefined) {
    if (requireModel && !modelPlugin) throw new CliError(noModelMessage(env))
    plugins = defaults
  } else {
    let configured: readonly Plugin[]
    try {
      configured = typeof config.plugins === 'function' ? await config.plugins({ cwd, model, driver: driverId, defaults }) : config.plugins
    } catch (error) {
      throw new CliError(`${configWhere}: plugins(): ${errorMessage(error)}`, { cause: error })
    }
    if (!Array.isArray(configured)) throw new CliError(`${configWhere}: plugins() must return an array of plugins`)
    // The explicit model replaces a configured plugin of the same name instead of colliding with it.
    plugins = modelPlugin ? [...configured.filter((plugin) => plugin?.name !== modelPlugin.name), modelPlugin] : [...configured]
  }
  // The chosen driver replaces a configured `useDriver()` plugin (named `driver`), and comes after the rest so its service wins.
  if (driverPlugin) plugins = [...plugins.filter((plugin) => plugin?.name !== driverPlugin.name), driverPlugin]
  const guardrailsPlugin = options.guardrails
  if (guardrailsPlugin) plugins = [...plugins.filter((plugin) => plugin?.name !== guardrailsPlugin.name), guardrailsPlugin]

  const storeSpec = options.store ?? (env.HARNESS_STORE?.trim() || undefined)
  const store =
    storeSpec === undefined ? undefined : await sessionStorePlugin(storeSpec, options.store === undefined ? 'HARNESS_STORE' : '--store')
  if (store !== undefined) plugins = [...plugins.filter((plugin) => plugin?.name !== store.plugin.name), store.plugin]
  // OTEL_* (or Codex's [otel]) turns telemetry on under any config, unless the config composes its own.
  if (telemetryPlugin !== undefined && !plugins.some((plugin) => plugin?.name === telemetryPlugin.name))
    plugins = [...plugins, telemetryPlugin]

  const { plugins: _plugins, model: _model, driver: _driver, ...kernelOptions } = config
  const sessionsDir = options.sessionsDir ?? config.sessionsDir
  let kernel: Kernel
  try {
    kernel = createKernel([...plugins, ...(options.plugins ?? [])], {
      ...kernelOptions,
      ...(options.budgets === undefined ? {} : { budgets: withFlagBudgets(config.budgets, options.budgets) }),
      cwd,
      ...(sessionsDir === undefined ? {} : { sessionsDir: resolve(cwd, sessionsDir) }),
    })
  } catch (error) {
    throw new CliError(configPath === undefined ? errorMessage(error) : `${configWhere}: ${errorMessage(error)}`, { cause: error })
  }
  try {
    await kernel.ready
  } catch (error) {
    await kernel.dispose()
    throw error
  }
  const driver = driverChoice === undefined ? providedDriverId(kernel) : driverId
  const sessionsAt = store?.address ?? kernel.sessionsDir
  return { kernel, cwd, sessionsDir: kernel.sessionsDir, sessionsAt, configPath, settingsPath: settings?.path, config, model, driver }
}

/** The keys of a config that are set (a key given as `undefined` leaves the settings file's value in place). */
function definedKeys(config: HarnessConfig): HarnessConfig {
  return Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined)) as HarnessConfig
}

/** The id of the driver the plugins left in place (the kernel's default is the native one). */
function providedDriverId(kernel: Kernel): string {
  try {
    return kernel.resolve('driver').id
  } catch {
    return DEFAULT_DRIVER
  }
}

/** `--driver` (or the API's `driver`) over the config's; a name is checked against the drivers. */
function chosenDriver(flag: DriverOption | undefined, configured: DriverOption | undefined, where: string): DriverOption | undefined {
  if (flag !== undefined) {
    if (typeof flag === 'string') return parseDriverName(flag)
    if (!isDriverObject(flag)) throw new CliError('driver: expected a driver name or a Driver object')
    return flag
  }
  if (configured === undefined) return undefined
  return typeof configured === 'string' ? parseDriverName(configured, `${where}: "driver"`) : configured
}

/** The model name for a driver that brings its own model; only the drivers named by the CLI (claude-code, codex) take one from it. */
function modelOfOwnDriver(
  driver: DriverOption,
  flag: string | undefined,
  configured: string | undefined,
  where: string,
): string | undefined {
  const spec = flag ?? configured
  if (spec === undefined) return undefined
  const from = flag !== undefined ? '--model' : `${where}: "model"`
  if (driver === 'claude-code') return claudeCodeModelName(spec, from)
  if (driver === 'codex') return codexModelName(spec, from)
  const id = typeof driver === 'string' ? driver : driver.id
  throw new CliError(
    `${from} "${spec}": the ${id} driver given as an object brings its own model; set the model in its options instead (e.g. claudeCodeDriver({ model }) or codexDriver({ model }))`,
  )
}
