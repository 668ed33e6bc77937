import type { ClaudeHandler } from '../types.js'
import type { HookPolicySettings } from './hook-policy-settings.js'

/**
 * Why the settings gates stop a handler, if they do.
 * - `disableAllHooks` (after precedence) stops every hook when managed settings set it, and only non-managed hooks
 *   otherwise: other settings cannot disable managed hooks.
 * - `allowManagedHooksOnly` (managed only) stops every non-managed hook. Claude Code keeps the hooks of plugins that
 *   managed settings force-enable; the kernel has no force-enabled plugins, so plugin hooks stop too.
 */
export function settingsGateReason(handler: ClaudeHandler, policy: HookPolicySettings): string | undefined {
  const { disableAllHooks, allowManagedHooksOnly } = policy
  const managedHook = handler.source === 'managed'
  if (disableAllHooks?.value && (disableAllHooks.source === 'managed' || !managedHook)) {
    return `disableAllHooks is set in ${disableAllHooks.path}`
  }
  if (allowManagedHooksOnly?.value && !managedHook) {
    const reason = `allowManagedHooksOnly is set in ${allowManagedHooksOnly.path}: only managed hooks run`
    return handler.source === 'plugin' ? `${reason} (the kernel cannot force-enable plugins, so plugin hooks are dropped too)` : reason
  }
  return undefined
}
