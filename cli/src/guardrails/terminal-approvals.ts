import { type ApprovalDecision, type ApprovalRequest, type Approvals, definePlugin, type Plugin } from '@harness-kernel/kernel'
import type { CliIo } from '../io.js'

/** What the model is told when the user says no at the terminal (Codex's words). */
export const REJECTED_BY_USER = 'rejected by user'

/** Whether `harness run` can ask the user: both its input and its prompts are on a terminal. */
export function hasTerminal(io: CliIo): boolean {
  return io.stdin.isTTY === true && io.stderr.isTTY === true
}

/**
 * Asks at the terminal, one request at a time: the command (or files), its working directory and the reason;
 * `y` yes, `n` no, `a` yes for the rest of the session. Anything else, or the end of input, is a no.
 */
export function terminalApprovals(io: CliIo): Plugin {
  let queue: Promise<unknown> = Promise.resolve()
  const approvals: Approvals = {
    request(request) {
      const answer = queue.then(() => ask(io, request))
      queue = answer.catch(() => {})
      return answer
    },
  }
  return definePlugin({
    name: 'terminal-approvals',
    setup(kernel) {
      kernel.provide('approvals', approvals)
    },
  })
}

async function ask(io: CliIo, request: ApprovalRequest): Promise<ApprovalDecision> {
  if (request.signal.aborted) return { kind: 'deny', reason: 'interrupted while waiting for approval' }
  io.stderr.write(`\n${describe(request)}Allow? [y]es / [n]o / [a]lways for this session: `)
  const line = await readLine(io, request.signal)
  const answer = line?.trim().toLowerCase()
  if (answer === 'y' || answer === 'yes') return { kind: 'allow' }
  if (answer === 'a' || answer === 'always') return { kind: 'allow', remember: 'session' }
  if (line === undefined && request.signal.aborted) return { kind: 'deny', reason: 'interrupted while waiting for approval' }
  return { kind: 'deny', reason: REJECTED_BY_USER }
}

function describe(request: ApprovalRequest): string {
  const action = request.action
  const lines: string[] = []
  if (action?.kind === 'command') {
    lines.push(`harness: approve this command${request.sandboxed === false ? ' outside the sandbox' : ''}?`)
    lines.push(`  command: ${action.command}`, `  cwd:     ${action.cwd}`)
  } else if (action?.kind === 'fileChange') {
    lines.push(`harness: approve this file change${request.sandboxed === false ? ' outside the sandbox' : ''}?`)
    for (const path of action.paths) lines.push(`  file:    ${path}`)
  } else {
    lines.push(`harness: approve the call to ${request.call.name}?`, `  input:   ${JSON.stringify(request.call.input)}`)
  }
  if (request.reason) lines.push(`  reason:  ${request.reason}`)
  return `${lines.join('\n')}\n`
}

async function readLine(io: CliIo, signal: AbortSignal): Promise<string | undefined> {
  // node:readline loads with the first question, not with every run.
  const { createInterface } = await import('node:readline')
  if (signal.aborted) return undefined
  return new Promise((resolve) => {
    const rl = createInterface({ input: io.stdin, terminal: false })
    let settled = false
    const done = (line: string | undefined) => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', onAbort)
      rl.close()
      resolve(line)
    }
    const onAbort = () => done(undefined)
    signal.addEventListener('abort', onAbort, { once: true })
    rl.once('line', (line) => done(line))
    rl.once('close', () => done(undefined))
  })
}
