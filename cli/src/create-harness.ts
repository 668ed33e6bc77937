import { resolve } from 'node:path'
import { type ClaudeCodeHooksOptions, claudeCodeHooks } from '@harness-kernel/claude-code'
import { type CodexHooksOptions, codexHooks } from '@harness-kernel/codex'
import { createKernel, errorMessage, type Kernel, type Plugin } from '@harness-kernel/kernel'
import { tools } from '@harness-kernel/tools'
import { defaultClaudeCodeHooksOptions } from './claude-code/claude-code-setup.js'
import { CliError } from './cli-error.js'
import { defaultCodexHooksOptions } from './codex/codex-setup.js'
import type { HarnessConfig } from './config/define-config.js'
import { loadConfig } from './config/load-config.js'
import { createModelPlugin, MODEL_USAGE, modelOptionsHelp } from './model-spec.js'

export interface CreateHarnessOptions {
  /** The harness's working directory; relative paths below resolve against it. Default `process.cwd()`. */
  cwd?: string
  /** A config file, or a config object. Default: the first of `harness.config.{mjs,js,ts,mts}` in `cwd`, if any. */
  config?: string | HarnessConfig
  /** A model spec (`scripted:FILE`, …); overrides the config's `model` and `HARNESS_MODEL`. */
  model?: string
  /** Overrides the config's `sessionsDir`. Default `<cwd>/.harness/sessions`. */
  sessionsDir?: string
  /** Where `HARNESS_MODEL` is read. Default `process.env`. */
  env?: Record<string, string | undefined>
  /** Added after the configured plugins (the CLI's progress reporter, a transport, …). */
  plugins?: readonly Plugin[]
  /** `false` composes without a model, e.g. to read sessions. Default `true`. */
  requireModel?: boolean
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
}

export interface Harness {
  readonly kernel: Kernel
  readonly cwd: string
  readonly sessionsDir: string
  /** The config file used, if any. */
  readonly configPath: string | undefined
  readonly config: HarnessConfig
  /** The model spec in effect, if any. */
  readonly model: string | undefined
}

export const NO_MODEL_HINT = `pass ${MODEL_USAGE}, set "model" in harness.config.{mjs,js,ts,mts}, or set HARNESS_MODEL`

/** The hint, then every provider with the variables it reads and whether they are set. */
export function noModelMessage(env: Record<string, string | undefined>, lead = 'no model:'): string {
  return `${lead} ${NO_MODEL_HINT}. The providers:\n${modelOptionsHelp(env)}`
}

/**
 * Composes a kernel from a config and flags. Without config plugins: the defaults, `tools()`, `codexHooks()`,
 * `claudeCodeHooks()` and the model. With them: those plugins (the defaults are theirs to spread), plus the model plugin when a spec is in
 * effect (it is added last, so it wins). Resolves once every plugin is set up.
 */
export async function createHarness(options: CreateHarnessOptions = {}): Promise<Harness> {
  const cwd = resolve(options.cwd ?? process.cwd())
  const env = options.env ?? process.env
  const loaded =
    typeof options.config === 'object' ? { path: undefined, config: options.config } : await loadConfig({ cwd, file: options.config })
  const configPath = loaded?.path
  const config: HarnessConfig = loaded?.config ?? {}
  const model = options.model ?? config.model ?? (env.HARNESS_MODEL?.trim() || undefined)
  const requireModel = options.requireModel ?? true
  const modelPlugin = requireModel && model !== undefined ? createModelPlugin(model, { cwd, env }) : undefined
  const codexPlugin = options.codex === false ? undefined : codexHooks(defaultCodexHooksOptions(cwd, env, options.codex ?? {}))
  const claudeCodePlugin =
    options.claudeCode === false ? undefined : claudeCodeHooks(defaultClaudeCodeHooksOptions(cwd, env, options.claudeCode ?? {}))
  const defaults = [
    tools(),
    ...(codexPlugin ? [codexPlugin] : []),
    ...(claudeCodePlugin ? [claudeCodePlugin] : []),
    ...(modelPlugin ? [modelPlugin] : []),
  ]
  const where = configPath === undefined ? 'config' : `config ${configPath}`

  let plugins: Plugin[]
  if (config.plugins === undefined) {
    if (requireModel && !modelPlugin) throw new CliError(noModelMessage(env))
    plugins = defaults
  } else {
    let configured: readonly Plugin[]
    try {
      configured = typeof config.plugins === 'function' ? await config.plugins({ cwd, model, defaults }) : config.plugins
    } catch (error) {
      throw new CliError(`${where}: plugins(): ${errorMessage(error)}`, { cause: error })
    }
    if (!Array.isArray(configured)) throw new CliError(`${where}: plugins() must return an array of plugins`)
    // The explicit model replaces a configured plugin of the same name instead of colliding with it.
    plugins = modelPlugin ? [...configured.filter((plugin) => plugin?.name !== modelPlugin.name), modelPlugin] : [...configured]
  }

  const { plugins: _plugins, model: _model, ...kernelOptions } = config
  const sessionsDir = options.sessionsDir ?? config.sessionsDir
  let kernel: Kernel
  try {
    kernel = createKernel([...plugins, ...(options.plugins ?? [])], {
      ...kernelOptions,
      cwd,
      ...(sessionsDir === undefined ? {} : { sessionsDir: resolve(cwd, sessionsDir) }),
    })
  } catch (error) {
    throw new CliError(configPath === undefined ? errorMessage(error) : `${where}: ${errorMessage(error)}`, { cause: error })
  }
  try {
    await kernel.ready
  } catch (error) {
    await kernel.dispose()
    throw error
  }
  return { kernel, cwd, sessionsDir: kernel.sessionsDir, configPath, config, model }
}
