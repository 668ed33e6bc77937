import { resolve } from 'node:path'
import { type Kernel, KernelError, type Session } from '@harness-kernel/kernel'
import { CliError } from '../cli-error.js'
import { noModelMessage } from '../create-harness.js'
import { exitCodeForStatus } from '../exit-codes.js'
import { noTerminalApprovals } from '../guardrails/no-terminal-approvals.js'
import { hasTerminal, terminalApprovals } from '../guardrails/terminal-approvals.js'
import { type CliIo, writeJson } from '../io.js'
import { progressReporter } from '../progress-reporter.js'
import { readPrompt } from '../read-prompt.js'
import { resolveSessionId } from '../session-id.js'
import { signalExitCode, watchSignals } from '../signals.js'
import { colorEnabled } from '../style.js'
import { type BudgetFlags, budgetsFromFlags } from './budget-flags.js'
import type { HarnessOptions } from './harness-flags.js'
import { checkDriverFlag, harnessFromOptions } from './harness-options.js'

export interface RunOptions extends HarnessOptions, BudgetFlags {
  json?: boolean
  resume?: string
}

export async function run(promptArgument: string | undefined, options: RunOptions, io: CliIo): Promise<number> {
  const cwd = resolve(io.cwd, options.cwd ?? '.')
  checkDriverFlag(options)
  const budgets = budgetsFromFlags(options)
  const prompt = await readPrompt(promptArgument, io)
  const { kernel, sessionsAt } = await harnessFromOptions(
    options,
    io,
    cwd,
    [
      progressReporter({ stream: io.stderr, color: colorEnabled(io.stderr, io.env) }),
      hasTerminal(io) ? terminalApprovals(io) : noTerminalApprovals(io),
    ],
    { budgets },
  )
  let session: Session | undefined
  const signals = watchSignals((signal) => session?.interrupt(`interrupted by ${signal}`), io.stderr)
  try {
    session = await openSession(kernel, options.resume, io.env, sessionsAt)
    if (signals.received) return signalExitCode(signals.received)
    const turn = await session.run(prompt)
    if (options.json) writeJson(io.stdout, { sessionId: session.id, transcriptPath: session.transcriptPath, turn })
    else if (turn.lastAssistantMessage) io.stdout.write(`${turn.lastAssistantMessage.replace(/\n$/, '')}\n`)
    if (turn.status === 'interrupted' && signals.received) return signalExitCode(signals.received)
    return exitCodeForStatus(turn.status)
  } finally {
    signals.stop()
    try {
      await session?.end()
    } finally {
      await kernel.dispose()
    }
  }
}

async function openSession(kernel: Kernel, resume: string | undefined, env: CliIo['env'], sessionsAt: string): Promise<Session> {
  // A prefix is resolved before the session starts: an unknown or ambiguous one runs nothing.
  const id = resume === undefined ? undefined : await resolveSessionId(kernel.resolve('sessionStore'), resume, sessionsAt)
  try {
    return id === undefined ? await kernel.startSession() : await kernel.resumeSession(id)
  } catch (error) {
    if (error instanceof KernelError && error.message.startsWith('no model provider')) {
      throw new CliError(noModelMessage(env, 'no model: the configured plugins provide none; add a model plugin to them, or'))
    }
    throw error
  }
}
