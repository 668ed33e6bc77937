import type { Message, Session, TurnResult } from '@harness-kernel/kernel'

/** Codex's agent statuses (`CollabAgentStatus`), which Claude Code's task statuses map onto. */
export type ChildStatus = 'running' | 'completed' | 'errored' | 'interrupted' | 'shutdown'

/** One subagent: its session, and how its last run ended. */
export class ChildRun {
  readonly startedAt = Date.now()
  status: ChildStatus = 'running'
  /** The last run's result; undefined while the first runs. */
  result: TurnResult | undefined
  /** Set once the parent was told it reached a final status (Codex tells it once per subagent). */
  notified = false
  /** Set when `close` begins: the run it interrupts is no final status of its own. */
  closing = false
  #settled: Promise<void> = Promise.resolve()
  readonly #listeners = new Set<() => void>()

  constructor(
    readonly session: Session,
    readonly agent: { id: string; type: string },
    readonly maxSteps: number,
  ) {}

  /** The child's final text of its last run; null when it wrote none. */
  get lastMessage(): string | null {
    return this.result?.lastAssistantMessage ?? null
  }

  /** Runs one turn of the child; resolves with how it ended. */
  run(input: string | Message[]): Promise<TurnResult> {
    this.status = 'running'
    const running = this.session.run(input).then(
      (result) => {
        this.result = result
        this.status = statusOf(result)
        return result
      },
      (error: unknown) => {
        this.status = 'errored'
        throw error
      },
    )
    this.#settled = running.then(
      () => this.#changed(),
      () => this.#changed(),
    )
    return running
  }

  /** Resolves when the running turn (if any) has ended. */
  settled(): Promise<void> {
    return this.#settled
  }

  /** Calls `listener` whenever a run ends; returns the unsubscribe. */
  onSettled(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Interrupts and ends the child; returns its status before. */
  async close(reason: string): Promise<ChildStatus> {
    const previous = this.status
    this.closing = true
    if (previous === 'running') this.session.interrupt(reason)
    await this.session.end(reason)
    this.status = 'shutdown'
    this.#changed()
    return previous
  }

  #changed(): void {
    for (const listener of this.#listeners) listener()
  }
}

function statusOf(result: TurnResult): ChildStatus {
  if (result.status === 'completed') return 'completed'
  if (result.status === 'interrupted') return 'interrupted'
  return 'errored'
}

/** What a child's run ended with, for a tool result or a notification. */
export function runError(result: TurnResult | undefined): string {
  if (result === undefined) return 'the subagent did not finish'
  const why = result.error ?? result.reason
  return `the subagent's turn ended ${result.status}${why ? `: ${why}` : ''}`
}
