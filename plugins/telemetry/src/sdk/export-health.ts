/** How much telemetry never reached the collector. */
export interface ExportStats {
  /** Spans given up: the queue was full, or their export failed or timed out. */
  spansDropped: number
  /** Metric exports that failed or timed out (each carries every metric of that interval). */
  metricExportsFailed: number
  /** Session events never made into spans: the export had fallen too far behind. */
  eventsDropped: number
}

export const noLosses = (): ExportStats => ({ spansDropped: 0, metricExportsFailed: 0, eventsDropped: 0 })

/**
 * Counts what is lost on the way to the collector and says so once: an unreachable collector costs the run nothing but
 * these counts, and the user hears of it in one notice, not one per batch.
 */
export class ExportHealth {
  readonly stats: ExportStats = noLosses()
  readonly #tell: (text: string) => void
  readonly #changed: (stats: ExportStats) => void
  #told = false
  #closed = false

  /** `changed`: called with the counts after each loss. */
  constructor(tell: (text: string) => void, changed: (stats: ExportStats) => void = () => {}) {
    this.#tell = tell
    this.#changed = changed
  }

  spansLost(count: number, why: string, destination: string): void {
    if (this.#closed) return
    this.stats.spansDropped += count
    this.#changed(this.stats)
    this.#once(`${count} span${count === 1 ? '' : 's'} could not be exported to ${destination} (${why})`)
  }

  metricsLost(why: string, destination: string): void {
    if (this.#closed) return
    this.stats.metricExportsFailed++
    this.#changed(this.stats)
    this.#once(`metrics could not be exported to ${destination} (${why})`)
  }

  eventsLost(count: number, why: string): void {
    if (this.#closed) return
    this.stats.eventsDropped += count
    this.#changed(this.stats)
    this.#once(`${count} session event${count === 1 ? '' : 's'} could not be traced (${why})`)
  }

  /** The final count is in: an export that reports back after the shutdown was counted already. */
  close(): void {
    this.#closed = true
  }

  #once(what: string): void {
    if (this.#told) return
    this.#told = true
    this.#tell(`telemetry: ${what}; the run goes on without them, and later losses are only counted`)
  }
}

/** An endpoint as notices show it: without credentials or a query, which may hold a token. */
export function shownEndpoint(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`
  } catch {
    return 'the collector'
  }
}
