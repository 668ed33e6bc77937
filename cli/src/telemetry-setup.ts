import { resolve } from 'node:path'
import { type CodexHooksOptions, loadCodexOtel } from '@harness-kernel/codex'
import { telemetryRequested } from '@harness-kernel/telemetry/requested'

/** What the default harness needs of the telemetry plugin (its type, without loading its package). */
export type DefaultTelemetry = import('@harness-kernel/telemetry').TelemetryPlugin

/**
 * The default harness's telemetry: on when the environment names an OTLP exporter (`OTEL_EXPORTER_OTLP_ENDPOINT`, …) or
 * the user's Codex `[otel]` block names a trace or metrics exporter (read while Codex's hooks are in the harness).
 * Only then is `@harness-kernel/telemetry` loaded, and it loads the OpenTelemetry SDK itself: a run without telemetry
 * loads none of it.
 */
export async function defaultTelemetryPlugin(
  cwd: string,
  env: Record<string, string | undefined>,
  codex: CodexHooksOptions | undefined,
): Promise<DefaultTelemetry | undefined> {
  const codexOtel =
    codex === undefined
      ? undefined
      : loadCodexOtel({
          cwd,
          env,
          ...(codex.codexHome === undefined ? {} : { codexHome: resolve(cwd, codex.codexHome) }),
          ...(codex.sessionFlags === undefined ? {} : { sessionFlags: codex.sessionFlags }),
        })
  if (!telemetryRequested(env, codexOtel?.table)) return undefined
  const { telemetry } = await import('@harness-kernel/telemetry')
  return telemetry({ env, ...(codexOtel === undefined ? {} : { codexOtel }) })
}
