import { isAbsolute } from 'node:path'
import type { ApprovalPolicy, GuardrailsPolicy, SandboxMode, SandboxPolicy, Session } from '@harness-kernel/kernel'
import { errorMessage, sandboxPolicyOfMode } from '@harness-kernel/kernel'
import { z } from 'zod'
import { invalidRequest } from './rpc-errors.js'
import { notAVariant, serdeText, unexpected } from './serde-errors.js'

/** Codex's `SandboxMode`: the `sandbox` of `thread/start`, `thread/resume` and `thread/fork`. */
export const sandboxModeSchema = z.enum(['read-only', 'workspace-write', 'danger-full-access'])

const APPROVAL_NAMES: readonly string[] = ['untrusted', 'on-request', 'never']
/** AskForApproval's variants as serde lists them (Codex 0.169.0, observed); `on-failure` is not one of them. */
const APPROVAL_VARIANTS = ['untrusted', 'on-request', 'granular', 'never']

const granularSchema = z.object({
  sandbox_approval: z.boolean(),
  rules: z.boolean(),
  skill_approval: z.boolean().optional(),
  request_permissions: z.boolean().optional(),
  mcp_elicitations: z.boolean(),
})

/** Codex's `AskForApproval` (`approvalPolicy`), refused in serde's words, as the kernel's `ApprovalPolicy`. */
export const askForApprovalSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    const refuse = (message: string) => ctx.addIssue({ code: 'custom', ...serdeText(message) })
    if (typeof value === 'string') {
      if (!APPROVAL_NAMES.includes(value)) refuse(notAVariant(value, APPROVAL_VARIANTS))
      return
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length !== 1) {
      refuse(notAVariant(value, APPROVAL_VARIANTS))
      return
    }
    const [[name, inner]] = Object.entries(value) as [[string, unknown]]
    if (name !== 'granular') {
      // serde reads `{"never": {}}` as `"never"` (observed).
      if (!APPROVAL_NAMES.includes(name)) refuse(notAVariant(value, APPROVAL_VARIANTS))
      else if (inner !== null && !isEmptyMap(inner)) refuse(`invalid type: ${unexpected(inner)}, expected unit variant`)
      return
    }
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) {
      refuse(`invalid type: ${unexpected(inner)}, expected struct variant`)
      return
    }
    const parsed = granularSchema.safeParse(inner)
    for (const issue of parsed.error?.issues ?? []) ctx.addIssue({ ...issue, path: ['granular', ...issue.path] } as never)
  })
  .transform((value): ApprovalPolicy => {
    if (typeof value === 'string') return value as ApprovalPolicy
    const [[name, inner]] = Object.entries(value as object) as [[string, z.infer<typeof granularSchema>]]
    if (name !== 'granular') return name as ApprovalPolicy
    return {
      granular: {
        sandbox_approval: inner.sandbox_approval,
        rules: inner.rules,
        skill_approval: inner.skill_approval ?? false,
        request_permissions: inner.request_permissions ?? false,
        mcp_elicitations: inner.mcp_elicitations,
      },
    }
  })

const isEmptyMap = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0

const absolutePath = z.string().refine((path) => isAbsolute(path), serdeText('AbsolutePathBuf deserialized without a base path'))

/** Codex's `SandboxPolicy` (`turn/start`, `command/exec`), with the schema's defaults filled in. */
export const sandboxPolicySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('dangerFullAccess') }),
  z.object({ type: z.literal('readOnly'), networkAccess: z.boolean().default(false) }),
  z.object({ type: z.literal('externalSandbox'), networkAccess: z.enum(['restricted', 'enabled']).default('restricted') }),
  z.object({
    type: z.literal('workspaceWrite'),
    writableRoots: z.array(absolutePath).default([]),
    networkAccess: z.boolean().default(false),
    excludeTmpdirEnvVar: z.boolean().default(false),
    excludeSlashTmp: z.boolean().default(false),
  }),
])
export type WireSandboxPolicy = z.infer<typeof sandboxPolicySchema>

