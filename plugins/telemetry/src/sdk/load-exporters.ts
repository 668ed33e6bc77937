import type { PushMetricExporter } from '@opentelemetry/sdk-metrics'
import type { SpanExporter } from '@opentelemetry/sdk-trace'
import type { SignalExport } from '../config/export-config.js'
import { commonJs } from './common-js.js'

/**
 * The official OTLP exporter for a signal's protocol, loaded only now: each protocol's package (protobuf, JSON, gRPC
 * with `@grpc/grpc-js`) stays off the start-up path and out of runs that do not use it.
 */
export async function loadSpanExporter(signal: SignalExport): Promise<SpanExporter> {
  switch (signal.protocol) {
    case 'http/protobuf': {
      const { OTLPTraceExporter } = await commonJs(import('@opentelemetry/exporter-trace-otlp-proto'))
      return new OTLPTraceExporter(httpOptions(signal))
    }
    case 'http/json': {
      const { OTLPTraceExporter } = await commonJs(import('@opentelemetry/exporter-trace-otlp-http'))
      return new OTLPTraceExporter(httpOptions(signal))
    }
    case 'grpc': {
      const [{ OTLPTraceExporter }, options] = await Promise.all([
        commonJs(import('@opentelemetry/exporter-trace-otlp-grpc')),
        grpcOptions(signal),
      ])
      return new OTLPTraceExporter(options)
    }
  }
}

export async function loadMetricExporter(signal: SignalExport): Promise<PushMetricExporter> {
  switch (signal.protocol) {
    case 'http/protobuf': {
      const { OTLPMetricExporter } = await commonJs(import('@opentelemetry/exporter-metrics-otlp-proto'))
      return new OTLPMetricExporter(httpOptions(signal))
    }
    case 'http/json': {
      const { OTLPMetricExporter } = await commonJs(import('@opentelemetry/exporter-metrics-otlp-http'))
      return new OTLPMetricExporter(httpOptions(signal))
    }
    case 'grpc': {
      const [{ OTLPMetricExporter }, options] = await Promise.all([
        commonJs(import('@opentelemetry/exporter-metrics-otlp-grpc')),
        grpcOptions(signal),
      ])
      return new OTLPMetricExporter(options)
    }
  }
}

type Compression = NonNullable<
  ConstructorParameters<typeof import('@opentelemetry/exporter-trace-otlp-proto').OTLPTraceExporter>[0]
>['compression']

function httpOptions(signal: SignalExport) {
  return {
    url: signal.url,
    headers: signal.headers,
    timeoutMillis: signal.timeoutMillis,
    ...(signal.compression === undefined ? {} : { compression: signal.compression as Compression }),
  }
}

/** gRPC carries headers as metadata. */
async function grpcOptions(signal: SignalExport) {
  const { Metadata } = await commonJs(import('@grpc/grpc-js'))
  const metadata = new Metadata()
  for (const [key, value] of Object.entries(signal.headers)) metadata.set(key, value)
  return {
    url: signal.url,
    metadata,
    timeoutMillis: signal.timeoutMillis,
    ...(signal.compression === undefined ? {} : { compression: signal.compression as Compression }),
  }
}
