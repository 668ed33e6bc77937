import { join } from 'node:path'
import type { ClaudeSandboxSettings } from './sandbox-settings.js'
import type { ClaudePermissionSettings, PermissionRule } from './types.js'

/**
 * The `permissions` of a settings object (Claude Code's own shape), for a Claude Code the kernel drives. (A type, not an
 * interface: the Agent SDK's `Settings` has an index signature.)
 */
export type SdkPermissionSettings = {
  permissions: { allow: string[]; ask: string[]; deny: string[]; additionalDirectories: string[] }
  /** Claude Code's sandbox, when the settings turn it on; never weaker than asked (`failIfUnavailable`). */
  sandbox?: Record<string, unknown>
}

/**
 * The merged rules as one settings object Claude Code itself enforces (the Agent SDK's `settings`, `--settings`), so
 * a driven Claude Code applies the user's rules to its built-in tools with its own engine. A `/path` rule is made
 * absolute (`//…`): its anchor was the file it came from, which an inline object does not have.
 */
export function sdkPermissionSettings(settings: ClaudePermissionSettings, sandbox?: ClaudeSandboxSettings): SdkPermissionSettings {
  const texts = (behavior: PermissionRule['behavior']) =>
    settings.rules.filter((rule) => rule.behavior === behavior).map((rule) => anchoredText(rule))
  return {
    permissions: {
      allow: texts('allow'),
      ask: texts('ask'),
      deny: texts('deny'),
      additionalDirectories: [...settings.additionalDirectories],
    },
    ...(sandbox?.enabled ? { sandbox: sdkSandbox(sandbox) } : {}),
  }
}

/** The merged sandbox settings; a sandbox that cannot start stops Claude Code rather than let it run unconfined. */
function sdkSandbox(sandbox: ClaudeSandboxSettings): Record<string, unknown> {
  return {
    enabled: true,
    failIfUnavailable: true,
    autoAllowBashIfSandboxed: sandbox.autoAllowBashIfSandboxed,
    allowUnsandboxedCommands: sandbox.allowUnsandboxedCommands,
    excludedCommands: [...sandbox.excludedCommands],
    network: { allowedDomains: [...sandbox.network.allowedDomains], deniedDomains: [...sandbox.network.deniedDomains] },
    filesystem: {
      allowWrite: [...sandbox.filesystem.allowWrite],
      denyWrite: [...sandbox.filesystem.denyWrite],
      denyRead: [...sandbox.filesystem.denyRead],
      allowRead: [...sandbox.filesystem.allowRead],
    },
  }
}

function anchoredText(rule: PermissionRule): string {
  const content = rule.content
  if (content === undefined || !content.startsWith('/') || content.startsWith('//') || rule.tool === 'Bash') return rule.text
  return `${rule.tool}(/${join(rule.root, content)})`
}
