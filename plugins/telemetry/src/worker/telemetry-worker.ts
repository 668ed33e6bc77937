import { setTimeout as sleep } from 'node:timers/promises'
import { parentPort, workerData } from 'node:worker_threads'
import { ProxyTracerProvider } from '@opentelemetry/api'
import { ExportHealth } from '../sdk/export-health.js'
import { type Pipeline, startPipeline } from '../sdk/start-pipeline.js'
import { epochNow } from '../trace/epoch-now.js'
import { createInstruments } from '../trace/instruments.js'
import type { SessionInfo } from '../trace/session-info.js'
import { SessionTraces } from '../trace/session-traces.js'
import type { TraceScope } from '../trace/trace-scope.js'
import { PresetIdGenerator } from './preset-id-generator.js'
import type { FeedItem, FromWorker, ToWorker, WorkerSettings } from './worker-messages.js'

// The export thread: the OpenTelemetry SDK, the spans and metrics derived from the sessions' events, and the OTLP
// exporter all run here, beside the thread that runs the turns. It imports no kernel code, only types of it.

const SCOPE_NAME = '@harness-kernel/telemetry'

const port = parentPort
if (port === null) throw new Error('the telemetry worker runs as a worker thread')
const settings = workerData as WorkerSettings
const post = (message: FromWorker) => port.postMessage(message)

const health = new ExportHealth(
  (text) => post({ type: 'notice', text }),
  (stats) => post({ type: 'stats', stats: { ...stats } }),
)
let presets: PresetIdGenerator | undefined
let pipeline: Pipeline | undefined
let traces: SessionTraces | undefined
/** Every session seen, by id: an item names a session by id after its first. */
const sessions = new Map<string, SessionInfo>()
const waiting: ToWorker[] = []
let handle: (message: ToWorker) => void = (message) => waiting.push(message)
port.on('message', (message: ToWorker) => handle(message))

/** Items received and not traced yet: they wait while the span queue is half full, so a burst is exported, not dropped. */
const pending: FeedItem[] = []
/** Beyond this many items waiting, new ones are dropped and counted: the export stays bounded in memory too. */
const MAX_PENDING_ITEMS = 65_536
let draining: Promise<void> | undefined
/** Set at `stop`: past it, waiting for room in the span queue stops, and what is left is traced at once. */
let deadline: number | undefined
/** Ends a drain's wait for room: `stop` came, and the wait is bounded from then on. */
let wake: () => void = () => {}

try {
  pipeline = await startPipeline(settings.export, settings.resource, health, (random) => {
    presets = new PresetIdGenerator(random)
    return presets
  })
  const ids = presets
  const scope: TraceScope = {
    // Metrics alone: spans are still derived (they time the model calls) but go nowhere.
    tracer: (pipeline.tracerProvider ?? new ProxyTracerProvider()).getTracer(SCOPE_NAME),
    instruments: pipeline.meterProvider === undefined ? undefined : createInstruments(pipeline.meterProvider.getMeter(SCOPE_NAME)),
    capture: settings.capture,
    spanAttributes: settings.spanAttributes,
  }
  if (ids !== undefined) scope.withIds = (chosen, start) => ids.withIds(chosen, start)
  traces = new SessionTraces(scope)
  post({ type: 'ready' })
} catch (error) {
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
}
handle = (message) => {
  if (message.type === 'stop') void stop(message.reason, message.timeoutMs)
  else received(message.items)
}
for (const message of waiting.splice(0)) handle(message)

function received(items: FeedItem[]): void {
  if (traces === undefined) return
  const room = MAX_PENDING_ITEMS - pending.length
  if (items.length > room) health.eventsLost(items.length - room, 'the export fell behind the sessions')
  for (let index = 0; index < Math.min(room, items.length); index++) pending.push(items[index]!)
  draining ??= drain().finally(() => {
    draining = undefined
  })
}

async function drain(): Promise<void> {
  let next = 0
  while (next < pending.length) {
    const left = deadline === undefined ? Number.POSITIVE_INFINITY : deadline - performance.now()
    const room = left > 0 ? pipeline?.spanRoom() : undefined
    if (room !== undefined) {
      // What is traced goes, so the array does not grow while the export catches up.
      pending.splice(0, next)
      next = 0
      const woken = new Promise<void>((resolve) => {
        wake = resolve
      })
      await Promise.race(left === Number.POSITIVE_INFINITY ? [room, woken] : [room, woken, sleep(left)])
      continue
    }
    trace(pending[next++]!)
  }
  pending.length = 0
}

function trace(item: FeedItem): void {
  if (traces === undefined) return
  if ('compacting' in item) {
    traces.compactionStarted(item.compacting, item.at)
    return
  }
  let session: SessionInfo | undefined
  if (typeof item.session === 'string') session = sessions.get(item.session)
  else {
    session = item.session
    sessions.set(session.id, session)
  }
  if (session === undefined) return
  traces.record(session, item.event, item.at, item.ids)
  if (item.event.type === 'session/end') sessions.delete(session.id)
}

/**
 * What is left is traced while the span queue has room, within `timeoutMs` (then at once, the queue counting what it
 * cannot hold); then every span still open ends, and the rest of the time goes to the last export.
 */
async function stop(reason: string, timeoutMs: number): Promise<void> {
  const started = performance.now()
  deadline = started + timeoutMs
  wake()
  await draining
  await drain()
  traces?.endAll(reason, epochNow())
  await pipeline?.shutdown(Math.max(0, timeoutMs - (performance.now() - started)))
  post({ type: 'stats', stats: { ...health.stats } })
  post({ type: 'stopped' })
  port?.close()
}
