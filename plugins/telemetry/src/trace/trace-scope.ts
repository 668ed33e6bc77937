import type { Attributes, Tracer } from '@opentelemetry/api'
import type { ContentCapture } from '../config/export-config.js'
import type { Instruments } from './instruments.js'

/** What every session's trace of one plugin shares. */
export interface TraceScope {
  readonly tracer: Tracer
  /** Undefined when metrics are off. */
  readonly instruments: Instruments | undefined
  readonly capture: ContentCapture
  /** Added to every span (Codex's `[otel] span_attributes`). */
  readonly spanAttributes: Attributes
  /** The kernel's driver id (`native`, `claude-code`, `codex`), read once the kernel is composed. */
  driver(): string
  /** `gen_ai.provider.name` where it is known: Claude Code samples Anthropic's models, Codex OpenAI's. */
  provider(): string | undefined
}
