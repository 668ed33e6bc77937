import { spawnSync } from 'node:child_process'
import { bwrapLayout } from './bwrap-layout.js'

const PROBE_TIMEOUT_MS = 10_000

/**
 * Runs `/bin/sh -c :` in the most confining layout (user, pid and network namespaces, read-only root, fresh /proc);
 * undefined when that works, else why not (no such file, or bubblewrap's own complaint: no user namespaces, …).
 */
export function probeBwrap(bwrap: string): string | undefined {
  const layout = bwrapLayout({ policy: { type: 'readOnly', networkAccess: false }, cwd: '/', env: {} })
  const result = spawnSync(bwrap, [...layout, '--', '/bin/sh', '-c', ':'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
  })
  const code = (result.error as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ENOENT') return 'does not exist'
  if (code === 'EACCES') return 'is not executable'
  if (code === 'ETIMEDOUT') return `did not finish a probe run within ${PROBE_TIMEOUT_MS / 1000} s`
  if (result.error) return `could not be started (${result.error.message})`
  if (result.status === 0) return undefined
  const stderr = result.stderr.trim().split('\n').filter(Boolean).join('; ')
  const exit = result.status === null ? `was killed by ${result.signal}` : `exited with ${result.status}`
  return `failed a probe run (${exit}${stderr ? `: ${stderr}` : ''})`
}
