import type { ClaudeHandler } from '../types.js'
import type { HookPolicySettings } from './hook-policy-settings.js'

const PLUGIN_NOTE = ' (the kernel cannot force-enable plugins, so plugin hooks are dropped too)'

/**
 * Why the settings gates stop a handler, if they do.
 * - A managed file that exists but cannot be used stops every non-managed hook: the policy it holds is unknown.
 * - `disableAllHooks` (after precedence) stops every hook when managed settings set it, and only non-managed hooks
 *   otherwise: other settings cannot disable managed hooks.
 * - `allowManagedHooksOnly` (managed only; not a boolean counts as true) stops every non-managed hook. Claude Code keeps
 *   the hooks of plugins that managed settings force-enable; the kernel has no force-enabled plugins, so plugin hooks
 *   stop too.
 */
export function settingsGateReason(handler: ClaudeHandler, policy: HookPolicySettings): string | undefined {
  const { disableAllHooks, allowManagedHooksOnly, unusableManaged } = policy
  const managedHook = handler.source === 'managed'
  const [unusable] = unusableManaged
  if (unusable && !managedHook) {
    return `managed settings ${unusable.path} cannot be used (${unusable.error}), so its policy is unknown: only managed hooks run until it is fixed or removed`
  }
  if (disableAllHooks?.value && (disableAllHooks.source === 'managed' || !managedHook)) {
    return `disableAllHooks is set in ${disableAllHooks.path}`
  }
  if (allowManagedHooksOnly?.value && !managedHook) {
    const { path, invalid } = allowManagedHooksOnly
    const reason =
      invalid === undefined
        ? `allowManagedHooksOnly is set in ${path}: only managed hooks run`
        : `allowManagedHooksOnly in ${path} is ${invalid}, not a boolean, so it counts as true (its restrictive value): only managed hooks run`
    return handler.source === 'plugin' ? `${reason}${PLUGIN_NOTE}` : reason
  }
  return undefined
}
