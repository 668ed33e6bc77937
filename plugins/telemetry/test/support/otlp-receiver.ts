import { createServer, type IncomingMessage, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import * as grpc from '@grpc/grpc-js'

/**
 * The OTLP messages as OpenTelemetry JS 0.216.0 generated them from the opentelemetry-proto files (protobufjs static
 * code, the last release that shipped it): decoding with it checks what the 0.223 exporters encode with their own
 * hand-written writer, independently of that writer.
 */
// biome-ignore lint/suspicious/noExplicitAny: generated protobufjs code without types in this package's build
const root = createRequire(import.meta.url)('@opentelemetry/otlp-transformer/build/src/generated/root') as any
const traceService = root.opentelemetry.proto.collector.trace.v1
const metricsService = root.opentelemetry.proto.collector.metrics.v1

/** A span as the collector received it. */
export interface ReceivedSpan {
  name: string
  traceId: string
  spanId: string
  parentSpanId: string
  kind: number
  startMs: number
  endMs: number
  attributes: Record<string, unknown>
  status: { code: number; message: string }
  resource: Record<string, unknown>
  scope: string
}

/** A metric data point as received: a counter's value, a histogram's count and sum. */
export interface ReceivedPoint {
  metric: string
  unit: string
  attributes: Record<string, unknown>
  value: number
  count: number
}

export interface ReceivedRequest {
  path: string
  contentType: string
  headers: Record<string, string | string[] | undefined>
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:PORT`: the value of OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string
  readonly spans: ReceivedSpan[]
  readonly points: ReceivedPoint[]
  readonly requests: ReceivedRequest[]
  /** Resolves once `ready()` holds for what was received (checked at every request that arrives). */
  until(ready: (receiver: OtlpReceiver) => boolean): Promise<void>
  close(): Promise<void>
}

class Received {
  readonly spans: ReceivedSpan[] = []
  readonly points: ReceivedPoint[] = []
  readonly requests: ReceivedRequest[] = []
  readonly #waiters = new Set<() => void>()

  arrived(): void {
    for (const check of [...this.#waiters]) check()
  }

  until(receiver: OtlpReceiver, ready: (receiver: OtlpReceiver) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!ready(receiver)) return
        this.#waiters.delete(check)
        resolve()
      }
      this.#waiters.add(check)
      check()
    })
  }
}

/** An OTLP/HTTP collector on loopback: `/v1/traces` and `/v1/metrics`, protobuf or JSON bodies, as the content type says. */
export async function startOtlpHttpReceiver(options: { status?: number; answer?: boolean } = {}): Promise<OtlpReceiver> {
  const received = new Received()
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request)
    const contentType = request.headers['content-type'] ?? ''
    received.requests.push({ path: request.url ?? '', contentType, headers: request.headers })
    if (options.answer === false) {
      // A collector that takes the request and never answers: the exporter's timeout is what ends it.
      received.arrived()
      return
    }
    if (options.status !== undefined && options.status !== 200) {
      response.writeHead(options.status, { 'content-type': 'text/plain' }).end('refused by the test')
      received.arrived()
      return
    }
    const json = contentType.includes('json')
    if (request.url === '/v1/traces') {
      const message = json ? JSON.parse(body.toString('utf8')) : toObject(traceService.ExportTraceServiceRequest, body)
      received.spans.push(...spansOf(message))
    } else if (request.url === '/v1/metrics') {
      const message = json ? JSON.parse(body.toString('utf8')) : toObject(metricsService.ExportMetricsServiceRequest, body)
      received.points.push(...pointsOf(message))
    } else {
      response.writeHead(404).end()
      received.arrived()
      return
    }
    if (json) response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    else response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(Buffer.alloc(0))
    received.arrived()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const receiver: OtlpReceiver = {
    url: `http://127.0.0.1:${port}`,
    spans: received.spans,
    points: received.points,
    requests: received.requests,
    until: (ready) => received.until(receiver, ready),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return receiver
}

/** An OTLP/gRPC collector on loopback: the TraceService and MetricsService `Export` methods, over @grpc/grpc-js. */
export async function startOtlpGrpcReceiver(): Promise<OtlpReceiver> {
  const received = new Received()
  const server = new grpc.Server()
  const unary = (path: string, request: { decode(buffer: Uint8Array): unknown }, onMessage: (message: unknown) => void) => ({
    Export: {
      path,
      requestStream: false,
      responseStream: false,
      requestSerialize: () => Buffer.alloc(0),
      requestDeserialize: (buffer: Buffer) => request.decode(buffer),
      responseSerialize: () => Buffer.alloc(0),
      responseDeserialize: () => ({}),
      originalName: 'Export',
    },
    handler: (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      received.requests.push({ path, contentType: 'application/grpc', headers: call.metadata.getMap() as Record<string, string> })
      onMessage(call.request)
      callback(null, {})
      received.arrived()
    },
  })
  const traces = unary('/opentelemetry.proto.collector.trace.v1.TraceService/Export', traceService.ExportTraceServiceRequest, (message) =>
    received.spans.push(...spansOf(traceService.ExportTraceServiceRequest.toObject(message, TO_OBJECT))),
  )
  const metrics = unary(
    '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export',
    metricsService.ExportMetricsServiceRequest,
    (message) => received.points.push(...pointsOf(metricsService.ExportMetricsServiceRequest.toObject(message, TO_OBJECT))),
  )
  server.addService({ Export: traces.Export } as grpc.ServiceDefinition, { Export: traces.handler })
  server.addService({ Export: metrics.Export } as grpc.ServiceDefinition, { Export: metrics.handler })
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  )
  const receiver: OtlpReceiver = {
    url: `http://127.0.0.1:${port}`,
    spans: received.spans,
    points: received.points,
    requests: received.requests,
    until: (ready) => received.until(receiver, ready),
    close: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  }
  return receiver
}

