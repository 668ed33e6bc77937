import { randomUUID } from 'node:crypto'
import type { Message } from '@harness-kernel/kernel'
import type { ClaudeTranscriptWriter } from '../transcript/transcript-writer.js'
import type { LoadedClaudeCodeHooks } from '../types.js'
import { HandlerSelector } from './handler-selector.js'
import type { SessionPermissions } from './session-permissions.js'

/** What the dialect keeps per kernel session. */
export class ClaudeSessionState {
  readonly loaded: LoadedClaudeCodeHooks
  /** The session's Claude Code permissions: rules, mode, working directories. */
  readonly permissions: SessionPermissions
  /** Set when the managed policy is unusable and `managedPolicyFailure` is `refuse`: every turn halts with it. */
  refusal: string | undefined = undefined
  readonly selector: HandlerSelector
  /** The current turn's `prompt_id`; undefined before the first prompt. */
  promptId: string | undefined
  #promptTurn: string | undefined
  /** Calls a PreToolUse hook answered `ask`: their PermissionRequest hooks are skipped. */
  readonly hookAsks = new Set<string>()
  /** Calls a PreToolUse hook answered `allow`: the mode does not prompt for them (rules still hold). */
  readonly hookAllows = new Set<string>()
  /** Calls the permissions refused before any hook ran: no hook runs for them. */
  readonly refusedBeforeHooks = new Set<string>()
  /** When each call's PreToolUse began, for `duration_ms`. */
  readonly callStarted = new Map<string, number>()
  /** Assistant messages whose PostToolBatch has run. */
  readonly batched = new WeakSet<Message>()
  /** Consecutive Stop blocks in the running turn. */
  stopBlocks = 0
  /** Consecutive SubagentStop blocks per agent. */
  readonly subagentStopBlocks = new Map<string, number>()
  /** Handlers already reported as skipped (one notice per session). */
  readonly noticedSkips = new Set<string>()
  /** Contexts of async handlers, waiting for the next prompt. */
  readonly asyncContexts: string[] = []
  /** Detached runs (async handlers, observers) end with the session. */
  readonly detached = new AbortController()
  /** Detached runs still going; the session's end waits for them (within the SessionEnd budget). */
  readonly inFlight = new Set<Promise<unknown>>()

  track(run: Promise<unknown>): void {
    this.inFlight.add(run)
    void run.finally(() => this.inFlight.delete(run))
  }
  /** SessionStart runs get numbered env files. */
  sessionStartRuns = 0
  /** The Claude Code transcript (`transcript: 'claude-code'`); payloads name its file instead of the kernel's log. */
  transcript: ClaudeTranscriptWriter | undefined

  constructor(loaded: LoadedClaudeCodeHooks, permissions: SessionPermissions, warn: (text: string) => void) {
    this.loaded = loaded
    this.permissions = permissions
    this.selector = new HandlerSelector(loaded, warn)
  }

  /**
   * A compaction's PostCompact, held back until its SessionStart (`compact`) has run: Claude Code runs SessionStart
   * before PostCompact, the kernel fires `agent/post-compact` first.
   */
  heldPostCompact: (() => Promise<unknown>) | undefined

  /**
   * A new `prompt_id` outside any turn: a command that is a prompt to Claude Code (`/compact`). Its hooks, and those
   * after it until the next turn (SessionEnd), carry it.
   */
  enterCommand(): string {
    this.#promptTurn = undefined
    this.promptId = randomUUID()
    return this.promptId
  }

  /** One `prompt_id` per turn, shared by steered input within it. */
  enterTurn(turnId: string): string {
    if (this.#promptTurn !== turnId) {
      this.#promptTurn = turnId
      this.promptId = randomUUID()
      this.stopBlocks = 0
    }
    return this.promptId!
  }
}
