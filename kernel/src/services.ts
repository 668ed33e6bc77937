import type { Compactor } from './compaction/compactor.js'
import type { Driver } from './driver/types.js'
import type { ModelProvider } from './model.js'
import type { ProcessRunner } from './process-runner.js'
import type { SessionStore } from './session-store.js'
import type { Session, ToolCall } from './session-types.js'
import type { SteeringSource } from './steering/types.js'
import type { ToolRegistry } from './tool-registry.js'

export interface Clock {
  now(): number
}

export interface Logger {
  debug(message: string): void
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

export interface ApprovalRequest {
  session: Session
  turnId: string
  call: ToolCall
  reason: string | undefined
  signal: AbortSignal
}

/** Decides a tool call that policy left at `ask` and no `tools/permission-request` tap decided. */
export interface Approvals {
  request(request: ApprovalRequest): Promise<{ kind: 'allow' } | { kind: 'deny'; reason: string }>
}

/** The services the kernel knows; a plugin may provide more under its own keys. */
export interface Services {
  model: ModelProvider
  /** Runs each turn: `nativeDriver()` by default. */
  driver: Driver
  tools: ToolRegistry
  steering: SteeringSource
  sessionStore: SessionStore
  approvals: Approvals
  processRunner: ProcessRunner
  clock: Clock
  logger: Logger
  session: Session
  /** When and how the conversation is compacted (`compaction()`); not registered by default. */
  compactor: Compactor
}

export type ServiceKey = keyof Services
