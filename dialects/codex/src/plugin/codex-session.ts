import type { LoadedCodexHooks } from '../types.js'
import { HandlerSelector } from './handler-selector.js'

/** What the dialect keeps per kernel session. */
export class CodexSessionState {
  readonly loaded: LoadedCodexHooks
  readonly selector: HandlerSelector
  readonly model: string
  /** SessionStart runs lazily, at the next turn's first step (codex-hooks.md §5.1). */
  pendingSessionStart: string | undefined
  /** The last compaction's trigger and turn, from PostCompact, for the SessionStart (`compact`) that follows it. */
  lastCompaction: { trigger: 'manual' | 'auto'; turnId: string } | undefined
  /** Contexts of async handlers, in completion order, waiting for the next user prompt. */
  readonly asyncContexts: string[] = []
  /** Stop continuations per turn, for the opt-in cap. */
  readonly stopContinuations = new Map<string, number>()
  /** Detached async runs are cancelled when the session ends. */
  readonly asyncRuns = new AbortController()

  constructor(loaded: LoadedCodexHooks, bypassTrust: boolean | HandlerSelector, model: string, sessionStart: string | undefined) {
    this.loaded = loaded
    this.selector = bypassTrust instanceof HandlerSelector ? bypassTrust : new HandlerSelector(loaded, bypassTrust)
    this.model = model
    this.pendingSessionStart = sessionStart
  }

  /** A subagent's state: its parent's hooks and model, its own async contexts and no SessionStart (Codex runs none there). */
  forSubagent(): CodexSessionState {
    return new CodexSessionState(this.loaded, this.selector, this.model, undefined)
  }
}
