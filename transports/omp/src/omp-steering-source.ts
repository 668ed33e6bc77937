import type { Boundary, InputItem, SteeringClaim, SteeringSource } from '@harness-kernel/kernel'
import { OmpSteeringError } from './errors.js'
import { MessageIdentity } from './message-identity.js'
import type { LiveSteerClaim, LiveSteering, UserMessage } from './omp-types.js'

export interface OmpSteeringOptions {
  /** Recorded in message sources as `{kind:'steering', transport}`. Default `omp`. */
  transport?: string
  /** Joins the text parts of one message into its one input item. Default `'\n'`. */
  textSeparator?: string
  /** A kernel policy (a prompt hook) consumed this message: it is accepted, not bounced back. */
  onDropped?: (message: UserMessage, reason: string) => void
}

/** Where the current provider call's `LiveSteering` comes from. */
export type LiveSteeringInput = LiveSteering | (() => LiveSteering | undefined)

/** One OMP provider call: its `LiveSteering` and what the adapter did with it. */
interface Call {
  readonly live: LiveSteering
  /** A claim of this call was rejected: no more claims in it (steering.md §4.2 rule 4). */
  rejected: boolean
  readonly open: Set<OmpClaim>
  readonly ended: Promise<void>
  end(): void
}

/**
 * Adapts OMP's per-call `LiveSteering` to the kernel's `SteeringSource` (steering.md §4.4).
 * Bind a call with `rebind()` (or pass a getter that returns the current one); end it with `endCall()`.
 */
export class OmpSteeringSource implements SteeringSource {
  readonly capability = 'live' as const
  readonly transport: string
  readonly #getter: (() => LiveSteering | undefined) | undefined
  readonly #identity = new MessageIdentity()
  readonly #retired = new WeakSet<LiveSteering>()
  readonly #separator: string
  readonly #onDropped: ((message: UserMessage, reason: string) => void) | undefined
  #call: Call | undefined
  #bindWaiters: (() => void)[] = []

  constructor(liveSteering?: LiveSteeringInput, options: OmpSteeringOptions = {}) {
    this.transport = options.transport ?? 'omp'
    this.#separator = options.textSeparator ?? '\n'
    this.#onDropped = options.onDropped
    if (typeof liveSteering === 'function') this.#getter = liveSteering
    else if (liveSteering !== undefined) this.rebind(liveSteering)
  }

  /** The `LiveSteering` of the call in progress, if any. */
  get current(): LiveSteering | undefined {
    return this.#call?.live
  }

  /** True when a claim of the current call was rejected: the adapter claims nothing more until the next call. */
  get stopped(): boolean {
    return this.#call?.rejected ?? false
  }