/** serde's names for what a `sandboxPolicy` member expects, for `named(...)` (key: where the policy is in the params). */
export function sandboxPolicyNames(key: string): Record<string, string> {
  return { [key]: 'internally tagged enum SandboxPolicyDeserialize', [`${key}.writableRoots.*`]: 'path string' }
}

/** Codex's answer to a granular approval policy from a client that did not opt into its experimental API (observed). */
export function checkExperimentalApproval(approval: ApprovalPolicy | null | undefined, experimentalApi: boolean): void {
  if (typeof approval === 'object' && approval !== null && !experimentalApi)
    throw invalidRequest('askForApproval.granular requires experimentalApi capability')
}

/**
 * The kernel's sandbox policy for a client's; `externalSandbox` (the client sandboxes the server itself) is refused:
 * the server confines commands with its own sandbox, and would not know what the outer one allows.
 */
export function sandboxPolicyOf(policy: WireSandboxPolicy, where: string): SandboxPolicy {
  if (policy.type === 'externalSandbox')
    throw invalidRequest(
      `${where} \`externalSandbox\` is not supported by this server: it runs commands in its own sandbox (use readOnly, workspaceWrite or dangerFullAccess)`,
    )
  return policy
}

/**
 * The policy `thread/start`, `thread/resume` or `thread/fork` asks for: what it names, nothing else. A mode is expanded
 * as Codex expands it: `workspace-write` takes the writable roots and switches of the server's default policy when
 * that is a workspace-write one too (Codex's `[sandbox_workspace_write]`).
 */
export function requestedThreadPolicy(
  params: { sandbox?: SandboxMode | null | undefined; approvalPolicy?: ApprovalPolicy | null | undefined } | null | undefined,
  defaultPolicy: GuardrailsPolicy,
): Partial<GuardrailsPolicy> {
  const workspaceWrite = defaultPolicy.sandbox.type === 'workspaceWrite' ? defaultPolicy.sandbox : {}
  return {
    ...(params?.sandbox ? { sandbox: sandboxPolicyOfMode(params.sandbox, workspaceWrite) } : {}),
    ...(params?.approvalPolicy ? { approval: params.approvalPolicy } : {}),
  }
}

/** Puts a policy in force on a session for its later tool calls; a policy the kernel refuses is the request's error. */
export function applyPolicy(session: Session, update: Partial<GuardrailsPolicy>): void {
  if (update.sandbox === undefined && update.approval === undefined) return
  try {
    session.guardrails.setPolicy(update)
  } catch (error) {
    throw invalidRequest(`Invalid request: ${errorMessage(error)}`)
  }
}

/** A sandbox policy as Codex reports it (`sandbox` of the thread answers): the whole object, members in its order. */
export function wireSandboxPolicy(policy: SandboxPolicy): Record<string, unknown> {
  if (policy.type === 'dangerFullAccess') return { type: 'dangerFullAccess' }
  if (policy.type === 'readOnly') return { type: 'readOnly', networkAccess: policy.networkAccess }
  return {
    type: 'workspaceWrite',
    writableRoots: [...policy.writableRoots],
    networkAccess: policy.networkAccess,
    excludeTmpdirEnvVar: policy.excludeTmpdirEnvVar,
    excludeSlashTmp: policy.excludeSlashTmp,
  }
}

/**
 * An approval policy as Codex reports it (`approvalPolicy`): granular with every category, in Codex's order.
 * `on-failure` (a kernel policy from Codex's config, where it still exists) is reported as the `on-request` it acts as:
 * Codex's App Server has no such variant.
 */
export function wireApprovalPolicy(policy: ApprovalPolicy): unknown {
  if (policy === 'on-failure') return 'on-request'
  if (typeof policy === 'string') return policy
  const { sandbox_approval, rules, skill_approval, request_permissions, mcp_elicitations } = policy.granular
  return { granular: { sandbox_approval, rules, skill_approval, request_permissions, mcp_elicitations } }
}
