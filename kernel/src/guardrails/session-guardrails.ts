import type { ProcessRunner } from '../process-runner.js'
import { evaluateCommandLine, isDangerousCommandLine } from './command-safety/index.js'
import { GUARDRAIL_TEXTS } from './guardrail-texts.js'
import { checkApprovalPolicy, checkSandboxPolicy } from './policy.js'
import type { CommandRule, GuardedAction, Guardrails, GuardrailsPolicy, GuardVerdict, Sandbox } from './types.js'
import { isWritablePath, resolveThroughLinks, writableRoots } from './writable-roots.js'

export interface GuardrailsOptions {
  policy: GuardrailsPolicy
  /** Codex exec-policy rules (`prefix_rule`), strictest match wins. */
  rules?: readonly CommandRule[]
  sandbox: Sandbox
  /** The session's working directory: the workspace a `workspaceWrite` policy opens. */
  cwd: string
  /** Where `$TMPDIR` is read. Default `process.env`. */
  env?: NodeJS.ProcessEnv
}

/** A session's guardrails: Codex's approval logic over its sandbox (guardrails.md §2.1). */
export function createGuardrails(options: GuardrailsOptions): Guardrails {
  checkSandboxPolicy(options.policy.sandbox, 'guardrails: sandbox')
  checkApprovalPolicy(options.policy.approval, 'guardrails: approval')
  let policy: GuardrailsPolicy = { ...options.policy }
  const rules: CommandRule[] = [...(options.rules ?? [])]
  const env = options.env ?? process.env
  /** Commands approved for the session, and whether they were approved to run outside the sandbox. */
  const approvedCommands = new Map<string, { escalated: boolean }>()
  const approvedPaths = new Set<string>()
  const fullAccess = () => policy.sandbox.type === 'dangerFullAccess'
  const granular = () => (typeof policy.approval === 'object' ? policy.approval.granular : undefined)

  const judgeCommand = (action: GuardedAction & { kind: 'command' }): GuardVerdict => {
    const sandboxed = !fullAccess()
    const matched = evaluateCommandLine(rules, action.command)
    const approved = approvedCommands.get(action.command)
    if (matched.decision === 'forbidden') {
      const prefix = (matched.decisive?.pattern ?? []).map((token) => (typeof token === 'string' ? token : (token[0] ?? '')))
      return { kind: 'deny', reason: GUARDRAIL_TEXTS.forbidden(action.command, matched.decisive?.justification, prefix) }
    }
    if (matched.decision === 'allow') return { kind: 'run', sandboxed: false }
    const escalate = action.escalation !== undefined && sandboxed
    if (matched.decision === 'prompt') {
      if (policy.approval === 'never') return { kind: 'deny', reason: GUARDRAIL_TEXTS.neverApproves }
      if (granular()?.rules === false) return { kind: 'deny', reason: GUARDRAIL_TEXTS.granularRules }
      if (approved !== undefined && (approved.escalated || !escalate)) return { kind: 'run', sandboxed: sandboxed && !approved.escalated }
      // An approved prompt-rule command still runs in the sandbox (observed), unless it asked to escalate.
      return {
        kind: 'ask',
        reason: GUARDRAIL_TEXTS.promptedByRule(action.command, matched.decisive?.justification),
        sandboxed: sandboxed && !escalate,
        cause: 'rule',
      }
    }
    if (escalate) {
      if (policy.approval === 'never') return { kind: 'deny', reason: GUARDRAIL_TEXTS.escalationUnderNever }
      if (granular()?.sandbox_approval === false) return { kind: 'deny', reason: GUARDRAIL_TEXTS.granularSandbox }
      if (approved?.escalated) return { kind: 'run', sandboxed: false }
      const prefixRule = action.escalation?.prefixRule
      return {
        kind: 'ask',
        reason: action.escalation?.justification ?? GUARDRAIL_TEXTS.escalationReason,
        sandboxed: false,
        cause: 'escalation',
        ...(prefixRule && prefixRule.length > 0 ? { proposedRule: prefixRule } : {}),
      }
    }
    if (approved !== undefined || policy.approval === 'never') return { kind: 'run', sandboxed }
    // Codex 0.169.0 asks before every command under `untrusted` that no rule allows (it retired its known-safe list),
    // and otherwise only before a dangerous one (a forced `rm`).
    const asks = policy.approval === 'untrusted' || isDangerousCommandLine(action.command)
    if (!asks) return { kind: 'run', sandboxed }
    if (granular()?.sandbox_approval === false) return { kind: 'deny', reason: GUARDRAIL_TEXTS.granularSandbox }
    // Asking on its own account, Codex offers to allow the command itself from now on (its first segment, whole).
    const proposedRule = matched.plain ? matched.unmatched[0] : undefined
    return {
      kind: 'ask',
      reason: undefined,
      sandboxed,
      cause: 'policy',
      ...(proposedRule && proposedRule.length > 0 ? { proposedRule } : {}),
    }
  }

  const judgeFileChange = (action: GuardedAction & { kind: 'fileChange' }): GuardVerdict => {
    if (fullAccess()) return { kind: 'run', sandboxed: false }
    const roots = writableRoots(policy.sandbox, options.cwd, env)
    const outside = action.paths.filter((path) => !isWritablePath(path, roots))
    const remembered = action.paths.every((path) => approvedPaths.has(resolveThroughLinks(path)))
    if (outside.length === 0) {
      // Codex asks before every change under `untrusted`, inside the workspace too.
      if (policy.approval !== 'untrusted' || remembered) return { kind: 'run', sandboxed: true }
      return { kind: 'ask', reason: undefined, sandboxed: true, cause: 'policy' }
    }
    if (remembered) return { kind: 'run', sandboxed: false }
    if (policy.approval === 'never') return { kind: 'deny', reason: GUARDRAIL_TEXTS.writeOutsideRefused }
    if (granular()?.sandbox_approval === false) return { kind: 'deny', reason: GUARDRAIL_TEXTS.writeOutsideRefused }
    return { kind: 'ask', reason: GUARDRAIL_TEXTS.writeOutsideReason(outside), sandboxed: false, cause: 'escalation' }
  }

  return {
    get policy() {
      return policy
    },
    setPolicy(update) {
      const next = { ...policy, ...update }
      checkSandboxPolicy(next.sandbox, 'guardrails: sandbox')
      checkApprovalPolicy(next.approval, 'guardrails: approval')
      policy = next
    },
    judge: (action) => (action.kind === 'command' ? judgeCommand(action) : judgeFileChange(action)),
    remember(action, rememberOptions = {}) {
      if (rememberOptions.rule && rememberOptions.rule.length > 0)
        rules.push({ pattern: [...rememberOptions.rule], decision: 'allow', source: 'approved for this session' })
      if (action.kind === 'command') {
        const escalated = action.escalation !== undefined || approvedCommands.get(action.command)?.escalated === true
        approvedCommands.set(action.command, { escalated })
      } else for (const path of action.paths) approvedPaths.add(resolveThroughLinks(path))
    },
    runner(sandboxed, inner, confinement): ProcessRunner {
      // Let out of the policy's sandbox (an approved escalation, full access), a confined call still runs in one.
      const effective = sandboxed ? policy.sandbox : ({ type: 'dangerFullAccess' } as const)
      if (confinement !== undefined) return options.sandbox.runner({ policy: effective, cwd: options.cwd, inner, confinement })
      if (effective.type === 'dangerFullAccess') return inner
      return options.sandbox.runner({ policy: effective, cwd: options.cwd, inner })
    },
    async writeFile(sandboxed, path, content, signal) {
      const effective = sandboxed ? policy.sandbox : ({ type: 'dangerFullAccess' } as const)
      await options.sandbox.writeFile({ policy: effective, cwd: options.cwd, path, content, ...(signal ? { signal } : {}) })
    },
  }
}
