import { existsSync } from 'node:fs'
import { type CodexGuardrails, loadCodexGuardrails, parseApprovalPolicy, parseSandboxMode, sandboxPolicyOf } from '@harness-kernel/codex'
import {
  type ApprovalPolicy,
  type CommandRule,
  errorMessage,
  type GuardrailsPolicy,
  guardrails,
  guardrailsPolicyOf,
  type Plugin,
  type SandboxPolicy,
} from '@harness-kernel/kernel'
import { CliError } from '../cli-error.js'

/** Codex's flags for the sandbox and approvals, as `harness run` and `harness app-server` take them. */
export interface GuardrailFlags {
  /** `-s, --sandbox MODE` */
  sandbox?: string
  /** `-a, --ask-for-approval POLICY` */
  askForApproval?: string
  dangerouslyBypassApprovalsAndSandbox?: boolean
  /** `-c key=value`, Codex's config overrides (they reach the Codex hooks too). */
  codexConfig?: string[]
  /** `-p, --profile NAME`: Codex's `<codexHome>/NAME.config.toml` layer. */
  profile?: string
}

export interface GuardrailsSetup {
  /** The policy sessions start with. */
  policy: GuardrailsPolicy
  rules: CommandRule[]
  warnings: string[]
  /** The `guardrails()` plugin for this policy, or undefined when nothing was configured (the composition's own stands). */
  plugin: Plugin | undefined
}

export const BYPASS_FLAG = '--dangerously-bypass-approvals-and-sandbox'

/**
 * The policy of one invocation: Codex's flags over the user's Codex configuration (`config.toml`, trusted project layers,
 * profiles, `-c`) over Codex's defaults. Bad values exit 2 naming the value and where it came from.
 */
export function guardrailsSetup(options: {
  flags: GuardrailFlags
  cwd: string
  codexHome: string | undefined
  env: Record<string, string | undefined>
  /** false with `--no-codex-hooks`: only the flags and the defaults count. */
  readCodexConfig: boolean
}): GuardrailsSetup {
  const { flags } = options
  if (flags.dangerouslyBypassApprovalsAndSandbox && (flags.sandbox !== undefined || flags.askForApproval !== undefined)) {
    throw new CliError(`${BYPASS_FLAG} cannot be used with --sandbox or --ask-for-approval`)
  }
  let configured: Pick<CodexGuardrails, 'sandbox' | 'approval' | 'workspaceWrite' | 'rules' | 'warnings'> = { rules: [], warnings: [] }
  if (options.readCodexConfig || (flags.codexConfig?.length ?? 0) > 0 || flags.profile !== undefined) {
    configured = usageError(() =>
      loadCodexGuardrails({
        cwd: options.cwd,
        ...(options.codexHome === undefined ? {} : { codexHome: options.codexHome }),
        ...(flags.profile === undefined ? {} : { profile: flags.profile }),
        sessionFlags: flags.codexConfig ?? [],
        env: options.env as NodeJS.ProcessEnv,
      }),
    )
  }
  const workspaceWrite = configured.workspaceWrite
  // `[sandbox_workspace_write]` shapes the default mode too, as in Codex.
  let sandbox: SandboxPolicy | undefined =
    configured.sandbox ?? (workspaceWrite === undefined ? undefined : sandboxPolicyOf('workspace-write', workspaceWrite))
  let approval: ApprovalPolicy | undefined = configured.approval
  if (flags.dangerouslyBypassApprovalsAndSandbox) {
    sandbox = { type: 'dangerFullAccess' }
    approval = 'never'
  }
  if (flags.sandbox !== undefined) {
    const mode = usageError(() => parseSandboxMode(flags.sandbox, '--sandbox'))
    // The mode comes from the flag; `[sandbox_workspace_write]` still shapes workspace-write, as in Codex.
    sandbox = sandboxPolicyOf(mode, workspaceWrite)
  }
  if (flags.askForApproval !== undefined) {
    approval = usageError(() => parseApprovalPolicy(flags.askForApproval, '--ask-for-approval'))
  }
  // A writable root that does not exist is a typo more often than a plan: say so rather than sandbox without it.
  const missing = sandbox?.type === 'workspaceWrite' ? sandbox.writableRoots.find((root) => !existsSync(root)) : undefined
  if (missing !== undefined) {
    throw new CliError(`sandbox_workspace_write.writable_roots: ${JSON.stringify(missing)} does not exist (from the Codex configuration)`)
  }
  const nothing = sandbox === undefined && approval === undefined && configured.rules.length === 0
  const policy = guardrailsPolicyOf({
    ...(sandbox === undefined ? {} : { sandbox }),
    ...(approval === undefined ? {} : { approvals: approval }),
  })
  return {
    policy,
    rules: configured.rules,
    warnings: configured.warnings,
    plugin: nothing ? undefined : guardrails({ sandbox: policy.sandbox, approvals: policy.approval, rules: configured.rules }),
  }
}

/** A bad value is the user's to fix: exit 2 with the message that names it. */
function usageError<T>(run: () => T): T {
  try {
    return run()
  } catch (error) {
    throw new CliError(errorMessage(error), { cause: error })
  }
}
