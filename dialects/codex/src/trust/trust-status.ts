import type { TrustStatus } from '../types.js'

/** Codex's `hook_trust_status`: managed hooks need no hash; the others compare the stored hash with the current one. */
export function codexTrustStatus(managed: boolean, currentHash: string, trustedHash: string | undefined): TrustStatus {
  if (managed) return 'managed'
  if (trustedHash === undefined) return 'untrusted'
  return trustedHash === currentHash ? 'trusted' : 'modified'
}