const TO_OBJECT = { longs: String, enums: Number, bytes: Array, oneofs: true }

function toObject(type: { decode(buffer: Uint8Array): unknown; toObject(message: unknown, options: unknown): unknown }, body: Buffer) {
  return type.toObject(type.decode(body), TO_OBJECT)
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks)))
    request.on('error', reject)
  })
}

// biome-ignore lint/suspicious/noExplicitAny: decoded OTLP, JSON or protobuf, walked by field name
type Decoded = any

function spansOf(message: Decoded): ReceivedSpan[] {
  const spans: ReceivedSpan[] = []
  for (const resourceSpans of message.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes)
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        spans.push({
          name: span.name,
          traceId: hex(span.traceId),
          spanId: hex(span.spanId),
          parentSpanId: hex(span.parentSpanId),
          kind: Number(span.kind ?? 0),
          startMs: Number(BigInt(span.startTimeUnixNano) / 1000n) / 1000,
          endMs: Number(BigInt(span.endTimeUnixNano) / 1000n) / 1000,
          attributes: attributesOf(span.attributes),
          status: { code: Number(span.status?.code ?? 0), message: span.status?.message ?? '' },
          resource,
          scope: scopeSpans.scope?.name ?? '',
        })
      }
    }
  }
  return spans
}

function pointsOf(message: Decoded): ReceivedPoint[] {
  const points: ReceivedPoint[] = []
  for (const resourceMetrics of message.resourceMetrics ?? []) {
    for (const scopeMetrics of resourceMetrics.scopeMetrics ?? []) {
      for (const metric of scopeMetrics.metrics ?? []) {
        for (const point of metric.sum?.dataPoints ?? []) {
          const value = Number(point.asDouble ?? point.asInt ?? 0)
          points.push({ metric: metric.name, unit: metric.unit, attributes: attributesOf(point.attributes), value, count: 1 })
        }
        for (const point of metric.histogram?.dataPoints ?? []) {
          points.push({
            metric: metric.name,
            unit: metric.unit,
            attributes: attributesOf(point.attributes),
            value: Number(point.sum ?? 0),
            count: Number(point.count ?? 0),
          })
        }
      }
    }
  }
  return points
}

function attributesOf(list: Decoded[] | undefined): Record<string, unknown> {
  const attributes: Record<string, unknown> = {}
  for (const { key, value } of list ?? []) attributes[key] = anyValue(value)
  return attributes
}

function anyValue(value: Decoded): unknown {
  if (value === undefined || value === null) return undefined
  // Protobuf (`oneofs: true`) names the field set in `value`; OTLP/JSON carries only that field.
  const kind: string | undefined = value.value ?? Object.keys(value).find((key) => key.endsWith('Value'))
  if (kind === undefined) return undefined
  const field = value[kind]
  if (kind === 'intValue' || kind === 'doubleValue') return Number(field)
  if (kind === 'arrayValue') return (field?.values ?? []).map(anyValue)
  if (kind === 'kvlistValue') return attributesOf(field?.values)
  return field
}

/** Ids are hex in OTLP/JSON and bytes in protobuf. */
function hex(id: unknown): string {
  if (id === undefined || id === null) return ''
  if (typeof id === 'string') return id
  return Buffer.from(id as number[]).toString('hex')
}
