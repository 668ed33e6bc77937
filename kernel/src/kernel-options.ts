import type { Budgets } from './budget/budget-types.js'
import type { PriceTable } from './cost/model-price.js'

export interface ModelRetryOptions {
  /** Total tries of one request, the first included. Default 4. */
  maxAttempts?: number
  /** Delay before the first retry; doubled each retry up to `maxDelayMs`. Default 250 ms. */
  initialDelayMs?: number
  maxDelayMs?: number
  /** The longest server `retry-after` the kernel waits for; a longer one is cut to this. Default 60000 ms. */
  maxRetryAfterMs?: number
}

export interface KernelOptions {
  /** Default working directory of sessions. Default `process.cwd()`. */
  cwd?: string
  /** Where session logs go. Default `<cwd>/.harness/sessions`. */
  sessionsDir?: string
  /** The system prompt sent with every request. */
  system?: string
  /** Consecutive `continue` decisions of `agent/turn-stopping` allowed in one turn. Default 8. */
  maxStopContinuations?: number
  modelRetry?: ModelRetryOptions
  /**
   * When the log is forced to disk: `steering` (default) before a steering claim is accepted and at
   * turn end; `always` after every event; `never` leaves it to the OS.
   */
  fsync?: 'steering' | 'always' | 'never'
  /**
   * The most of one tool result a model is sent, bytes of UTF-8: a longer one keeps its first and last halves around
   * a marker saying how much there was (tools that cut their own output, as the shell does, stay under it). Default
   * 4 MiB.
   */
  maxToolOutputBytes?: number
  /**
   * How the default `processRunner` starts commands: `launcher` (default) through a small child process of the
   * kernel's (`LauncherProcessRunner`), so that a fork costs the same whatever the kernel's memory; `in-process`
   * from this process (`ExecProcessRunner`). A `processRunner` a plugin provides replaces either.
   */
  processRunner?: 'launcher' | 'in-process'
  /**
   * USD per million tokens by model id, over the kernel's `DEFAULT_PRICES` (an id given here replaces the default's; a
   * string names another id). Each step's `meta.costUsd` is priced from it; a model it does not know has no cost.
   */
  prices?: PriceTable
  /**
   * Token and cost limits per session and per turn. A step that reaches one ends the turn `halted` (unless an
   * `agent/budget-reached` tap raises it), and a session already over its limit halts each new turn at its start.
   * `startSession` and `resumeSession` take limits of their own over these.
   */
  budgets?: Budgets
}

export interface ResolvedKernelOptions {
  cwd: string
  sessionsDir: string
  system: string | undefined
  maxStopContinuations: number
  modelRetry: Required<ModelRetryOptions>
  fsync: 'steering' | 'always' | 'never'
  maxToolOutputBytes: number
  /** The default prices with the `prices` option over them, ids in lower case. */
  prices: PriceTable
  budgets: Budgets
}
