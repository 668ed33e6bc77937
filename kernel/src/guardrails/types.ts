import type { ProcessRunner } from '../process-runner.js'

/**
 * Codex's sandbox policy, in the shape Codex's App Server v2 uses (`SandboxPolicy`): the contract is Codex's own, so a
 * client's policy passes through unchanged.
 */
export type SandboxPolicy =
  | { type: 'dangerFullAccess' }
  | { type: 'readOnly'; networkAccess: boolean }
  | {
      type: 'workspaceWrite'
      /** Absolute paths, writable besides the session's cwd (and /tmp, $TMPDIR unless excluded). */
      writableRoots: string[]
      networkAccess: boolean
      excludeTmpdirEnvVar: boolean
      excludeSlashTmp: boolean
    }

/** Codex's `sandbox_mode` names. */
export type SandboxMode = 'read-only' | 'workspace-write' | 'danger-full-access'

/** Codex's `approval_policy = { granular = {…} }`: a category set to false is refused instead of asked. */
export interface GranularApprovals {
  /** Escalations out of the sandbox (and writes outside it). */
  sandbox_approval: boolean
  /** Commands a `prompt` rule matches. */
  rules: boolean
  skill_approval: boolean
  request_permissions: boolean
  mcp_elicitations: boolean
}

/** Codex's `approval_policy` (`AskForApproval`). `on-failure` is accepted as Codex still does, and acts as `on-request`. */
export type ApprovalPolicy = 'untrusted' | 'on-failure' | 'on-request' | 'never' | { granular: GranularApprovals }

/** What a session runs its tools under. */
export interface GuardrailsPolicy {
  sandbox: SandboxPolicy
  approval: ApprovalPolicy
}

/** A Codex exec-policy rule (`prefix_rule(...)` in a `.rules` file). */
export interface CommandRule {
  /** argv prefix; an element that is an array lists alternatives for that position. */
  pattern: (string | string[])[]
  decision: 'allow' | 'prompt' | 'forbidden'
  justification?: string
  /** Where the rule came from (a file path), for messages. */
  source?: string
}

/** What a tool is about to do, as the guardrails judge it. A tool says so with `guard` on its definition. */
export type GuardedAction =
  | {
      kind: 'command'
      /** The command line as the model gave it (run with `<shell> -c`). */
      command: string
      /** Absolute working directory of the command. */
      cwd: string
      /** The model asked to run outside the sandbox (Codex's `sandbox_permissions: "require_escalated"`). */
      escalation?: { justification?: string; prefixRule?: string[] }
    }
  | {
      kind: 'fileChange'
      /** Absolute paths the tool will write. */
      paths: string[]
      cwd: string
    }

/** The guardrails' word on an action. `sandboxed` says where it runs once it runs (an approved escalation: outside). */
export type GuardVerdict =
  | { kind: 'run'; sandboxed: boolean }
  | {
      kind: 'ask'
      /** Shown to whoever approves (Codex's `reason`). */
      reason: string | undefined
      sandboxed: boolean
      /** An argv prefix the approver may allow from now on (Codex's `proposedExecpolicyAmendment`). */
      proposedRule?: string[]
      /** Why it asks: a `prompt` rule (Codex then offers only accept or cancel), an escalation, or the policy itself. */
      cause: AskCause
    }
  | { kind: 'deny'; reason: string }

/** What made the guardrails ask. */
export type AskCause = 'rule' | 'escalation' | 'policy'

/**
 * More confinement for one call, on top of the policy (another program's sandbox settings: Claude Code's). It only ever
 * narrows: writes only under `writableRoots` (intersected with the policy's; under full access they are the roots),
 * never under `denyWrite`, no reading under `denyRead`, and with the network the policy allows only through `proxy`.
 */
export interface SandboxConfinement {
  /** Absolute; the only places a command may write (what the policy also lets it write). */
  writableRoots: string[]
  /** Absolute; read-only even under a writable root. */
  denyWrite: string[]
  /** Absolute; hidden (an empty file or folder in their place). */
  denyRead: string[]
  /**
   * The network, where the policy allows it: only through this HTTP proxy (a unix socket on the host), which decides
   * per host; `undefined`: no network at all.
   */
  proxy?: { socketPath: string }
  /** Variables the confined command gets besides its own (its `TMPDIR` inside a writable root, for one). */
  env?: Record<string, string>
}

/** Runs a process inside the sandbox a policy describes, or refuses to (the platform cannot sandbox). */
export interface Sandbox {
  /** `undefined` when it can sandbox here; else why not, in a sentence that names the opt-out. */
  unavailable(): string | undefined
  /** A runner whose every process runs under `policy` with the session's `cwd` as workspace. */
  runner(options: { policy: SandboxPolicy; cwd: string; inner: ProcessRunner; confinement?: SandboxConfinement }): ProcessRunner
  /** Writes `content` to `path` (parents created) from inside the sandbox: refused by the OS where the policy refuses. */
  writeFile(options: { policy: SandboxPolicy; cwd: string; path: string; content: string; signal?: AbortSignal }): Promise<void>
}

/** The per-session `guardrails` service: the policy in force, the approvals remembered, and where tools run. */
export interface Guardrails {
  readonly policy: GuardrailsPolicy
  /** Changes the policy for later calls (an App Server `turn/start` override). Throws on a malformed policy. */
  setPolicy(update: Partial<GuardrailsPolicy>): void
  judge(action: GuardedAction): GuardVerdict
  /** An approval given for the rest of the session (`acceptForSession`); `rule` allows an argv prefix from now on. */
  remember(action: GuardedAction, options?: { rule?: string[] }): void
  /**
   * How a judged action's processes run: sandboxed under the policy, or as they are; with a confinement, sandboxed under
   * it too, whatever the policy (it only narrows).
   */
  runner(sandboxed: boolean, inner: ProcessRunner, confinement?: SandboxConfinement): ProcessRunner
  /** Writes a file as a judged action may: through the sandbox, or directly. */
  writeFile(sandboxed: boolean, path: string, content: string, signal?: AbortSignal): Promise<void>
}
