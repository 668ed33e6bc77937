import type { CommandHandler } from '../types.js'

/** The shell for each `shell` value: Claude Code runs `sh -c` on Linux and macOS unless the handler names another. */
export const HOOK_SHELLS = { default: '/bin/sh', bash: '/bin/bash', powershell: 'pwsh' } as const

export function hookShell(handler: Pick<CommandHandler, 'shell'>): string {
  return handler.shell === undefined ? HOOK_SHELLS.default : HOOK_SHELLS[handler.shell]
}
