// Child processes of the suites: the real clients' driver scripts and the kernel child.
import { spawn } from 'node:child_process'

/**
 * Runs `file` with `args` (stdin closed), collecting stdout and stderr; after `timeoutMs` it is sent `killSignal`.
 * @param {{ cwd?: string, env: object, timeoutMs: number, killSignal?: NodeJS.Signals }} options
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string, timedOut: boolean }>}
 */
export function runProcess(file, args, { cwd, env, timeoutMs, killSignal = 'SIGTERM' }) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { ...(cwd === undefined ? {} : { cwd }), env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill(killSignal)
    }, timeoutMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, timedOut })
    })
  })
}

/** The last `n` lines of a process's output, joined with ` | `: for one-line error messages. */
export const lastLines = (text, n) => text.trim().split('\n').slice(-n).join(' | ')
