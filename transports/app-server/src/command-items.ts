import type { SessionEvent, ToolOutput } from '@harness-kernel/kernel'
import { type CommandCall, type CommandEnd, REFUSED_BY_GUARDRAILS, toolCallItem } from './wire-items.js'

/** Streamed output kept per command for `aggregatedOutput`; past it, the tool's own (tail-kept) streams are shown. */
const MAX_AGGREGATED_CHARS = 1024 * 1024

interface Command extends CommandCall {
  turnId: string
  declined: boolean
  /** stdout and stderr as they streamed, interleaved as they came. */
  streamed: string
  sawOutput: boolean
  /** `running` until the tool has run: `completed` (shown), or `interrupted` (the turn's interrupt stopped it). */
  state: 'running' | 'completed' | 'interrupted'
  /** What the stopped tool returned. */
  stopped?: ToolOutput
}

type Notify = (method: string, params: Record<string, unknown>) => void

/**
 * The `commandExecution` items of one thread, in Codex's order: `item/started` when the call is logged,
 * `item/commandExecution/outputDelta` as the tool streams (`tools/output`), and `item/completed` as soon as the tool
 * has run (`tools/post-execute`, stage -1000: before any PostToolUse hook), from the tool's own result: its exit code,
 * its streams as they came. A call the turn's interrupt stopped is completed only after `turn/completed` (where Codex
 * completes a command an interrupt left running, once it ends), and the hook runs of its post-execute are not shown.
 */
export class CommandItems {
  readonly #threadId: string
  readonly #cwd: string
  readonly #notify: Notify
  readonly #commands = new Map<string, Command>()
  /** Calls of the running turn its interrupt stopped, completed after `turn/completed`. */
  readonly #stopped = new Map<string, { command: Command; end: CommandEnd }>()
  #interrupting = false

  constructor(threadId: string, cwd: string, notify: Notify) {
    this.#threadId = threadId
    this.#cwd = cwd
    this.#notify = notify
  }

  /**
   * An approval request for a call not yet logged: its item starts now, before the request goes out, as Codex's does
   * (the `tool/call` event that follows does not start it again).
   */
  asking(call: { callId: string; name: string; input: unknown; turnId: string }): void {
    if (this.#commands.has(call.callId)) return
    this.#start({ ...call, startedMs: Date.now(), declined: false, streamed: '', sawOutput: false, state: 'running' })
  }

  /** A refused approval: the item completes `declined` at once, before the thread leaves `waitingOnApproval`. */
  declined(callId: string, output: string): void {
    const command = this.#commands.get(callId)
    if (command === undefined || command.state !== 'running') return
    command.state = 'completed'
    this.#complete(command, { status: 'declined', aggregatedOutput: output, exitCode: null, completedMs: Date.now(), output })
  }

  /**
   * `tool/call`: the item starts (unless an approval request started it). A call the guardrails refused without asking
   * has none: Codex shows no item for it (observed), only what the model is told.
   */
  started(event: Extract<SessionEvent, { type: 'tool/call' }>): void {
    if (event.decision === REFUSED_BY_GUARDRAILS) return
    const asked = this.#commands.get(event.callId)
    if (asked !== undefined) {
      asked.input = event.input
      asked.declined = event.decision.startsWith('deny')
      return
    }
    this.#start({
      callId: event.callId,
      name: event.name,
      input: event.input,
      startedMs: Date.now(),
      turnId: event.turnId,
      declined: event.decision.startsWith('deny'),
      streamed: '',
      sawOutput: false,
      state: 'running',
    })
  }

  #start(command: Command): void {
    this.#commands.set(command.callId, command)
    const item = toolCallItem(command, { cwd: this.#cwd, threadId: this.#threadId })
    this.#notify('item/started', { item, threadId: this.#threadId, turnId: command.turnId, startedAtMs: command.startedMs })
  }

  /** `tools/output`: a piece of the command's stdout or stderr. */
  output(callId: string, text: string): void {
    const command = this.#commands.get(callId)
    if (command?.state !== 'running') return
    command.sawOutput = true
    if (command.streamed.length <= MAX_AGGREGATED_CHARS) command.streamed += text
    this.#notify('item/commandExecution/outputDelta', { threadId: this.#threadId, turnId: command.turnId, itemId: callId, delta: text })
  }

  /** `tools/post-execute` (before the dialects' taps): the tool has run; `aborted` when the turn's interrupt stopped it. */
  executed(callId: string, result: ToolOutput, aborted: boolean): void {
    const command = this.#commands.get(callId)
    if (command?.state !== 'running') return
    if (aborted || this.#interrupting) {
      command.state = 'interrupted'
      command.stopped = result
      return
    }
    command.state = 'completed'
    this.#complete(command, {
      status: result.isError ? 'failed' : 'completed',
      ...this.#outcome(command, result),
      completedMs: Date.now(),
      output: result.output,
      details: result.details,
    })
  }

  /** `tool/result`: completes a call no tool ran for (declined or denied), or holds a stopped one for after the turn. */
  result(event: Extract<SessionEvent, { type: 'tool/result' }>): void {
    const command = this.#commands.get(event.callId)
    if (!command) return
    this.#commands.delete(event.callId)
    if (command.state === 'completed') return
    if (command.state === 'interrupted' || this.#interrupting) {
      const outcome = this.#outcome(command, command.stopped ?? { output: event.output, isError: true })
      this.#stopped.set(event.callId, { command, end: { status: 'failed', ...outcome, completedMs: Date.now() } })
      return
    }
    const status = command.declined ? 'declined' : event.isError ? 'failed' : 'completed'
    this.#complete(command, { status, aggregatedOutput: event.output, exitCode: null, completedMs: Date.now(), output: event.output })
  }

  /** The running turn is being interrupted: what it stops now completes after `turn/completed`. */
  interrupting(): void {
    this.#interrupting = true
  }

  /** A tool call whose hook runs are not shown: the interrupt stopped it (Codex runs no PostToolUse for it). */
  hidden(callId: string | undefined): boolean {
    return callId !== undefined && (this.#stopped.has(callId) || this.#commands.get(callId)?.state === 'interrupted')
  }

  /** After `turn/completed`: the calls its interrupt stopped complete (`failed`). */
  turnEnded(): void {
    this.#interrupting = false
    for (const { command, end } of this.#stopped.values()) this.#complete(command, end)
    this.#stopped.clear()
  }

  #outcome(command: Command, result: ToolOutput): Pick<CommandEnd, 'aggregatedOutput' | 'exitCode'> {
    const { details } = result
    const exitCode = typeof details?.exitCode === 'number' ? details.exitCode : null
    const streams = typeof details?.stdout === 'string' && typeof details.stderr === 'string' ? details.stdout + details.stderr : undefined
    const whole = command.sawOutput && command.streamed.length <= MAX_AGGREGATED_CHARS
    const aggregated = whole ? command.streamed : (streams ?? result.output)
    // Codex reports a command that printed nothing with no output at all (null), not an empty one.
    return { aggregatedOutput: aggregated === '' ? null : aggregated, exitCode }
  }

  #complete(command: Command, end: CommandEnd): void {
    const item = toolCallItem(command, { cwd: this.#cwd, threadId: this.#threadId }, end)
    const completed = { item, threadId: this.#threadId, turnId: command.turnId, contentTokenCount: null, completedAtMs: end.completedMs }
    this.#notify('item/completed', completed)
  }
}
