import type { BoundaryKind, Driver, GuardrailsPolicy, Kernel } from '@harness-kernel/kernel'
import type { SteerOnTurnEnd } from './app-thread.js'
import type { AppServerBridge, KernelFactory } from './bridge.js'
import type { FleetPort } from './fleet/fleet-port.js'
import { EXTRA_METHODS } from './methods/index.js'

export const SERVER_VERSION = '0.1.0'

/** What Codex 0.169.0 says before a `thread/resume` answer with every turn (codex-app-server.md §3). */
export const FULL_HISTORY_DEPRECATION =
  'Full-history hydration is deprecated for paginated threads; use `excludeTurns: true`, then page with `thread/turns/list` and `thread/items/list`.'

/** Every method the server answers: the core ones here, the rest from `methods/`. */
export const METHODS: readonly string[] = [
  'initialize',
  'thread/start',
  'thread/resume',
  'turn/start',
  'turn/steer',
  'turn/interrupt',
  'thread/inject_items',
  'hooks/list',
  ...Object.keys(EXTRA_METHODS),
]

/** What the `initialize` result says of the kernel's driver: where its turns take input, and what final input does. */
export interface DriverInfo {
  /** `native`, `claude-code`, … */
  id: string
  /** The mid-turn boundaries where the driver claims input (every driver also claims at a turn's start). */
  boundaries: BoundaryKind[]
  /** True when input claimed at the `final` boundary continues the same turn (a `turn/steer` just before the end). */
  finalInputContinuesTurn: boolean
}

export function driverInfo(driver: Driver): DriverInfo {
  return {
    id: driver.id,
    boundaries: [...driver.capabilities.boundaries],
    finalInputContinuesTurn: driver.capabilities.finalInputContinuesTurn,
  }
}

export interface HooksListEntry {
  cwd: string
  hooks: unknown[]
  warnings: string[]
  errors: unknown[]
}

export interface AppServerOptions {
  /** A kernel composed with `bridge.plugin` (first). Or pass `createKernel`. */
  kernel?: Kernel
  bridge?: AppServerBridge
  /** Composes the kernel; receives the server's plugin to put first. The server disposes what it created. */
  createKernel?: KernelFactory
  input: NodeJS.ReadableStream
  output: NodeJS.WritableStream
  /** Where logs go (never stdout). Default stderr. */
  log?: (message: string) => void
  /** `codexHome` in the `initialize` result. Default `$HARNESS_HOME`, else the kernel's cwd. */
  home?: string
  /** Host-input timeout when the client asks for none (clamped 1,000–600,000 ms). Default 30,000. */
  hostInputTimeoutMs?: number
  /** What happens to `turn/steer` input a completed turn did not record: reported back (default) or the next turn. */
  steerOnTurnEnd?: SteerOnTurnEnd
  /** `hooks/list`. Default: every cwd with an empty list (no dialect discovery wired in). */
  listHooks?: (cwds: string[]) => HooksListEntry[] | Promise<HooksListEntry[]>
  /** How long a thread no connection is subscribed to stays loaded while idle (`thread/unsubscribe`). Default 30 minutes, as Codex. */
  unloadAfterMs?: number
  /**
   * The sandbox and approval policy of every thread a client starts, resumes or forks without `sandbox` or
   * `approvalPolicy` (the CLI passes what its flags and Codex's config say), and of `command/exec` without
   * `sandboxPolicy`. Without it, threads keep the policy the kernel gives their sessions (its `guardrails` service) and
   * `command/exec` runs under `DEFAULT_GUARDRAILS_POLICY` (workspace-write, network off).
   */
  defaultPolicy?: GuardrailsPolicy
  /**
   * Called when the client accepts a command with `acceptWithExecpolicyAmendment`: the argv prefix it allowed (already
   * allowed for the rest of the session), for the host to keep, e.g. as a `prefix_rule` in Codex's `rules/default.rules`.
   * A failure is logged; the approval stands.
   */
  onRuleAmendment?: (prefix: string[]) => void | Promise<void>
  /**
   * Threads shared with other processes through the session store (`@harness-kernel/store-postgres`'s `fleet()`): a
   * thread another process owns can be resumed here (its log followed), steered and interrupted (through the store's
   * inbox, to its owner); input for a thread this server owns is claimed from the inbox; a thread with input and no
   * live owner is taken over. Without it, threads are this server's alone.
   */
  fleet?: FleetPort
}
