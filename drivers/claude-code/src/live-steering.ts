import { randomUUID } from 'node:crypto'
import type { SDKUserMessage } from '@anthropic-ai/claude-agent-sdk'
import type { Admission, BoundaryKind, DriverError, Entry, Message, TurnHost } from '@harness-kernel/kernel'
import { steeringItemIdOf, whenAborted } from '@harness-kernel/kernel'
import type { BlockedPrompt, CommandLifecycle } from './command-lifecycle.js'
import { messageText, reminder } from './content.js'

/** What the steering needs from the Claude Code session. */
export interface SteeringPort {
  submit(message: SDKUserMessage): void
  readonly lifecycle: CommandLifecycle
  /** `cancelAsyncMessage`: true when Claude Code dropped the message before it ran. */
  cancel(uuid: string): Promise<boolean>
  readonly admissionTimeoutMs: number
}

type ItemState = 'queued' | 'started' | 'blocked' | 'cancelled' | 'ambiguous'

interface FoldItem {
  /** The message uuid Claude Code's receipts name. */
  readonly uuid: string
  /** The kernel's steering item id (absent for a message a pre-step tap added). */
  readonly itemId: string | undefined
  readonly text: string
  state: ItemState
  reason?: string
}

/** Entered input submitted at one boundary, held until Claude Code has taken (or refused) every item. */
interface Fold {
  readonly entry: Entry
  readonly items: FoldItem[]
}

/**
 * Live steering (drivers.md §3.1): input is claimed as soon as a source has it, and at each boundary the turn reaches,
 * one claim at a time, and submitted as `next` messages with a uuid and no origin. Claude Code folds such a message in
 * with the next tool result (a parked kernel tool's, whose release waits for the claim, or one of its own tools'), or,
 * after the answer, runs it as a follow-up by itself; the turn keeps that follow-up. A claim is accepted once every
 * item is `queued`; an item is recorded once Claude Code took it (`started`, then the next model response), dropped
 * when its UserPromptSubmit blocked it, and returned to its source when it never ran.
 */
export class LiveSteering {
  readonly #port: SteeringPort
  readonly #host: TurnHost
  /** The step a claim between boundaries belongs to. */
  readonly #step: () => number
  readonly #folds: Fold[] = []
  readonly #stop = new AbortController()
  #ambiguous: string[] = []
  #chain: Promise<unknown> = Promise.resolve()
  #open = true
  /** Claude Code did not admit a claim in time: the rest of this turn's input is the next turn's. */
  #refused = false
  /** What a claim between boundaries counts as. */
  #boundary: BoundaryKind = 'sampling'
  /** Fires when Claude Code moved on: input that could not be claimed before may be now. */
  #progress = oneShot()

  constructor(port: SteeringPort, host: TurnHost, step: () => number) {
    this.#port = port
    this.#host = host
    this.#step = step
  }

  /** Claims whenever a source has input, until the turn closes its steering. */
  start(): void {
    void this.#watch()
  }

  /** The kind of boundary a claim between boundaries is now (`tool` while a kernel tool's result is parked). */
  set boundary(kind: BoundaryKind) {
    this.#boundary = kind
  }

  /** Claude Code moved on (a response, a tool result, a receipt). */
  progressed(): void {
    this.#progress.fire()
    this.#progress = oneShot()
  }

