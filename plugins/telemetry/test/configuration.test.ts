import { describe, expect, it } from 'vitest'
import { claudeCodeEnvironment } from '../src/claude-code-environment.js'
import { parseCodexOtel } from '../src/config/codex-otel.js'
import { exportConfigFromEnvironment, resourceFromEnvironment } from '../src/config/otel-environment.js'
import { telemetryRequested } from '../src/config/telemetry-requested.js'
import { TelemetryConfigError } from '../src/index.js'
import { CONTENT_LIMIT, capped } from '../src/trace/captured-content.js'

describe('OTEL_* as the OpenTelemetry SDK reads them', () => {
  it("defaults: OTLP/HTTP protobuf to localhost, each signal's path appended to the shared endpoint", () => {
    const config = exportConfigFromEnvironment({})
    expect(config.traces).toEqual({
      url: 'http://localhost:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      timeoutMillis: 10_000,
      compression: undefined,
    })
    expect(config.metrics?.url).toBe('http://localhost:4318/v1/metrics')
    expect(config.batch).toMatchObject({ maxQueueSize: 2048, maxExportBatchSize: 512, scheduledDelayMillis: 5000 })
  })

  it("a signal's own variables win over the shared ones; its endpoint is used as written; gRPC takes the address alone", () => {
    const config = exportConfigFromEnvironment({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example:4318/base/',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=shared,tenant=a%20b',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'api-key=traces',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://metrics.example:9000/custom',
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
      OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip',
    })
    expect(config.traces).toMatchObject({
      url: 'https://collector.example:4318/base/v1/traces',
      headers: { 'api-key': 'traces', tenant: 'a b' },
      timeoutMillis: 2500,
      compression: 'gzip',
    })
    expect(config.metrics).toMatchObject({
      url: 'http://metrics.example:9000/custom',
      protocol: 'http/json',
      headers: { 'api-key': 'shared' },
    })
    expect(exportConfigFromEnvironment({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).traces?.url).toBe('http://localhost:4317')
  })

  it('none turns a signal off; an empty variable counts as unset', () => {
    const config = exportConfigFromEnvironment({
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_TRACES_EXPORTER: '',
      OTEL_EXPORTER_OTLP_PROTOCOL: ' ',
    })
    expect(config.metrics).toBeUndefined()
    expect(config.traces?.protocol).toBe('http/protobuf')
  })

  it('OTEL_SERVICE_NAME over service.name in OTEL_RESOURCE_ATTRIBUTES; the rest are resource attributes', () => {
    expect(resourceFromEnvironment({ OTEL_RESOURCE_ATTRIBUTES: 'service.name=a,host.role=ci' })).toEqual({
      serviceName: 'a',
      attributes: { 'host.role': 'ci' },
    })
    expect(resourceFromEnvironment({ OTEL_SERVICE_NAME: 'b', OTEL_RESOURCE_ATTRIBUTES: 'service.name=a' }).serviceName).toBe('b')
    expect(resourceFromEnvironment({}).serviceName).toBe('harness')
  })

  it.each([
    ['OTEL_BSP_MAX_QUEUE_SIZE', '0', 'expected a whole number'],
    ['OTEL_EXPORTER_OTLP_TIMEOUT', '1.5s', 'expected a whole number'],
    ['OTEL_EXPORTER_OTLP_COMPRESSION', 'zstd', 'expected gzip or none'],
    ['OTEL_METRICS_EXPORTER', 'prometheus', 'not "prometheus"'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'ftp://x', 'expected an http:// or https:// URL'],
  ])('%s=%s is refused with the variable named', (name, value, problem) => {
    expect(() => exportConfigFromEnvironment({ [name]: value })).toThrow(
      new RegExp(`^${name}: .*${problem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    )
    try {
      exportConfigFromEnvironment({ [name]: value })
    } catch (error) {
      expect(error).toBeInstanceOf(TelemetryConfigError)
      expect((error as TelemetryConfigError).setting).toBe(name)
    }
  })

  it('a batch larger than the queue is refused: a batch is taken from the queue', () => {
    expect(() => exportConfigFromEnvironment({ OTEL_BSP_MAX_QUEUE_SIZE: '10', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '20' })).toThrow(
      'OTEL_BSP_MAX_EXPORT_BATCH_SIZE: 20 is above OTEL_BSP_MAX_QUEUE_SIZE (10)',
    )
  })
})

describe("Codex's [otel] block", () => {
  const source = '/home/user/.codex/config.toml'

  it('otlp-grpc for metrics, statsig and none export nothing, the flags and span attributes are read', () => {
    const settings = parseCodexOtel({
      source,
      table: {
        metrics_exporter: { 'otlp-grpc': { endpoint: 'http://collector:4317', headers: { authorization: 'Bearer t' } } },
        trace_exporter: 'none',
        exporter: 'statsig',
        log_agent_responses: true,
        span_attributes: { team: 'x' },
        tracestate: { vendor: { k: 'v' } },
      },
    })
    expect(settings.export?.traces).toBeUndefined()
    expect(settings.export?.metrics).toEqual({
      url: 'http://collector:4317',
      protocol: 'grpc',
      headers: { authorization: 'Bearer t' },
      timeoutMillis: 10_000,
      compression: undefined,
    })
    expect(settings.export?.source).toBe(source)
    expect(settings.capture).toEqual({ outputs: true })
    expect(settings.spanAttributes).toEqual({ team: 'x' })
  })

  it.each([
    [{ trace_exporter: 'otlp-http' }, '[otel] trace_exporter in', 'expected "none", "statsig", { otlp-http = { … } }'],
    [{ trace_exporter: { zipkin: {} } }, '[otel] trace_exporter in', 'unknown exporter "zipkin"'],
    [{ trace_exporter: { 'otlp-http': { endpoint: 'x', protocol: 'binary' } } }, '[otel] trace_exporter.otlp-http.endpoint in', 'http://'],
    [
      { trace_exporter: { 'otlp-grpc': { endpoint: 'http://c', tls: { 'ca-certificate': 'ca.pem' } } } },
      'otlp-grpc.tls in',
      'OTEL_EXPORTER_OTLP_CERTIFICATE',
    ],
    [{ headers_helper: '/bin/helper' }, '[otel] headers_helper in', 'OTEL_EXPORTER_OTLP_HEADERS'],
    [{ log_user_prompt: 'yes' }, '[otel] log_user_prompt in', 'expected true or false'],
  ])('%j is refused, naming the key and the file', (table, where, problem) => {
    expect(() => parseCodexOtel({ source, table })).toThrow(`${where} ${source}`)
    expect(() => parseCodexOtel({ source, table })).toThrow(problem)
  })
})

describe('telemetryRequested: what turns the default harness on', () => {
  it.each([
    [{}, undefined, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, undefined, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }, undefined, true],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, undefined, true],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_SERVICE_NAME: 'x' }, undefined, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'TRUE' }, undefined, false],
    [{}, { exporter: { 'otlp-http': {} } }, false],
    [{}, { metrics_exporter: 'statsig', trace_exporter: 'none' }, false],
    [{}, { trace_exporter: { 'otlp-http': {} } }, true],
    [{}, 'not a table', true],
  ])('%j with [otel] %j → %s', (env, otel, expected) => {
    expect(telemetryRequested(env, otel)).toBe(expected)
  })
})

describe('the environment a driven Claude Code gets', () => {
  const exported = exportConfigFromEnvironment({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
    OTEL_EXPORTER_OTLP_HEADERS: 'k=v 1',
  })
  const sessionIds = { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8) }

  it("its exporters, endpoints and protocol, its spans under the session's (TRACEPARENT); the user's own values stay", () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_METRICS_EXPORTER: 'none' }
    const forwarded = claudeCodeEnvironment({ env, exported, capture: { prompts: true, outputs: false }, sessionIds })
    expect(forwarded).toMatchObject({
      CLAUDE_CODE_ENABLE_TELEMETRY: '1',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'k=v%201',
      OTEL_LOGS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://127.0.0.1:4318/v1/logs',
      OTEL_LOG_USER_PROMPTS: '1',
      TRACEPARENT: `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`,
    })
    expect(forwarded).not.toHaveProperty('OTEL_METRICS_EXPORTER')
    expect(forwarded).not.toHaveProperty('OTEL_LOG_TOOL_DETAILS')
  })

  it('nothing when the harness exports nothing itself', () => {
    expect(claudeCodeEnvironment({ env: {}, exported: undefined, capture: { prompts: true, outputs: true }, sessionIds })).toEqual({})
  })
})

describe('captured content', () => {
  it('a text over 16 KiB keeps its first 16 KiB and says how much was left out', () => {
    const text = `${'a'.repeat(CONTENT_LIMIT)}${'b'.repeat(10)}`
    expect(capped(text)).toBe(`${'a'.repeat(CONTENT_LIMIT)}…[10 more characters]`)
    expect(capped('short')).toBe('short')
  })
})