  /**
   * Binds the `LiveSteering` of a new provider call. Ends the previous call first (its unsettled
   * claims are rejected). Rebinding the current object is a no-op; an object whose call ended throws.
   */
  rebind(liveSteering: LiveSteering): void {
    if (this.#call?.live === liveSteering) return
    if (this.#retired.has(liveSteering)) {
      throw new OmpSteeringError('omp-steering: this LiveSteering belongs to a provider call that has ended; pass the new call’s object')
    }
    this.endCall()
    let end!: () => void
    const ended = new Promise<void>((resolve) => {
      end = resolve
    })
    this.#call = { live: liveSteering, rejected: false, open: new Set(), ended, end }
    for (const wake of this.#bindWaiters.splice(0)) wake()
  }

  /**
   * The provider call ended: every claim still unsettled is rejected (its input goes back to OMP),
   * and the call's `LiveSteering` is never used again.
   */
  endCall(): void {
    const call = this.#call
    if (!call) return
    this.#call = undefined
    this.#retired.add(call.live)
    for (const claim of [...call.open]) claim.forceReject()
    call.end()
  }

  /** True when the kernel accepted this message (recorded or consumed by policy) through this adapter. */
  wasAccepted(message: UserMessage): boolean {
    const [id] = this.#identity.idsFor([message])
    return this.#identity.wasAccepted(message, id!)
  }

  /**
   * Resolves when the current call has input to claim, or on abort. After a reject in this call it
   * waits only for abort (rule 4) or for the next call; with no call bound, for abort or a `rebind`.
   */
  async wait(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const call = this.#bound()
      if (!call) {
        await untilAbort(signal, this.#nextBinding())
        continue
      }
      if (call.rejected) {
        await untilAbort(signal, call.ended)
        continue
      }
      const ended = await Promise.race([call.live.wait(signal).then(() => false), call.ended.then(() => true)])
      if (!ended) return
    }
  }

  async claim(_boundary: Boundary, signal: AbortSignal): Promise<SteeringClaim | undefined> {
    if (signal.aborted) return undefined
    const call = this.#bound()
    if (!call || call.rejected) return undefined
    const taken = await call.live.claim(signal)
    if (!taken) return undefined
    if (this.#call !== call || call.rejected || signal.aborted) {
      // The call ended (or the turn aborted) while OMP was handing over: the input stays OMP's.
      taken.reject()
      if (this.#call === call) call.rejected = true
      return undefined
    }
    const ids = this.#identity.idsFor(taken.messages)
    const fresh: { message: UserMessage; item: InputItem & { id: string } }[] = []
    const refused: string[] = []
    taken.messages.forEach((message, index) => {
      const id = ids[index]!
      if (this.#identity.wasAccepted(message, id)) return
      const text = textOf(message, this.#separator)
      if (text === undefined) refused.push(describe(message))
      else fresh.push({ message, item: { id, type: 'text', text } })
    })
    if (refused.length > 0) {
      taken.reject()
      call.rejected = true
      throw new OmpSteeringError(
        `omp-steering: claimed input the kernel cannot record (${refused.join('; ')}); the claim was rejected and the input stays queued in OMP`,
      )
    }
    if (fresh.length === 0) {
      // Only messages the kernel already has (OMP echoed accepted input): consume them, feed nothing.
      taken.accept()
      return undefined
    }
    const claim = new OmpClaim(taken, fresh, call, ids, this.#identity, this.#onDropped)
    call.open.add(claim)
    return claim
  }

  #nextBinding(): Promise<void> {
    return new Promise((resolve) => this.#bindWaiters.push(resolve))
  }

  /** The current call, after consulting the getter (a new object rebinds; `undefined` ends the call). */
  #bound(): Call | undefined {
    if (this.#getter) {
      const live = this.#getter()
      if (live === undefined || this.#retired.has(live)) this.endCall()
      else this.rebind(live)
    }
    return this.#call
  }
}

/** The claim the kernel holds; it settles the OMP claim once, after the kernel settles it. */
class OmpClaim implements SteeringClaim {
  readonly items: InputItem[]
  readonly #taken: LiveSteerClaim
  readonly #messages: Map<string, UserMessage>
  readonly #call: Call
  readonly #ids: readonly string[]
  readonly #identity: MessageIdentity
  readonly #onDropped: ((message: UserMessage, reason: string) => void) | undefined
  #settled = false
  /** OMP's claim was settled by the adapter itself (the call ended first). */
  #forwarded = false

  constructor(
    taken: LiveSteerClaim,
    fresh: readonly { message: UserMessage; item: InputItem & { id: string } }[],
    call: Call,
    ids: readonly string[],
    identity: MessageIdentity,
    onDropped: ((message: UserMessage, reason: string) => void) | undefined,
  ) {
    this.#taken = taken
    this.items = fresh.map(({ item }) => item)
    this.#messages = new Map(fresh.map(({ message, item }) => [item.id, message]))
    this.#call = call
    this.#ids = ids
    this.#identity = identity
    this.#onDropped = onDropped
  }

  drop(itemId: string, reason: string): void {
    const message = this.#messages.get(itemId)
    if (!message || !this.#onDropped) return
    try {
      this.#onDropped(message, reason)
    } catch (error) {
      // A failing report must not stop the kernel from settling this claim (and the ones after it).
      process.emitWarning(`omp-steering: onDropped threw: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  accept(): void {
    this.#settle()
    // Remember the whole batch (echoes included): if OMP hands any of it back, it is not fed again.
    this.#taken.messages.forEach((message, index) => {
      this.#identity.remember(message, this.#ids[index]!)
    })
    if (this.#forwarded) return
    this.#forwarded = true
    this.#taken.accept()
  }

  reject(): void {
    this.#settle()
    if (this.#forwarded) return
    this.#forwarded = true
    this.#call.rejected = true
    this.#taken.reject()
  }

  /** The call ended with this claim unsettled: give the input back to OMP now. */
  forceReject(): void {
    this.#call.open.delete(this)
    if (this.#forwarded) return
    this.#forwarded = true
    this.#taken.reject()
  }

  #settle(): void {
    if (this.#settled) throw new OmpSteeringError('omp-steering: steering claim settled twice')
    this.#settled = true
    this.#call.open.delete(this)
  }
}

/** The message's text, or `undefined` when it carries anything but text. */
function textOf(message: UserMessage, separator: string): string | undefined {
  if (message.role !== 'user') return undefined
  if (typeof message.content === 'string') return message.content
  if (!Array.isArray(message.content)) return undefined
  const texts: string[] = []
  for (const part of message.content) {
    if (part?.type !== 'text' || typeof part.text !== 'string') return undefined
    texts.push(part.text)
  }
  return texts.join(separator)
}

function describe(message: UserMessage): string {
  if (message.role !== 'user') return `a ${String(message.role)} message`
  const kinds = Array.isArray(message.content)
    ? [...new Set(message.content.map((part) => String(part?.type)))].filter((kind) => kind !== 'text')
    : []
  return kinds.length > 0 ? `a user message with ${kinds.join(', ')} content` : 'a user message with unreadable content'
}

function untilAbort(signal: AbortSignal, ended?: Promise<void>): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
    ended?.then(done)
  })
}
