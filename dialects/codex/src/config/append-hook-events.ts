import { compileMatcher, rustDebugString } from '@harness-kernel/hook-protocol'
import { CODEX_EVENTS, type CodexEvent, eventLabel, MATCHERLESS_EVENTS } from '../events.js'
import { codexHookHash } from '../trust/codex-hook-hash.js'
import type { HookStates } from '../trust/hook-state.js'
import { codexTrustStatus } from '../trust/trust-status.js'
import type { CodexHandler, CodexHookSource } from '../types.js'
import type { RawHandlerConfig, RawHookEvents } from './hook-config.js'

/** Events whose output can carry `additionalContext`; elsewhere `additionalContextLimit` is dropped with a warning. */
const CONTEXT_EVENTS: ReadonlySet<CodexEvent> = new Set(['PreToolUse', 'PostToolUse', 'SessionStart', 'UserPromptSubmit', 'SubagentStart'])
/** Events whose timeout defaults to 1 s and is clamped to 3 s. */
const SHORT_TIMEOUT_EVENTS: ReadonlySet<CodexEvent> = new Set(['SessionEnd', 'Interrupt'])

export interface HookSourceFile {
  /** Absolute path of the hooks.json / config.toml (or Codex's synthetic path), used in keys and warnings. */
  path: string
  source: CodexHookSource
  managed: boolean
}

/** The state threaded through every source, in Codex's order. */
export interface HookCollection {
  handlers: CodexHandler[]
  warnings: string[]
  /** The next display number: one counter across all sources. */
  displayOrder: number
  states: HookStates
}

/** Rust's `str::trim` (Unicode White_Space, which unlike JS's `trim` excludes U+FEFF). */
const RUST_WHITESPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]'
const BLANK = new RegExp(`^${RUST_WHITESPACE}*$`)

/**
 * Codex's `append_hook_events` for one file: events in the fixed order, then groups, then handlers. Skipped
 * groups (invalid matcher) and skipped handlers (blank command, prompt, agent) keep their index in the key
 * but take no display number; every loaded handler takes one, whether trusted, untrusted or disabled.
 */
export function appendHookEvents(collection: HookCollection, file: HookSourceFile, events: RawHookEvents): void {
  const { warnings } = collection
  for (const event of CODEX_EVENTS) {
    events[event].forEach((group, groupIndex) => {
      const matcher = MATCHERLESS_EVENTS.has(event) ? undefined : group.matcher
      if (matcher !== undefined) {
        const compiled = compileMatcher(matcher, 'codex')
        if (!compiled.ok) {
          warnings.push(`invalid matcher ${rustDebugString(matcher)} in ${file.path}: ${compiled.error}`)
          return
        }
      }
      group.hooks.forEach((config, handlerIndex) => {
        const handler = loadHandler(
          collection,
          file,
          event,
          matcher,
          config,
          `${file.path}:${eventLabel(event)}:${groupIndex}:${handlerIndex}`,
        )
        if (handler === 'skipped') return
        if (handler) collection.handlers.push({ ...handler, groupIndex, handlerIndex })
        collection.displayOrder++
      })
    })
  }
}

function loadHandler(
  collection: HookCollection,
  file: HookSourceFile,
  event: CodexEvent,
  matcher: string | undefined,
  config: RawHandlerConfig,
  key: string,
): Omit<CodexHandler, 'groupIndex' | 'handlerIndex'> | 'skipped' | undefined {
  const { warnings } = collection
  switch (config.type) {
    case 'prompt':
    case 'agent':
      warnings.push(`skipping ${config.type} hook in ${file.path}: ${config.type} hooks are not supported yet`)
      return 'skipped'
    case 'mcp_tool':
      // Codex 0.169.0 lists MCP-tool handlers and numbers them; the harness cannot run them, but keeps the numbering.
      return undefined
  }
  if (BLANK.test(config.command)) {
    warnings.push(`skipping empty hook command in ${file.path}`)
    return 'skipped'
  }
  const short = SHORT_TIMEOUT_EVENTS.has(event)
  let timeoutSec = Math.max(config.timeout ?? (short ? 1 : 600), 1)
  if (short && timeoutSec > 3) {
    warnings.push(`clamping ${event} hook timeout to 3s in ${file.path}`)
    timeoutSec = 3
  }
  let additionalContextLimit = config.additionalContextLimit
  if (additionalContextLimit !== undefined && !CONTEXT_EVENTS.has(event)) {
    warnings.push(`ignoring additionalContextLimit for ${event} hook in ${file.path}: this event cannot emit additionalContext`)
    additionalContextLimit = undefined
  }
  const identity = {
    event,
    matcher,
    command: config.command,
    timeoutSec,
    async: config.async,
    statusMessage: config.statusMessage,
    additionalContextLimit,
  }
  const currentHash = codexHookHash(identity)
  const state = file.managed ? undefined : collection.states.get(key)
  return {
    ...identity,
    key,
    source: file.source,
    sourcePath: file.path,
    displayOrder: collection.displayOrder,
    currentHash,
    enabled: state?.enabled !== false,
    trustStatus: codexTrustStatus(file.managed, currentHash, state?.trustedHash),
  }
}
