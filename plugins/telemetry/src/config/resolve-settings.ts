import { type CodexOtelBlock, type CodexOtelSettings, parseCodexOtel } from './codex-otel.js'
import type { ContentCapture, ExportConfig } from './export-config.js'
import {
  contentCaptureFromEnvironment,
  type Environment,
  environmentRequestsExport,
  exportConfigFromEnvironment,
  resourceFromEnvironment,
  sdkDisabled,
} from './otel-environment.js'
import { TelemetryConfigError } from './telemetry-config-error.js'

export interface SettingsInput {
  env: Environment
  codexOtel: CodexOtelBlock | undefined
  /** True when the caller brings its own providers: nothing is exported by the plugin. */
  ownProviders: boolean
  capture: Partial<ContentCapture> | undefined
}

export interface TelemetrySettings {
  /** Undefined when the caller's providers are used. */
  export: ExportConfig | undefined
  resource: { serviceName: string; attributes: Record<string, string> }
  spanAttributes: Record<string, string>
  capture: ContentCapture
  /** Warnings about settings that were read but not used. */
  warnings: string[]
}

export type SettingsOutcome = { on: TelemetrySettings } | { off: { level: 'info' | 'warning'; text: string } }

/**
 * The settings in force. The environment's `OTEL_*` come first (the standard, and what a user exports for one run);
 * Codex's `[otel]` block is the exporter when no `OTEL_*` variable names one. A setting that cannot be used turns
 * telemetry off with a notice naming it; the run goes on.
 */
export function resolveSettings(input: SettingsInput): SettingsOutcome {
  const { env } = input
  if (sdkDisabled(env) && !input.ownProviders) return { off: { level: 'info', text: 'telemetry is off: OTEL_SDK_DISABLED=true' } }
  const warnings: string[] = []
  const fromEnvironment = environmentRequestsExport(env)
  let codex: CodexOtelSettings | undefined
  try {
    codex = input.codexOtel === undefined ? undefined : parseCodexOtel(input.codexOtel)
  } catch (error) {
    if (!(error instanceof TelemetryConfigError)) throw error
    // Only used where no OTEL_* variable names an exporter: then it is the configuration at fault.
    if (!fromEnvironment && !input.ownProviders) return off(error)
    warnings.push(`Codex's [otel] block is not used: ${error.message}`)
  }
  try {
    const resource = resourceFromEnvironment(env)
    if (codex?.environment !== undefined && resource.attributes['deployment.environment.name'] === undefined) {
      resource.attributes['deployment.environment.name'] = codex.environment
    }
    const fromCodex = !fromEnvironment && codex?.export !== undefined
    const exportConfig = input.ownProviders ? undefined : fromCodex ? codex?.export : exportConfigFromEnvironment(env)
    const captured = contentCaptureFromEnvironment(env)
    return {
      on: {
        export: exportConfig,
        resource,
        spanAttributes: codex?.spanAttributes ?? {},
        capture: {
          prompts: input.capture?.prompts ?? captured?.prompts ?? codex?.capture.prompts ?? false,
          outputs: input.capture?.outputs ?? captured?.outputs ?? codex?.capture.outputs ?? false,
        },
        warnings,
      },
    }
  } catch (error) {
    if (!(error instanceof TelemetryConfigError)) throw error
    return off(error)
  }
}

function off(error: TelemetryConfigError): SettingsOutcome {
  return { off: { level: 'warning', text: `telemetry is off: ${error.message}` } }
}
