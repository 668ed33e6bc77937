import type { ApprovalDecision, ApprovalRequest } from '@harness-kernel/kernel'
import type { RpcResponse } from './rpc-peer.js'
import { commandItem, shellCommandLine } from './wire-items.js'

/** What the model is told of a declined call: Codex's text behind `exec_command failed: …` (codex-app-server.md §6). */
export const REJECTED_BY_USER = 'Rejected("rejected by user")'

export const COMMAND_APPROVAL = 'item/commandExecution/requestApproval'
export const FILE_CHANGE_APPROVAL = 'item/fileChange/requestApproval'

/** The server request asking the client about one call. */
export interface ApprovalServerRequest {
  method: typeof COMMAND_APPROVAL | typeof FILE_CHANGE_APPROVAL
  params: Record<string, unknown>
}

/**
 * The request Codex sends for a call the kernel asks about (guardrails.md §2.4): `item/fileChange/requestApproval` for a
 * file change the guardrails judged, else `item/commandExecution/requestApproval`, for the guardrails' command (what
 * the shell runs, where) or for the tool call itself (a hook or policy asked). A proposed rule is offered as Codex
 * offers it (observed: accept, accept with that amendment, cancel); otherwise the four plain decisions.
 */
export function approvalServerRequest(request: ApprovalRequest, threadId: string, sessionCwd: string): ApprovalServerRequest {
  const startedAtMs = Date.now()
  const where = { threadId, turnId: request.turnId, itemId: request.call.id, startedAtMs }
  const reason = request.reason ?? null
  const action = request.action
  if (action?.kind === 'fileChange') {
    return { method: FILE_CHANGE_APPROVAL, params: { ...where, reason, grantRoot: null } }
  }
  const shown =
    action?.kind === 'command'
      ? { command: shellCommandLine(action.command), cwd: action.cwd, commandActions: [{ type: 'unknown', command: action.command }] }
      : toolCommand(request, sessionCwd, startedAtMs)
  return {
    method: COMMAND_APPROVAL,
    params: {
      kind: 'command',
      ...where,
      environmentId: 'local',
      // Codex leaves the reason out when it asks on its own account (untrusted, a dangerous command).
      ...(reason === null ? {} : { reason }),
      ...shown,
      ...decisionsOffered(request),
    },
  }
}

/**
 * What the client may answer, as Codex offers it (observed): a `prompt` rule's question only accept or cancel (and no
 * amendment member); a proposed rule accept, accept with that amendment, or cancel; otherwise the four plain decisions.
 */
function decisionsOffered(request: ApprovalRequest): Record<string, unknown> {
  if (request.cause === 'rule') return { availableDecisions: ['accept', 'cancel'] }
  const rule = request.proposedRule
  if (rule) {
    return {
      proposedExecpolicyAmendment: rule,
      availableDecisions: ['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: rule } }, 'cancel'],
    }
  }
  return { proposedExecpolicyAmendment: null, availableDecisions: ['accept', 'acceptForSession', 'decline', 'cancel'] }
}

/** A tool call shown as the command its item shows. */
function toolCommand(request: ApprovalRequest, cwd: string, startedMs: number) {
  const item = commandItem({ callId: request.call.id, name: request.call.name, input: request.call.input, startedMs }, cwd)
  return { command: item.command, cwd, commandActions: item.commandActions }
}

/**
 * The kernel's decision for the client's answer. `accept` allows once, `acceptForSession` for the rest of the session,
 * an exec-policy amendment allows its argv prefix from now on, a network-policy amendment (there is no network policy
 * to amend) allows once; `decline` refuses and the turn goes on, `cancel` refuses and ends the turn. Anything else (an
 * error answer, an unknown or malformed decision, an amendment to a file change) refuses: fail closed.
 */
export function approvalDecision(method: ApprovalServerRequest['method'], answer: RpcResponse): ApprovalDecision {
  const decision = (answer.result as { decision?: unknown } | undefined)?.decision
  if (decision === 'accept') return { kind: 'allow' }
  if (decision === 'acceptForSession') return { kind: 'allow', remember: 'session' }
  if (decision === 'cancel') return { kind: 'deny', reason: REJECTED_BY_USER, interrupt: true }
  if (method === COMMAND_APPROVAL && isSingleKeyMap(decision)) {
    const amendment = (decision as { acceptWithExecpolicyAmendment?: { execpolicy_amendment?: unknown } }).acceptWithExecpolicyAmendment
    const prefix = amendment?.execpolicy_amendment
    if (isArgvPrefix(prefix)) return { kind: 'allow', rule: prefix }
    const network = (decision as { applyNetworkPolicyAmendment?: unknown }).applyNetworkPolicyAmendment
    if (typeof network === 'object' && network !== null && 'network_policy_amendment' in network) return { kind: 'allow' }
  }
  return { kind: 'deny', reason: REJECTED_BY_USER }
}

function isSingleKeyMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1
}

function isArgvPrefix(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === 'string' && part !== '')
}
