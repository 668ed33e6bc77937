import type { KernelOptions, Plugin } from '@harness-kernel/kernel'
import type { DriverOption } from '../driver-spec.js'

/** What a `plugins` function receives. */
export interface ConfigContext {
  /** The harness's working directory. */
  cwd: string
  /**
   * The model in effect, if any. On the native driver: the spec (`--model`, else the config's `model`, else
   * `HARNESS_MODEL`). On the claude-code or codex driver: that program's model name (`--model`, else the config's `model`).
   */
  model: string | undefined
  /** The id of the driver in effect (`--driver`, else the config's `driver`): `native`, `claude-code`, `codex`, or a config driver's id. */
  driver: string
  /**
   * The default harness: `tools()`, `codexHooks()` (with the CLI's `--codex-home` and trust flags), `claudeCodeHooks()`
   * (with `--claude-config-dir`), then the plugin for `model` when the driver samples the kernel's model and a spec is in
   * effect. Spread it to extend the default. The driver's plugin is not in it: the CLI adds it after the configured plugins.
   */
  defaults: Plugin[]
}

export type PluginsOption = readonly Plugin[] | ((context: ConfigContext) => readonly Plugin[] | Promise<readonly Plugin[]>)

/** The default export of `harness.config.{mjs,js,ts,mts}`. */
export interface HarnessConfig extends Omit<KernelOptions, 'cwd'> {
  /** The composition. Without it the CLI composes the default harness (`tools()`, `codexHooks()`, `claudeCodeHooks()` and the model). */
  plugins?: PluginsOption
  /**
   * A model spec with the syntax of `--model` (`scripted:FILE`, …); `--model` overrides it. With the claude-code driver,
   * Claude Code's model name (`claude-sonnet-4-5`, or `anthropic:claude-sonnet-4-5`); with the codex driver, Codex's
   * (`openai:gpt-5.1-codex`, or `gpt-5.1-codex`).
   */
  model?: string
  /**
   * The driver that runs each turn: `'native'` (the kernel's own loop, the default), `'claude-code'` (each turn runs inside
   * Claude Code), `'codex'` (each turn runs inside Codex), or a `Driver` object (e.g. `claudeCodeDriver({ ... })` or
   * `codexDriver({ ... })` with options of your own). `--driver` overrides it.
   */
  driver?: DriverOption
}

/** An identity helper that gives a config file its types. */
export function defineConfig(config: HarnessConfig): HarnessConfig {
  return config
}
