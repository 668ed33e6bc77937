import { type CompiledMatcher, compileMatcher } from '@harness-kernel/hook-protocol'
import type { CodexEvent } from '../events.js'
import { type CodexHandler, handlerRuns, type LoadedCodexHooks } from '../types.js'

/** Picks the handlers one event occurrence runs: the event's, runnable under the trust rules, matching a subject. */
export class HandlerSelector {
  readonly #loaded: LoadedCodexHooks
  readonly #bypassTrust: boolean
  readonly #matchers = new Map<CodexHandler, CompiledMatcher>()

  constructor(loaded: LoadedCodexHooks, bypassTrust: boolean) {
    this.#loaded = loaded
    this.#bypassTrust = bypassTrust
  }

  /** `subjects` undefined: the event ignores matchers. */
  select(event: CodexEvent, subjects: readonly string[] | undefined): CodexHandler[] {
    if (!this.#loaded.featureEnabled) return []
    return this.#loaded.handlers.filter(
      (handler) =>
        handler.event === event && handlerRuns(handler, this.#bypassTrust) && (subjects === undefined || this.#matches(handler, subjects)),
    )
  }

  #matches(handler: CodexHandler, subjects: readonly string[]): boolean {
    let matcher = this.#matchers.get(handler)
    if (!matcher) {
      matcher = compileMatcher(handler.matcher, 'codex')
      this.#matchers.set(handler, matcher)
    }
    return matcher.ok && subjects.some((subject) => matcher.test(subject))
  }
}
