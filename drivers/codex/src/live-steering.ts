import type { BoundaryKind, Halt, TurnHost } from '@harness-kernel/kernel'
import { whenAborted } from '@harness-kernel/kernel'
import { RpcTimeoutError } from './json-rpc-connection.js'
import { clientIdOf, contextItems, userInputs } from './user-input.js'
import type { UserMessageReceipts } from './user-message-receipts.js'

/** What steering needs from the running Codex turn. */
export interface SteerPort {
  /** The turn's id once Codex named it. */
  turnId(): Promise<string>
  step(): number
  /** What a claim between boundaries counts as: `tool` while a kernel tool is parked, `final` after an answer, else `sampling`. */
  boundaryNow(): BoundaryKind
  request(method: 'turn/steer' | 'thread/inject_items', params: Record<string, unknown>, timeoutMs?: number): Promise<unknown>
  readonly threadId: string
  readonly steerTimeoutMs: number
  readonly receipts: UserMessageReceipts
  halt(halt: Halt): void
}

/**
 * Live steering (drivers.md §3.2): input claimed while the turn runs goes to Codex as `turn/steer`
 * with `expectedTurnId` and a `clientUserMessageId` (the first item's id). It is written to the kernel
 * log, and its claims accepted, only when Codex's `userMessage` for it completes. One claim runs at a
 * time; after a refusal the turn takes no more (its input is the next turn's).
 */
export class LiveSteering {
  readonly #host: TurnHost
  readonly #port: SteerPort
  readonly #stop = new AbortController()
  #chain: Promise<void> = Promise.resolve()
  #open = true
  #progress = newSignal()

  constructor(host: TurnHost, port: SteerPort) {
    this.#host = host
    this.#port = port
  }

  /** Claims whenever a source has input, until the turn ends. */
  start(): void {
    void this.#watch()
  }

  /** Codex moved on (an item started or completed): input that could not be claimed before may be now. */
  progressed(): void {
    this.#progress.fire()
    this.#progress = newSignal()
  }

  /** Claims at a boundary Codex reached; resolves once any input is sent (a parked tool's answer waits for it). */
  at(kind: BoundaryKind, step = this.#port.step()): Promise<boolean> {
    const next = this.#chain.then(() => this.#claim(kind, step))
    this.#chain = next.then(
      () => {},
      () => {},
    )
    return next
  }

  /** The turn is ending: no more claims; resolves when the claim in flight has settled. */
  async close(): Promise<void> {
    this.#open = false
    this.#stop.abort()
    await this.#chain
  }

  async #watch(): Promise<void> {
    const signal = AbortSignal.any([this.#stop.signal, this.#host.signal])
    while (this.#open && !signal.aborted) {
      const seen = this.#progress
      await this.#host.waitForInput(signal)
      if (!this.#open || signal.aborted) return
      const sent = await this.at(this.#port.boundaryNow()).catch(() => false)
      // Nothing claimable after all (another boundary will take it): wait for Codex to move before asking again.
      if (sent === false) await Promise.race([seen.fired, whenAborted(signal)])
    }
  }

  async #claim(kind: BoundaryKind, step: number): Promise<boolean> {
    const host = this.#host
    if (!this.#open || host.signal.aborted) return false
    const claimed = await host.claim({ kind, step })
    if (claimed.messages.length === 0) {
      claimed.settle()
      return false
    }
    const entry = await host.enter({ step, messages: claimed.messages, claimed })
    const prompt = entry.messages.filter((message) => message.role === 'user')
    const context = [...entry.context, ...entry.messages.filter((message) => message.role !== 'user')]
    if (entry.halt) {
      entry.record()
      this.#port.halt(entry.halt)
      return true
    }
    if (prompt.length === 0 && context.length === 0) {
      entry.record()
      return true
    }
    if (!this.#open || host.signal.aborted) {
      entry.abandon()
      return false
    }
    const { receipts, threadId } = this.#port
    const clientId = clientIdOf(prompt)
    let expected = false
    try {
      const turnId = await this.#port.turnId()
      if (context.length > 0) await this.#port.request('thread/inject_items', { threadId, items: contextItems(context) })
      if (prompt.length === 0) {
        entry.record()
        return true
      }
      receipts.expect(clientId, entry, 'steer')
      expected = true
      await this.#port.request(
        'turn/steer',
        { threadId, expectedTurnId: turnId, input: userInputs(prompt), clientUserMessageId: clientId },
        this.#port.steerTimeoutMs,
      )
      return true
    } catch (error) {
      if (error instanceof RpcTimeoutError) {
        receipts.ambiguous(clientId)
        host.notice(
          'error',
          `steering/ambiguous: turn/steer ${clientId} got no answer within ${this.#port.steerTimeoutMs} ms; it is recorded if Codex records it, and never re-sent`,
        )
        return true
      }
      this.#open = false
      if (expected) receipts.returned(clientId)
      else entry.abandon()
      host.notice('info', `steering/returned: ${error instanceof Error ? error.message : String(error)}; the input goes to the next turn`)
      return true
    }
  }
}

interface OneShot {
  readonly fired: Promise<void>
  fire(): void
}

function newSignal(): OneShot {
  let fire!: () => void
  const fired = new Promise<void>((resolve) => {
    fire = resolve
  })
  return { fired, fire }
}
