import { type ClaudeHandler, isHttpHandler } from '../types.js'
import type { HookPolicySettings } from './hook-policy-settings.js'

/** An `allowedHttpHookUrls` pattern: the whole URL, literally, with each `*` standing for any run of characters. */
export function urlMatchesPattern(url: string, pattern: string): boolean {
  const source = pattern
    .split('*')
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  return new RegExp(`^${source}$`, 's').test(url)
}

/** Why an http handler's URL is not allowed, if it is not. */
export function httpUrlDropReason(handler: ClaudeHandler, policy: HookPolicySettings): string | undefined {
  const allowed = policy.allowedHttpHookUrls
  if (!isHttpHandler(handler) || !allowed) return undefined
  if (allowed.values.some((pattern) => urlMatchesPattern(handler.url, pattern))) return undefined
  return `url ${JSON.stringify(handler.url)} does not match allowedHttpHookUrls (set in ${allowed.paths.join(', ')})`
}

/** An http handler may expand only the variables both it and `httpHookAllowedEnvVars` (when set) allow. */
export function restrictHttpEnvVars(handler: ClaudeHandler, policy: HookPolicySettings): ClaudeHandler {
  const allowed = policy.httpHookAllowedEnvVars
  if (!isHttpHandler(handler) || !allowed) return handler
  return { ...handler, allowedEnvVars: handler.allowedEnvVars.filter((name) => allowed.values.includes(name)) }
}
