import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { SessionEvent } from '@harness-kernel/kernel'
import { errorMessage } from '@harness-kernel/kernel'
import type { TraceFeed } from '../feed/trace-feed.js'
import { type ExportStats, noLosses } from '../sdk/export-health.js'
import { settlesWithin } from '../settles-within.js'
import type { SessionInfo } from '../trace/session-info.js'
import { slimEvent } from '../trace/slim-event.js'
import { randomIds, type SpanIds } from '../trace/span-ids.js'
import type { FeedItem, FromWorker, ToWorker, WorkerSettings } from './worker-messages.js'

/** Items sent in one message at most; a turn's steps fill one in a few milliseconds on the loop bench. */
const BATCH_ITEMS = 256
/** How long an item waits for more before it is sent: spans reach the export thread about this late. */
const BATCH_DELAY_MS = 50
/** Beyond the export's own time to stop: what the thread may take to end its spans and report. */
const STOP_MARGIN_MS = 2000
/** How long a stop waits for a thread still loading the SDK (a short run ends before it is up) before its own time. */
const START_BOUND_MS = 10_000

/**
 * The export thread's side here: each event is made small (`slimEvent`) and queued, and the queue is sent in batches,
 * so a step pays for a few small objects and a share of one message; the spans, metrics and their export are made
 * there. The ids of a session's span are chosen here, so a driven program can be told them at once.
 */
export class WorkerFeed implements TraceFeed {
  readonly #worker: Worker
  readonly #settings: WorkerSettings
  readonly #notice: (text: string) => void
  readonly #ids = new Map<string, SpanIds>()
  #queue: FeedItem[] = []
  #timer: NodeJS.Timeout | undefined
  #stats: ExportStats = noLosses()
  #failed = false
  #stopped: Promise<void> | undefined
  #whenStopped: () => void = () => {}
  #whenReady: () => void = () => {}
  /** Settles once the thread has the SDK up, or cannot (failed, ended). */
  readonly #ready = new Promise<void>((resolve) => {
    this.#whenReady = resolve
  })

  constructor(settings: WorkerSettings, notice: (text: string) => void) {
    this.#settings = settings
    this.#notice = notice
    this.#worker = new Worker(workerScript(), { workerData: settings, name: 'harness telemetry', execArgv: builtExecArgv() })
    // The turns decide when the process ends; the export thread is stopped by the kernel's dispose.
    this.#worker.unref()
    this.#worker.on('message', (message: FromWorker) => this.#heard(message))
    this.#worker.on('error', (error) => this.#fail(`the export thread failed: ${errorMessage(error)}`))
    this.#worker.on('exit', () => {
      this.#whenReady()
      this.#whenStopped()
      if (this.#stopped === undefined) this.#fail('the export thread ended')
    })
  }

  get stats(): ExportStats {
    return this.#stats
  }

  record(session: SessionInfo, event: SessionEvent, now: number): void {
    if (this.#failed) return
    let ids = this.#ids.get(session.id)
    if (ids === undefined) {
      const parent = session.parent === undefined ? undefined : this.#ids.get(session.parent.sessionId)
      ids = randomIds(parent?.traceId)
      this.#ids.set(session.id, ids)
      this.#push({ session, event: slimEvent(event, this.#settings.capture), at: now, ids })
    } else this.#push({ session: session.id, event: slimEvent(event, this.#settings.capture), at: now })
    if (event.type === 'session/end') {
      this.#ids.delete(session.id)
      // A process that ends right after its session still has its spans sent.
      this.#flush()
    }
  }

  compactionStarted(sessionId: string, now: number): void {
    if (!this.#failed) this.#push({ compacting: sessionId, at: now })
  }

  sessionIds(sessionId: string): SpanIds | undefined {
    return this.#ids.get(sessionId)
  }

  stop(reason: string, timeoutMs: number): Promise<void> {
    this.#stopped ??= this.#stop(reason, timeoutMs)
    return this.#stopped
  }

  async #stop(reason: string, timeoutMs: number): Promise<void> {
    if (this.#failed) {
      await this.#worker.terminate()
      return
    }
    this.#flush()
    const ended = new Promise<void>((resolve) => {
      this.#whenStopped = resolve
    })
    this.#send({ type: 'stop', reason, timeoutMs })
    try {
      // The export's time starts once the thread is up: a run shorter than the SDK's load still has its spans sent.
      await settlesWithin(this.#ready, START_BOUND_MS)
      if (!(await settlesWithin(ended, timeoutMs + STOP_MARGIN_MS)))
        this.#notice(
          `telemetry: the export thread did not stop within ${timeoutMs} ms of the kernel's dispose; what it had not exported is lost`,
        )
    } finally {
      await this.#worker.terminate()
    }
  }

  #push(item: FeedItem): void {
    this.#queue.push(item)
    if (this.#queue.length >= BATCH_ITEMS) this.#flush()
    else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.#flush(), BATCH_DELAY_MS)
      this.#timer.unref()
    }
  }

  #flush(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
    if (this.#queue.length === 0) return
    const items = this.#queue
    this.#queue = []
    this.#send({ type: 'items', items })
  }

  #send(message: ToWorker): void {
    try {
      this.#worker.postMessage(message)
    } catch (error) {
      // An event that cannot be copied (a value a plugin put in a message's meta): telemetry stops, the run does not.
      this.#fail(`an event could not be sent to the export thread: ${errorMessage(error)}`)
    }
  }

  #heard(message: FromWorker): void {
    switch (message.type) {
      case 'ready':
        this.#whenReady()
        return
      case 'notice':
        this.#notice(message.text)
        return
      case 'stats':
        this.#stats = message.stats
        return
      case 'failed':
        this.#whenReady()
        this.#fail(message.message)
        return
      case 'stopped':
        this.#whenStopped()
        return
    }
  }

  #fail(why: string): void {
    if (this.#failed) return
    this.#failed = true
    clearTimeout(this.#timer)
    this.#queue = []
    this.#ids.clear()
    this.#notice(`telemetry is off: ${why}`)
  }
}

/**
 * The process's options for the thread, without a `source` export condition (as vitest gives): the thread runs the
 * build, whose imports must resolve to built files too.
 */
function builtExecArgv(): string[] {
  const kept: string[] = []
  const argv = process.execArgv
  for (let index = 0; index < argv.length; index++) {
    const option = argv[index]!
    if (option === '--conditions=source' || option === '-C=source') continue
    if ((option === '--conditions' || option === '-C') && argv[index + 1] === 'source') {
      index++
      continue
    }
    kept.push(option)
  }
  return kept
}

/**
 * The export thread's script: `telemetry-worker.js` beside this module once built, in dist/worker/ or in the CLI's
 * bundle (an entry of its own there). Loaded from the TypeScript sources (the `source` export condition, as under
 * vitest) this module is a `.ts` file, and the thread still runs the build: the same path in dist.
 */
function workerScript(): string {
  const here = import.meta.url
  const built = here.endsWith('.ts') ? '../../dist/worker/telemetry-worker.js' : './telemetry-worker.js'
  return fileURLToPath(new URL(built, here))
}
