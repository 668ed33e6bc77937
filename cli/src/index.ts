export { CliError } from './cli-error.js'
export type { ConfigContext, HarnessConfig, PluginsOption } from './config/define-config.js'
export { defineConfig } from './config/define-config.js'
export { CONFIG_FILES, findConfigFile, type LoadConfigOptions, type LoadedConfig, loadConfig } from './config/load-config.js'
export { type LoadedSettings, loadSettings, settingsPath } from './config/settings-file.js'
export { type CreateHarnessOptions, createHarness, type Harness } from './create-harness.js'
export {
  type DriverContext,
  type DriverEntry,
  type DriverName,
  type DriverOption,
  driverOptionsHelp,
  drivers,
  parseDriverName,
} from './driver-spec.js'
export { EXIT, exitCodeForStatus } from './exit-codes.js'
export type { CliIo } from './io.js'
export { runCli } from './main.js'
export {
  createModelPlugin,
  type ModelContext,
  type ModelProviderEntry,
  type ModelSpec,
  modelOptionsHelp,
  modelProviders,
  parseModelSpec,
} from './model-spec.js'
export { type ProgressReporterOptions, progressReporter } from './progress-reporter.js'
