import { definePlugin, type Plugin } from '../plugin.js'
import type { Services } from '../services.js'
import { checkApprovalPolicy, checkSandboxPolicy, DEFAULT_GUARDRAILS_POLICY, SANDBOX_MODES, sandboxPolicyOfMode } from './policy.js'
import { createGuardrails } from './session-guardrails.js'
import type { ApprovalPolicy, CommandRule, GuardrailsPolicy, SandboxMode, SandboxPolicy } from './types.js'

export interface GuardrailsPluginOptions {
  /** A Codex mode name or a whole policy. Default `workspace-write` (network off). */
  sandbox?: SandboxMode | SandboxPolicy
  /** Default `on-request`. */
  approvals?: ApprovalPolicy
  /** Codex exec-policy rules; the strictest match wins (forbidden > prompt > allow). */
  rules?: readonly CommandRule[]
}

/** The policy options describe, checked (a TypeError names the bad value). */
export function guardrailsPolicyOf(options: GuardrailsPluginOptions, where = 'guardrails'): GuardrailsPolicy {
  const sandbox = options.sandbox ?? DEFAULT_GUARDRAILS_POLICY.sandbox
  const policy: GuardrailsPolicy = {
    sandbox: typeof sandbox === 'string' ? sandboxPolicyOfModeName(sandbox, `${where}: sandbox`) : sandbox,
    approval: options.approvals ?? DEFAULT_GUARDRAILS_POLICY.approval,
  }
  checkSandboxPolicy(policy.sandbox, `${where}: sandbox`)
  checkApprovalPolicy(policy.approval, `${where}: approvals`)
  return policy
}

function sandboxPolicyOfModeName(mode: string, where: string): SandboxPolicy {
  if (!(SANDBOX_MODES as readonly string[]).includes(mode))
    throw new TypeError(`${where}: unknown sandbox mode ${JSON.stringify(mode)}; expected ${SANDBOX_MODES.join(', ')}`)
  return sandboxPolicyOfMode(mode as SandboxMode)
}

/**
 * Provides the `guardrails` service: every session's tools run under this sandbox and approval policy. Without it the
 * kernel's own default applies (workspace-write, network off, on-request).
 */
export function guardrails(options: GuardrailsPluginOptions = {}): Plugin {
  const policy = guardrailsPolicyOf(options)
  const rules = [...(options.rules ?? [])]
  return definePlugin({
    name: 'guardrails',
    setup(kernel) {
      kernel.provide('guardrails', ({ session, sandbox }: Services) => createGuardrails({ policy, rules, sandbox, cwd: session.cwd }))
    },
  })
}
