import { type CompiledMatcher, compileMatcher } from '@harness-kernel/hook-protocol'
import { MATCHERLESS_EVENTS, NARROW_MATCHER_EVENTS, TOOL_EVENTS } from '../events.js'
import { matchesPermissionRule } from '../run/index.js'
import {
  type ClaudeHandler,
  type CommandHandler,
  type HttpHandler,
  isRunnableType,
  type LoadedClaudeCodeHooks,
  type McpToolHandler,
  type PromptHandler,
} from '../types.js'

export type RunnableHandler = CommandHandler | HttpHandler | PromptHandler | McpToolHandler

/** One event occurrence's matcher subject and, for tool events, the call the `if` rule is checked against. */
export interface Selection {
  event: string
  subject?: string | undefined
  tool?: { name: string; input: unknown } | undefined
  cwd: string
}

const NARROW_EXACT = /^[A-Za-z0-9_|]+$/
const NEVER: CompiledMatcher = { ok: false, error: 'never' }

/** Picks the handlers an event occurrence runs, and the unsupported ones it would have run (reported as skipped). */
export class HandlerSelector {
  readonly #loaded: LoadedClaudeCodeHooks
  readonly #warn: (text: string) => void
  readonly #matchers = new Map<ClaudeHandler, CompiledMatcher>()
  readonly #warnedRules = new Set<ClaudeHandler>()

  constructor(loaded: LoadedClaudeCodeHooks, warn: (text: string) => void) {
    this.#loaded = loaded
    this.#warn = warn
  }

  select(selection: Selection): { runnable: RunnableHandler[]; unsupported: ClaudeHandler[] } {
    const runnable: RunnableHandler[] = []
    for (const handler of this.#loaded.handlers) {
      if (handler.event !== selection.event || !this.#applies(handler, selection)) continue
      if (isRunnableType(handler)) runnable.push(handler)
    }
    const unsupported = this.#loaded.dropped
      .map((dropped) => dropped.handler)
      .filter((handler) => handler.event === selection.event && !isRunnableType(handler) && this.#applies(handler, selection))
    return { runnable, unsupported }
  }

  #applies(handler: ClaudeHandler, selection: Selection): boolean {
    if (!MATCHERLESS_EVENTS.has(selection.event) && selection.subject !== undefined) {
      const matcher = this.#matcher(handler)
      if (!matcher.ok || !matcher.test(selection.subject)) return false
    }
    if (handler.if !== undefined && TOOL_EVENTS.has(selection.event) && selection.tool !== undefined) {
      const rule = matchesPermissionRule(handler.if, selection.tool.name, selection.tool.input, selection.cwd, {
        projectDir: this.#loaded.projectDir,
      })
      if (rule.warning !== undefined && !this.#warnedRules.has(handler)) {
        this.#warnedRules.add(handler)
        this.#warn(`hook ${handler.key}: ${rule.warning}`)
      }
      return rule.matches
    }
    return true
  }

  #matcher(handler: ClaudeHandler): CompiledMatcher {
    let matcher = this.#matchers.get(handler)
    if (matcher) return matcher
    const pattern = handler.matcher
    if (NARROW_MATCHER_EVENTS.has(handler.event) && pattern !== undefined && pattern !== '' && pattern !== '*') {
      const names = new Set(pattern.split('|'))
      matcher = NARROW_EXACT.test(pattern)
        ? { ok: true, matchAll: false, test: (subject) => names.has(subject) }
        : compileMatcher(pattern, 'claude-code')
    } else {
      matcher = compileMatcher(pattern, 'claude-code')
    }
    if (!matcher.ok) {
      this.#warn(`hook ${handler.key}: invalid matcher ${JSON.stringify(pattern)} matches nothing: ${matcher.error}`)
      matcher = NEVER
    }
    this.#matchers.set(handler, matcher)
    return matcher
  }
}
