import { type CompiledMatcher, compileMatcher } from '@harness-kernel/hook-protocol'
import type { CodexHandler, LoadedCodexHooks } from '../types.js'

/** What the dialect keeps per kernel session. */
export class CodexSessionState {
  readonly loaded: LoadedCodexHooks
  readonly model: string
  /** SessionStart runs lazily, at the next turn's first step (codex-hooks.md §5.1). */
  pendingSessionStart: string | undefined
  /** Contexts of async handlers, in completion order, waiting for the next user prompt. */
  readonly asyncContexts: string[] = []
  /** Stop continuations per turn, for the opt-in cap. */
  readonly stopContinuations = new Map<string, number>()
  /** Detached async runs are cancelled when the session ends. */
  readonly asyncRuns = new AbortController()
  readonly #matchers = new Map<CodexHandler, CompiledMatcher>()

  constructor(loaded: LoadedCodexHooks, model: string, sessionStart: string) {
    this.loaded = loaded
    this.model = model
    this.pendingSessionStart = sessionStart
  }

  /** Handlers of `event` that match one of `subjects` (all of them when subjects is undefined). */
  matching(handlers: readonly CodexHandler[], subjects: readonly string[] | undefined): CodexHandler[] {
    if (subjects === undefined) return [...handlers]
    return handlers.filter((handler) => {
      let matcher = this.#matchers.get(handler)
      if (!matcher) {
        matcher = compileMatcher(handler.matcher, 'codex')
        this.#matchers.set(handler, matcher)
      }
      return matcher.ok && subjects.some((subject) => matcher.test(subject))
    })
  }
}
