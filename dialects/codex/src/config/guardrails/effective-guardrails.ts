import { resolve } from 'node:path'
import type { ApprovalPolicy, SandboxPolicy } from '@harness-kernel/kernel'
import { isTable } from '../toml-table.js'
import { approvalPolicyAt } from './approval-policy.js'
import { describeValue, type SettingOrigin, settingError } from './codex-guardrails-config-error.js'
import { type ConfigLayer, layerOf, mergeLayers, originOf } from './config-layers.js'
import { sandboxModeAt, sandboxPolicyOf, type WorkspaceWriteSettings } from './sandbox-policy.js'

export interface EffectiveGuardrails {
  sandbox?: SandboxPolicy
  approval?: ApprovalPolicy
  /** `[sandbox_workspace_write]` as set, also when `sandbox_mode` is not: for a caller whose default is workspace-write. */
  workspaceWrite?: WorkspaceWriteSettings
}

/**
 * The sandbox and approval settings in effect across `layers` (lowest precedence first). As in Codex, the layers are
 * merged first and only the merged value is checked, so a bad value that a later layer replaces does no harm.
 */
export function effectiveGuardrails(layers: readonly ConfigLayer[], home: string): EffectiveGuardrails {
  const merged = mergeLayers(layers)
  if (merged.profile !== undefined) {
    const origin = originOf(layers, ['profile'])
    const name = typeof merged.profile === 'string' ? merged.profile : describeValue(merged.profile)
    throw settingError(
      { source: origin.source },
      `legacy \`profile = "${name}"\` config is no longer supported; use \`--profile ${name}\` with \`${name}.config.toml\` instead`,
    )
  }
  const approval = approvalOf(merged.approval_policy, originOf(layers, ['approval_policy']))
  const workspaceWrite = workspaceWriteOf(merged.sandbox_workspace_write, layers, home)
  const mode = merged.sandbox_mode === undefined ? undefined : sandboxModeAt(merged.sandbox_mode, originOf(layers, ['sandbox_mode']))
  return {
    ...(mode === undefined ? {} : { sandbox: sandboxPolicyOf(mode, workspaceWrite) }),
    ...(approval === undefined ? {} : { approval }),
    ...(workspaceWrite === undefined ? {} : { workspaceWrite }),
  }
}

function approvalOf(value: unknown, origin: SettingOrigin): ApprovalPolicy | undefined {
  if (value === undefined) return undefined
  // Codex 0.169.0 refuses it in any config layer, though its App Server still takes it.
  if (value === 'untrusted')
    throw settingError({ source: origin.source }, 'approval_policy = "untrusted" is no longer supported; remove this setting')
  return approvalPolicyAt(value, origin)
}

const WORKSPACE_WRITE_FLAGS = {
  network_access: 'networkAccess',
  exclude_tmpdir_env_var: 'excludeTmpdirEnvVar',
  exclude_slash_tmp: 'excludeSlashTmp',
} as const

function workspaceWriteOf(value: unknown, layers: readonly ConfigLayer[], home: string): WorkspaceWriteSettings | undefined {
  if (value === undefined) return undefined
  if (!isTable(value)) throw settingError(originOf(layers, ['sandbox_workspace_write']), `${describeValue(value)} is not a table`)
  const settings: WorkspaceWriteSettings = {}
  for (const [key, name] of Object.entries(WORKSPACE_WRITE_FLAGS)) {
    const flag = value[key]
    if (flag === undefined) continue
    if (typeof flag !== 'boolean')
      throw settingError(originOf(layers, ['sandbox_workspace_write', key]), `${describeValue(flag)} is not a boolean`)
    settings[name] = flag
  }
  const roots = value.writable_roots
  if (roots !== undefined) {
    const path = ['sandbox_workspace_write', 'writable_roots']
    const origin = originOf(layers, path)
    if (!Array.isArray(roots)) throw settingError(origin, `${describeValue(roots)} is not an array of paths`)
    const baseDir = layerOf(layers, path)?.baseDir ?? home
    settings.writableRoots = roots.map((root) => {
      if (typeof root !== 'string') throw settingError(origin, `${describeValue(root)} is not a path string`)
      return resolveRoot(root, baseDir, home)
    })
  }
  return settings
}

/**
 * Codex resolves a relative writable root against the folder of the file that names it (cwd for a `-c` flag) and
 * expands `~` and `~/…` to the home folder: `"cache"` in `~/.codex/config.toml` is `~/.codex/cache`.
 */
function resolveRoot(root: string, baseDir: string, home: string): string {
  if (root === '~') return home
  if (root.startsWith('~/')) return resolve(home, root.slice(2).replace(/^\/+/, ''))
  return resolve(baseDir, root)
}
