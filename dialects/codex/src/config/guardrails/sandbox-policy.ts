import { isAbsolute, resolve } from 'node:path'
import { SANDBOX_MODES, type SandboxMode, type SandboxPolicy, sandboxPolicyOfMode } from '@harness-kernel/kernel'
import { describeValue, type SettingOrigin, settingError } from './codex-guardrails-config-error.js'

export type WorkspaceWritePolicy = Extract<SandboxPolicy, { type: 'workspaceWrite' }>
/** Codex's `[sandbox_workspace_write]` in the App Server's names; what is left out takes Codex's default. */
export type WorkspaceWriteSettings = Partial<Omit<WorkspaceWritePolicy, 'type'>>

/** Codex's `sandbox_mode` (config, `-s`, the App Server's `sandbox`); throws naming `where` on anything else. */
export function parseSandboxMode(value: unknown, where: string): SandboxMode {
  return sandboxModeAt(value, { source: where })
}

export function sandboxModeAt(value: unknown, origin: SettingOrigin): SandboxMode {
  if (typeof value === 'string' && (SANDBOX_MODES as readonly string[]).includes(value)) return value as SandboxMode
  throw settingError(
    origin,
    `${describeValue(value)} is not a sandbox mode; expected "read-only", "workspace-write" or "danger-full-access"`,
  )
}

/** The policy a mode names; `[sandbox_workspace_write]` counts only for workspace-write, as in Codex. */
export function sandboxPolicyOf(mode: SandboxMode, workspaceWrite: WorkspaceWriteSettings = {}): SandboxPolicy {
  return sandboxPolicyOfMode(mode, workspaceWrite)
}

/**
 * The App Server's `SandboxPolicy` object (`thread/start`, `turn/start`) with the defaults of Codex 0.169.0's JSON
 * schema (`codex app-server generate-json-schema`): `networkAccess` false, `writableRoots` [], the exclusions false.
 * Writable roots must be absolute there (no base to resolve against); they come back normalized.
 */
export function parseSandboxPolicy(value: unknown, where: string): SandboxPolicy {
  const origin = { source: where }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw settingError(origin, `${describeValue(value)} is not a sandbox policy object`)
  const policy = value as Record<string, unknown>
  const flag = (key: string) => wireBoolean(policy[key], { source: where, key })
  switch (policy.type) {
    case 'dangerFullAccess':
      return { type: 'dangerFullAccess' }
    case 'readOnly':
      return { type: 'readOnly', networkAccess: flag('networkAccess') }
    case 'workspaceWrite':
      return {
        type: 'workspaceWrite',
        writableRoots: wireRoots(policy.writableRoots, { source: where, key: 'writableRoots' }),
        networkAccess: flag('networkAccess'),
        excludeTmpdirEnvVar: flag('excludeTmpdirEnvVar'),
        excludeSlashTmp: flag('excludeSlashTmp'),
      }
    case 'externalSandbox':
      throw settingError(
        { source: where, key: 'type' },
        '"externalSandbox" is not supported: the harness enforces the sandbox itself; use "readOnly", "workspaceWrite" or "dangerFullAccess"',
      )
    default:
      throw settingError(
        { source: where, key: 'type' },
        `${describeValue(policy.type)} is not a sandbox policy type; expected "dangerFullAccess", "readOnly" or "workspaceWrite"`,
      )
  }
}

function wireBoolean(value: unknown, origin: SettingOrigin): boolean {
  if (value === undefined) return false
  if (typeof value === 'boolean') return value
  throw settingError(origin, `${describeValue(value)} is not a boolean`)
}

function wireRoots(value: unknown, origin: SettingOrigin): string[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) throw settingError(origin, `${describeValue(value)} is not an array of absolute paths`)
  return value.map((root) => {
    if (typeof root !== 'string' || !isAbsolute(root))
      throw settingError(origin, `${describeValue(root)} is not an absolute path (writable roots must be absolute)`)
    return resolve(root)
  })
}
