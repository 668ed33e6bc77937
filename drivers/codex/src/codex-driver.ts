import type { Driver, DriverSessionContext } from '@harness-kernel/kernel'
import { DRIVER_SPEC } from '@harness-kernel/kernel'
import { CODEX_CAPABILITIES } from './capabilities.js'
import { CodexSession } from './codex-session.js'
import { type CodexDriverOptions, checkOptions } from './options.js'

/**
 * Runs each kernel turn inside the real Codex (`codex app-server`): the kernel's tools as Codex's dynamic
 * tools, its points where the protocol lets them fire, steering live with receipts. Codex starts when a
 * session runs its first turn.
 */
export function codexDriver(options: CodexDriverOptions = {}): Driver {
  checkOptions(options)
  return Object.freeze({
    specificationVersion: DRIVER_SPEC,
    id: 'codex',
    capabilities: CODEX_CAPABILITIES,
    async open(context: DriverSessionContext) {
      return new CodexSession(context, options)
    },
  })
}