  /**
   * Claims at a parked kernel tool call, after any claim in flight; resolves once the result may be released, with the
   * context that goes to the model with that result (developer input and pre-step context).
   */
  async atToolBoundary(step: number): Promise<Message[]> {
    return (await this.#serial(() => this.#claim('tool', step))) || []
  }

  /**
   * The answer ended (Claude Code's Stop callback): claims what is waiting, at the `final` boundary. Returns whether
   * Claude Code now holds input it will run as a follow-up; when it holds none, no more input is claimed until `reopen`.
   */
  atFinal(step: number): Promise<boolean> {
    return this.#serial(async () => {
      await this.#claim('final', step)
      if (this.holds()) return true
      this.#open = false
      return false
    })
  }

  /** The turn goes on after all (turn-stopping asked for more): claims resume. */
  reopen(): void {
    if (this.#stop.signal.aborted || this.#refused) return
    this.#open = true
    this.#boundary = 'sampling'
    this.progressed()
  }

  /** No more claims; resolves once the claim in flight has settled. */
  async close(): Promise<void> {
    this.#open = false
    this.#stop.abort()
    this.progressed()
    await this.#chain.catch(() => {})
  }

  /** Claude Code admitted input it has not started: a follow-up (or a fold) is still to come. */
  holds(): boolean {
    return this.#folds.some((fold) => fold.items.some((item) => item.state === 'queued'))
  }

  /**
   * After a result: Claude Code may still start input of this turn. Besides what it holds, an item whose cancel found
   * nothing to cancel yet, when Claude Code reports a late cancel as `cancelled` and says `idle` (`lifecycle_idle_v1`).
   */
  pending(): boolean {
    if (this.holds()) return true
    return this.#port.lifecycle.idleAdvertised && this.#folds.some((fold) => fold.items.some((item) => item.state === 'ambiguous'))
  }

  started(uuid: string): void {
    const item = this.#item(uuid)
    if (item && (item.state === 'queued' || item.state === 'ambiguous')) item.state = 'started'
    this.progressed()
  }

  cancelled(uuid: string): void {
    const item = this.#item(uuid)
    if (item?.state === 'queued') item.state = 'cancelled'
    else if (item?.state === 'ambiguous' && this.#port.lifecycle.idleAdvertised) {
      // Its cancel overtook the message: Claude Code cancelled it as it read it, before it ran.
      item.state = 'cancelled'
      this.#host.notice(
        'warning',
        `steering/returned: Claude Code cancelled steering item ${item.itemId ?? item.uuid} before it ran, once it read it; it goes back to its source`,
      )
    }
    this.progressed()
  }

  /**
   * Claude Code's own UserPromptSubmit blocked a message: the frame names only its text, which for a follow-up of
   * several items is their texts joined by newlines. Items started and not yet recorded are this prompt's.
   */
  blocked({ prompt, reason }: BlockedPrompt): void {
    const started = this.#folds.flatMap((fold) => fold.items).filter((item) => item.state === 'started')
    const named = prompt === undefined ? [] : started.filter((item) => item.text === prompt || prompt.includes(item.text))
    for (const item of named.length > 0 ? named : started.slice(-1)) {
      item.state = 'blocked'
      item.reason = `blocked by Claude Code's UserPromptSubmit: ${reason}`
    }
  }

  /** A model response began, or Claude Code ended a turn: input it took before that is recorded there. */
  settleTaken(): void {
    for (const fold of [...this.#folds]) {
      if (fold.items.some((item) => item.state === 'queued' || item.state === 'ambiguous')) continue
      this.#record(fold)
    }
  }

  /**
   * The kernel turn ends: what Claude Code still holds is cancelled (it would otherwise start a turn by itself) and
   * returned; what it took is recorded. Returns the error when an item's fate stays unknown.
   */
  async settleAtEnd(consumed: readonly string[]): Promise<DriverError | undefined> {
    await this.close()
    for (const fold of this.#folds.splice(0)) {
      for (const item of fold.items) {
        if (item.state === 'started' && !consumed.includes(item.uuid)) {
          this.#host.notice(
            'warning',
            `Claude Code started steering item ${item.itemId ?? item.uuid} but did not list it in the turn's messages`,
          )
        }
        if (item.state !== 'queued') continue
        item.state = (await this.#port.cancel(item.uuid)) ? 'cancelled' : 'ambiguous'
      }
      if (fold.items.every((item) => item.state === 'cancelled')) fold.entry.abandon()
      else this.#record(fold)
    }
    if (this.#ambiguous.length === 0) return undefined
    return {
      code: 'steering-ambiguous',
      message: `steering/ambiguous: Claude Code may or may not have delivered steering item(s) ${this.#ambiguous.join(', ')}; they were not re-sent`,
      retryable: false,
    }
  }

  async #watch(): Promise<void> {
    const signal = AbortSignal.any([this.#stop.signal, this.#host.signal])
    while (!signal.aborted) {
      const seen = this.#progress
      if (this.#open) {
        await this.#host.waitForInput(signal)
        if (signal.aborted) return
        const claimed = await this.#serial(() => this.#claim(this.#boundary, this.#step())).catch(() => false)
        if (claimed !== false) continue
      }
      // Closed, or nothing claimable at this boundary after all: wait for Claude Code to move.
      await Promise.race([seen.fired, whenAborted(signal)])
    }
  }

  /** Runs `claim` after the claim in flight, one at a time. */
  #serial<T>(claim: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(claim)
    this.#chain = next.catch(() => {})
    return next
  }

  /** One claim; resolves with the context for a parked tool's result (empty elsewhere: it went with the message). */
  async #claim(kind: BoundaryKind, step: number): Promise<Message[] | false> {
    const host = this.#host
    if (!this.#open || host.signal.aborted) return false
    const claimed = await host.claim({ kind, step })
    if (claimed.messages.length === 0) {
      claimed.settle()
      return false
    }
    const entry = await host.enter({ step, messages: claimed.messages, claimed })
    const steers = entry.messages.filter((message) => message.role === 'user')
    const context = [...entry.context, ...entry.messages.filter((message) => message.role !== 'user')]
    const command = kind === 'tool' ? undefined : steers.find((message) => messageText(message).trimStart().startsWith('/'))
    if (command !== undefined) {
      // Run as a turn of its own (after the answer), Claude Code would take it for one of its slash commands, not for
      // words to the model: it waits for the next turn's prompt, where a leading `/` means what the user meant by it.
      this.#refused = true
      this.#open = false
      entry.abandon()
      host.notice(
        'warning',
        `steering/returned: "${messageText(command).trim().split(/\s/)[0]}" starts with "/", which Claude Code would run as a slash command mid-turn; the input goes to the next turn's prompt`,
      )
      return []
    }
    if (steers.length === 0 && (kind === 'tool' || context.length === 0)) {
      entry.record()
      return context
    }
    const items: FoldItem[] = steers.map((message) => ({
      uuid: randomUUID(),
      itemId: steeringItemIdOf(message),
      text: messageText(message),
      state: 'queued',
    }))
    // Away from a tool result, context rides with the first message (or alone, as one).
    const carried = kind === 'tool' ? [] : context.map((message) => reminder(message))
    if (items.length === 0) items.push({ uuid: randomUUID(), itemId: undefined, text: '', state: 'queued' })
    for (const [index, item] of items.entries()) {
      const content = index === 0 && carried.length > 0 ? [item.text, ...carried].filter(Boolean).join('\n\n') : item.text
      // Always a uuid (receipts), never an origin and never `now` (both change what Claude Code does with the input).
      this.#port.submit({
        type: 'user',
        message: { role: 'user', content },
        parent_tool_use_id: null,
        uuid: item.uuid,
        priority: 'next',
      } as SDKUserMessage)
    }
    const admitted = await Promise.all(items.map((item) => this.#port.lifecycle.admitted(item.uuid, this.#port.admissionTimeoutMs)))
    if (admitted.every(Boolean)) {
      this.#folds.push({ entry, items })
      return kind === 'tool' ? context : []
    }
    // No receipt by the deadline: take every item back before the turn goes on.
    const lifecycle = this.#port.lifecycle
    // With lifecycle_idle_v1 Claude Code's `cancelled` frame, which may come before the cancel's answer, outweighs a `false`.
    const cancelled = (await Promise.all(items.map((item) => this.#port.cancel(item.uuid)))).map(
      (answer, index) =>
        answer ||
        (lifecycle.idleAdvertised && lifecycle.has(items[index]!.uuid, 'cancelled') && !lifecycle.has(items[index]!.uuid, 'started')),
    )
    this.#refused = true
    this.#open = false
    if (cancelled.every(Boolean)) {
      entry.abandon()
      host.notice(
        'warning',
        `steering/returned: Claude Code did not acknowledge ${items.length} steering item(s) within ${this.#port.admissionTimeoutMs} ms; they were cancelled before they ran and go back to their source`,
      )
      return []
    }
    for (const [index, item] of items.entries()) item.state = cancelled[index] ? 'cancelled' : 'ambiguous'
    if (this.#port.lifecycle.idleAdvertised) {
      host.notice(
        'warning',
        `Claude Code did not acknowledge steering item(s) within ${this.#port.admissionTimeoutMs} ms and could not cancel them yet; the turn waits until Claude Code runs them or reports them cancelled`,
      )
    } else {
      host.notice(
        'error',
        `steering/ambiguous: Claude Code did not acknowledge steering item(s) within ${this.#port.admissionTimeoutMs} ms and could not cancel them; they are neither re-sent nor returned`,
      )
    }
    this.#folds.push({ entry, items })
    return kind === 'tool' ? context : []
  }

  #record(fold: Fold): void {
    this.#folds.splice(this.#folds.indexOf(fold), 1)
    const admissions: Admission[] = []
    for (const item of fold.items) {
      if (item.itemId === undefined) continue
      if (item.state === 'started') admissions.push({ id: item.itemId, state: 'recorded' })
      else if (item.state === 'blocked') admissions.push({ id: item.itemId, state: 'dropped', reason: item.reason ?? 'blocked' })
      else if (item.state === 'ambiguous') {
        this.#ambiguous.push(item.itemId)
        admissions.push({ id: item.itemId, state: 'dropped', reason: 'ambiguous: Claude Code may or may not have delivered it' })
      } else admissions.push({ id: item.itemId, state: 'dropped', reason: 'cancelled by Claude Code before it ran' })
    }
    fold.entry.record(admissions)
  }

  #item(uuid: string): FoldItem | undefined {
    for (const fold of this.#folds) for (const item of fold.items) if (item.uuid === uuid) return item
    return undefined
  }
}

interface OneShot {
  readonly fired: Promise<void>
  fire(): void
}

function oneShot(): OneShot {
  let fire!: () => void
  const fired = new Promise<void>((resolve) => {
    fire = resolve
  })
  return { fired, fire }
}
