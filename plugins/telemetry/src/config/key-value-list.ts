import { TelemetryConfigError } from './telemetry-config-error.js'

/**
 * `key1=value1,key2=value2`, as `OTEL_EXPORTER_OTLP_HEADERS` and `OTEL_RESOURCE_ATTRIBUTES` carry them: keys and values
 * trimmed and percent-decoded (W3C Baggage octets). Where the SDK skips an entry it cannot read, this names it: a
 * header the user counted on (a token) must not go missing without a word. Entries are named by position, never
 * quoted, since a header's value may be a secret.
 */
export function parseKeyValueList(setting: string, text: string): Record<string, string> {
  const pairs: Record<string, string> = {}
  const entries = text.split(',')
  for (const [index, entry] of entries.entries()) {
    if (entry.trim() === '') continue
    const where = `entry ${index + 1} of ${entries.length}`
    const eq = entry.indexOf('=')
    if (eq < 0) throw new TelemetryConfigError(setting, `${where} has no '=': expected key=value pairs separated by commas`)
    const key = decode(setting, where, entry.slice(0, eq).trim())
    if (key === '') throw new TelemetryConfigError(setting, `${where} has no key before its '='`)
    pairs[key] = decode(setting, where, entry.slice(eq + 1).trim())
  }
  return pairs
}

function decode(setting: string, where: string, text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    throw new TelemetryConfigError(setting, `${where} is not valid percent-encoding (a literal % is written %25)`)
  }
}
