import type { ApprovalPolicy, GranularApprovals } from '@harness-kernel/kernel'
import { isTable } from '../toml-table.js'
import { describeValue, type SettingOrigin, settingError } from './codex-guardrails-config-error.js'

const NAMED_POLICIES = ['untrusted', 'on-failure', 'on-request', 'never'] as const

/**
 * An approval policy as the CLI's `-a` and the App Server's `approvalPolicy` take it: `untrusted`, `on-failure`,
 * `on-request`, `never` or `{ granular: {…} }`. Throws naming `where` on anything else.
 */
export function parseApprovalPolicy(value: unknown, where: string): ApprovalPolicy {
  return approvalPolicyAt(value, { source: where })
}

export function approvalPolicyAt(value: unknown, origin: SettingOrigin): ApprovalPolicy {
  if (typeof value === 'string' && (NAMED_POLICIES as readonly string[]).includes(value)) return value as ApprovalPolicy
  if (isTable(value) && Object.keys(value).length === 1 && 'granular' in value)
    return { granular: granularAt(value.granular, { ...origin, key: joinKey(origin.key, 'granular') }) }
  throw settingError(
    origin,
    `${describeValue(value)} is not an approval policy; expected "untrusted", "on-failure", "on-request", "never" or { granular = {…} }`,
  )
}

/** Codex 0.169.0 requires three of the five; `skill_approval` and `request_permissions` default to false. */
function granularAt(value: unknown, origin: SettingOrigin): GranularApprovals {
  if (!isTable(value)) throw settingError(origin, `${describeValue(value)} is not a table of booleans`)
  const flag = (key: string, required: boolean) => {
    const item = value[key]
    if (item === undefined && !required) return false
    if (typeof item === 'boolean') return item
    const at = { ...origin, key: joinKey(origin.key, key) }
    throw settingError(at, item === undefined ? 'is missing (a boolean is required)' : `${describeValue(item)} is not a boolean`)
  }
  return {
    sandbox_approval: flag('sandbox_approval', true),
    rules: flag('rules', true),
    skill_approval: flag('skill_approval', false),
    request_permissions: flag('request_permissions', false),
    mcp_elicitations: flag('mcp_elicitations', true),
  }
}

const joinKey = (key: string | undefined, child: string) => (key === undefined ? child : `${key}.${child}`)
