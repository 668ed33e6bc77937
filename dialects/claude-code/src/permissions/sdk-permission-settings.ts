import { join } from 'node:path'
import type { ClaudePermissionSettings, PermissionRule } from './types.js'

/**
 * The `permissions` of a settings object (Claude Code's own shape), for a Claude Code the kernel drives. (A type, not an
 * interface: the Agent SDK's `Settings` has an index signature.)
 */
export type SdkPermissionSettings = {
  permissions: { allow: string[]; ask: string[]; deny: string[]; additionalDirectories: string[] }
}

/**
 * The merged rules as one settings object Claude Code itself enforces (the Agent SDK's `settings`, `--settings`), so
 * a driven Claude Code applies the user's rules to its built-in tools with its own engine. A `/path` rule is made
 * absolute (`//…`): its anchor was the file it came from, which an inline object does not have.
 */
export function sdkPermissionSettings(settings: ClaudePermissionSettings): SdkPermissionSettings {
  const texts = (behavior: PermissionRule['behavior']) =>
    settings.rules.filter((rule) => rule.behavior === behavior).map((rule) => anchoredText(rule))
  return {
    permissions: {
      allow: texts('allow'),
      ask: texts('ask'),
      deny: texts('deny'),
      additionalDirectories: [...settings.additionalDirectories],
    },
  }
}

function anchoredText(rule: PermissionRule): string {
  const content = rule.content
  if (content === undefined || !content.startsWith('/') || content.startsWith('//') || rule.tool === 'Bash') return rule.text
  return `${rule.tool}(/${join(rule.root, content)})`
}
