import type { SessionEvent } from '@harness-kernel/kernel'
import type { ContentCapture, ExportConfig } from '../config/export-config.js'
import type { ExportStats } from '../sdk/export-health.js'
import type { PipelineResource } from '../sdk/start-pipeline.js'
import type { SessionInfo } from '../trace/session-info.js'
import type { SpanIds } from '../trace/span-ids.js'

/** What the export thread starts with (its `workerData`). */
export interface WorkerSettings {
  export: ExportConfig
  resource: PipelineResource
  capture: ContentCapture
  spanAttributes: Record<string, string>
}

/**
 * One thing that happened in a session, in order: an event (the session's info and its span's ids come with its
 * first), or a compaction starting.
 */
export type FeedItem =
  | { session: SessionInfo | string; event: SessionEvent; at: number; ids?: SpanIds }
  | { compacting: string; at: number }

export type ToWorker = { type: 'items'; items: FeedItem[] } | { type: 'stop'; reason: string; timeoutMs: number }

export type FromWorker =
  | { type: 'ready' }
  | { type: 'notice'; text: string }
  | { type: 'stats'; stats: ExportStats }
  | { type: 'failed'; message: string }
  | { type: 'stopped' }
