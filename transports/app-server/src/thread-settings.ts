import type { Kernel, Session } from '@harness-kernel/kernel'
import { wireApprovalPolicy, wireSandboxPolicy } from './guardrails-params.js'
import { threadModel } from './thread-object.js'

/**
 * `thread/settings/updated`'s `threadSettings`, as Codex 0.169.0 sends it when a `turn/start` overrides the sandbox or
 * the approval policy (observed, App Server differential suite): the thread's settings now in force, members in its
 * order. What the harness has no setting for is Codex's default (`null`, `default`, no disabled plugins).
 */
export function threadSettings(kernel: Kernel, session: Session): Record<string, unknown> {
  const model = threadModel(kernel)
  const { policy } = session.guardrails
  return {
    disabledPluginIds: [],
    cwd: session.cwd,
    environments: [{ environmentId: 'local', cwd: session.cwd, runtimeWorkspaceRoots: [session.cwd] }],
    approvalPolicy: wireApprovalPolicy(policy.approval),
    approvalsReviewer: 'user',
    sandboxPolicy: wireSandboxPolicy(policy.sandbox),
    activePermissionProfile: null,
    model,
    modelProvider: 'harness',
    serviceTier: null,
    effort: null,
    summary: null,
    collaborationMode: { mode: 'default', settings: { model, reasoning_effort: null, developer_instructions: null } },
    multiAgentMode: 'explicitRequestOnly',
    personality: null,
  }
}
