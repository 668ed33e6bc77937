import type { LoadedCodexHooks } from '../types.js'
import { HandlerSelector } from './handler-selector.js'

/** What the dialect keeps per kernel session. */
export class CodexSessionState {
  readonly loaded: LoadedCodexHooks
  readonly selector: HandlerSelector
  readonly model: string
  /** SessionStart runs lazily, at the next turn's first step (codex-hooks.md §5.1). */
  pendingSessionStart: string | undefined
  /** Contexts of async handlers, in completion order, waiting for the next user prompt. */
  readonly asyncContexts: string[] = []
  /** Stop continuations per turn, for the opt-in cap. */
  readonly stopContinuations = new Map<string, number>()
  /** Detached async runs are cancelled when the session ends. */
  readonly asyncRuns = new AbortController()

  constructor(loaded: LoadedCodexHooks, bypassTrust: boolean, model: string, sessionStart: string) {
    this.loaded = loaded
    this.selector = new HandlerSelector(loaded, bypassTrust)
    this.model = model
    this.pendingSessionStart = sessionStart
  }
}
