import type { ApprovalPolicy, GuardrailsPolicy, SandboxMode, SandboxPolicy } from './types.js'

/** Codex's defaults when nothing is configured: workspace-write, network off, on-request. */
export const DEFAULT_GUARDRAILS_POLICY: Readonly<GuardrailsPolicy> = Object.freeze({
  sandbox: Object.freeze({
    type: 'workspaceWrite' as const,
    writableRoots: [],
    networkAccess: false,
    excludeTmpdirEnvVar: false,
    excludeSlashTmp: false,
  }),
  approval: 'on-request' as const,
})

export const SANDBOX_MODES: readonly SandboxMode[] = ['read-only', 'workspace-write', 'danger-full-access']
export const APPROVAL_POLICY_NAMES = ['untrusted', 'on-failure', 'on-request', 'never'] as const

/** Codex's mode name for a policy (`sandbox_mode`, the App Server's `sandbox`). */
export function sandboxModeOf(policy: SandboxPolicy): SandboxMode {
  if (policy.type === 'readOnly') return 'read-only'
  if (policy.type === 'workspaceWrite') return 'workspace-write'
  return 'danger-full-access'
}

/** The policy a mode names, with Codex's defaults for what the mode leaves open. */
export function sandboxPolicyOfMode(
  mode: SandboxMode,
  workspaceWrite: Partial<Omit<SandboxPolicy & { type: 'workspaceWrite' }, 'type'>> = {},
): SandboxPolicy {
  if (mode === 'read-only') return { type: 'readOnly', networkAccess: false }
  if (mode === 'danger-full-access') return { type: 'dangerFullAccess' }
  return {
    type: 'workspaceWrite',
    writableRoots: [...(workspaceWrite.writableRoots ?? [])],
    networkAccess: workspaceWrite.networkAccess ?? false,
    excludeTmpdirEnvVar: workspaceWrite.excludeTmpdirEnvVar ?? false,
    excludeSlashTmp: workspaceWrite.excludeSlashTmp ?? false,
  }
}

/** Throws a TypeError naming `where` unless `policy` is a sandbox policy the kernel can enforce. */
export function checkSandboxPolicy(policy: unknown, where: string): asserts policy is SandboxPolicy {
  const fail = (why: string): never => {
    throw new TypeError(`${where}: ${why}`)
  }
  if (policy === null || typeof policy !== 'object') fail(`expected a sandbox policy object, got ${JSON.stringify(policy)}`)
  const value = policy as Record<string, unknown>
  const boolean = (key: string) => {
    if (typeof value[key] !== 'boolean') fail(`${key} must be true or false, got ${JSON.stringify(value[key])}`)
  }
  switch (value.type) {
    case 'dangerFullAccess':
      return
    case 'readOnly':
      boolean('networkAccess')
      return
    case 'workspaceWrite': {
      for (const key of ['networkAccess', 'excludeTmpdirEnvVar', 'excludeSlashTmp']) boolean(key)
      const roots = value.writableRoots
      if (!Array.isArray(roots)) fail(`writableRoots must be an array of absolute paths, got ${JSON.stringify(roots)}`)
      for (const root of roots as unknown[]) {
        if (typeof root !== 'string' || !root.startsWith('/')) fail(`writable root ${JSON.stringify(root)} must be an absolute path`)
      }
      return
    }
    default:
      fail(`unknown sandbox policy type ${JSON.stringify(value.type)}; expected dangerFullAccess, readOnly or workspaceWrite`)
  }
}

/** Throws a TypeError naming `where` unless `policy` is one of Codex's approval policies. */
export function checkApprovalPolicy(policy: unknown, where: string): asserts policy is ApprovalPolicy {
  if (typeof policy === 'string' && (APPROVAL_POLICY_NAMES as readonly string[]).includes(policy)) return
  if (policy !== null && typeof policy === 'object' && 'granular' in policy) {
    const granular = (policy as { granular: unknown }).granular
    if (granular !== null && typeof granular === 'object') {
      const bad = ['sandbox_approval', 'rules', 'skill_approval', 'request_permissions', 'mcp_elicitations'].find(
        (key) => typeof (granular as Record<string, unknown>)[key] !== 'boolean',
      )
      if (bad === undefined) return
      throw new TypeError(`${where}: granular.${bad} must be true or false`)
    }
  }
  throw new TypeError(
    `${where}: unknown approval policy ${JSON.stringify(policy)}; expected ${APPROVAL_POLICY_NAMES.join(', ')} or { granular: {…} }`,
  )
}
