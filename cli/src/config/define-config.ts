import type { KernelOptions, Plugin } from '@harness-kernel/kernel'

/** What a `plugins` function receives. */
export interface ConfigContext {
  /** The harness's working directory. */
  cwd: string
  /** The model spec in effect (`--model`, else the config's `model`, else `HARNESS_MODEL`), if any. */
  model: string | undefined
  /**
   * The default harness: `tools()`, `codexHooks()` (with the CLI's `--codex-home` and trust flags), then the plugin
   * for `model` when there is one. Spread it to extend the default.
   */
  defaults: Plugin[]
}

export type PluginsOption = readonly Plugin[] | ((context: ConfigContext) => readonly Plugin[] | Promise<readonly Plugin[]>)

/** The default export of `harness.config.{mjs,js,ts,mts}`. */
export interface HarnessConfig extends Omit<KernelOptions, 'cwd'> {
  /** The composition. Without it the CLI composes the default harness (`tools()`, `codexHooks()` and the model). */
  plugins?: PluginsOption
  /** A model spec with the syntax of `--model` (`scripted:FILE`, …); `--model` overrides it. */
  model?: string
}

/** An identity helper that gives a config file its types. */
export function defineConfig(config: HarnessConfig): HarnessConfig {
  return config
}
