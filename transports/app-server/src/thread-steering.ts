import { randomUUID } from 'node:crypto'
import type { Boundary, InputItem, SteeringClaim, SteeringSource } from '@harness-kernel/kernel'
import type { HostChannel, ServerRequestEntry } from './host-channel.js'
import { type HostInputItem, hostInputAnswerSchema } from './host-input-protocol.js'
import { inputText, type UserInput } from './params.js'
import { type AppServerMeta, stamped, type WireItem } from './wire-items.js'

export const TRANSPORT = 'app-server'

/** Input queued by `turn/steer` (or `turn/start` on a running turn). */
export interface QueuedSteer {
  id: string
  content: UserInput[]
  clientId: string | null
  /** The turn it was sent to. */
  turnId: string
}

interface HostAnswer {
  entry: ServerRequestEntry
  items: { id: string; item: HostInputItem }[]
}

type AskOutcome = HostAnswer | 'none' | 'aborted'

/**
 * The `steering` service of one thread's session (capability `boundary`, transport `app-server`).
 * At each boundary it hands the kernel the queued `turn/steer` input, then (for a connection that
 * negotiated `hostInput`) asks the host with `turn/hostInput/request` and adds the answer's items.
 * The boundaries are the driver's: `sampling` and `final` on the native loop, `tool` on Claude Code.
 */
export class ThreadSteering implements SteeringSource {
  readonly capability = 'boundary' as const
  readonly transport = TRANSPORT
  readonly threadId: string
  /** The connection that issued the running turn's `turn/start`. */
  channel: HostChannel | undefined
  steers: QueuedSteer[] = []
  /** Claimed item id → the meta its message gets (read by the bridge's pre-step tap). */
  readonly claimed = new Map<string, AppServerMeta>()
  /** Host-input item notifications held until the claim is accepted (the log is durable by then). */
  readonly heldItems = new Map<string, WireItem>()
  readonly #asked = new Set<string>()
  readonly #waiters = new Set<() => void>()
  readonly #timeoutMs: (channel: HostChannel) => number

  constructor(threadId: string, timeoutMs: (channel: HostChannel) => number) {
    this.threadId = threadId
    this.#timeoutMs = timeoutMs
  }

  queue(steer: QueuedSteer): void {
    this.steers.push(steer)
    for (const waiter of [...this.#waiters]) waiter()
  }

  /** Takes every queued steer (at turn end, to report them back). */
  takeSteers(): QueuedSteer[] {
    return this.steers.splice(0)
  }

  wait(signal: AbortSignal): Promise<void> {
    if (this.steers.length > 0 || signal.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        this.#waiters.delete(done)
        signal.removeEventListener('abort', done)
        resolve()
      }
      this.#waiters.add(done)
      signal.addEventListener('abort', done, { once: true })
    })
  }

  async claim(boundary: Boundary, signal: AbortSignal): Promise<SteeringClaim | undefined> {
    if (signal.aborted) return undefined
    const steers = this.steers.splice(0)
    let host: HostAnswer | undefined
    if (this.#shouldAsk(boundary)) {
      const outcome = await this.#ask(boundary, signal)
      if (outcome === 'aborted') {
        this.steers.unshift(...steers)
        return undefined
      }
      if (outcome !== 'none') host = outcome
    }
    if (steers.length === 0 && !host) return undefined
    return this.#claimFor(boundary, steers, host)
  }

  #shouldAsk(boundary: Boundary): boolean {
    const settings = this.channel?.hostInput
    if (!settings || this.channel?.closed) return false
    if (!settings.boundaries.includes(boundary.kind)) return false
    if (boundary.kind === 'sampling' && boundary.step <= 1) return false
    // Once per logical boundary: a re-entered final boundary (all its input dropped) is not asked again, and the tool
    // boundaries of one step (Claude Code's calls of one response, each released on its own) are asked at the first only.
    const key = `${boundary.turnId}:${boundary.kind}:${boundary.step}`
    if (this.#asked.has(key)) return false
    this.#asked.add(key)
    return true
  }

  async #ask(boundary: Boundary, signal: AbortSignal): Promise<AskOutcome> {
    const channel = this.channel!
    const { entry, response } = channel.request('hostInput', this.threadId, boundary.turnId, 'turn/hostInput/request', {
      threadId: this.threadId,
      turnId: boundary.turnId,
      // The wire counts steps from 0; the kernel from 1.
      boundary: { kind: boundary.kind, step: boundary.step - 1 },
    })
    let timer: NodeJS.Timeout | undefined
    let onAbort: (() => void) | undefined
    // Expiry is announced synchronously (`serverRequest/resolved`), so an interrupt's comes before its hooks run.
    const expired = new Promise<'timeout' | 'aborted'>((resolve) => {
      timer = setTimeout(() => {
        channel.expire(entry)
        resolve('timeout')
      }, this.#timeoutMs(channel))
      onAbort = () => {
        channel.expire(entry)
        resolve('aborted')
      }
      signal.addEventListener('abort', onAbort, { once: true })
    })
    const answer = await Promise.race([response, expired])
    clearTimeout(timer)
    signal.removeEventListener('abort', onAbort!)
    if (answer === 'timeout' || answer === 'aborted') return answer === 'aborted' ? 'aborted' : 'none'
    entry.state = 'answered'
    if (answer.error !== undefined || signal.aborted) {
      // An error answer means no input. Aborted meanwhile: the answer is not recorded.
      if (signal.aborted && answer.error === undefined) this.#rejected(entry, 'notRecorded', 'the turn ended before the input was recorded')
      channel.resolved(entry)
      return signal.aborted ? 'aborted' : 'none'
    }
    const parsed = hostInputAnswerSchema.safeParse(answer.result)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      this.#rejected(entry, 'invalid', `${issue?.path.join('.') || 'result'}: ${issue?.message ?? 'invalid answer'}`)
      channel.resolved(entry)
      return 'none'
    }
    return { entry, items: parsed.data.items.map((item) => ({ id: `hi_${randomUUID()}`, item })) }
  }

  #rejected(entry: ServerRequestEntry, reason: string, message: string): void {
    this.channel?.notify('turn/hostInput/rejected', { threadId: this.threadId, turnId: entry.turnId, requestId: entry.id, reason, message })
  }

  #claimFor(boundary: Boundary, steers: QueuedSteer[], host: HostAnswer | undefined): SteeringClaim {
    const items: InputItem[] = []
    for (const steer of steers) {
      items.push({ id: steer.id, type: 'text', text: inputText(steer.content) })
      this.claimed.set(steer.id, { kind: 'steer', content: steer.content, clientId: steer.clientId })
    }
    for (const { id, item } of host?.items ?? []) {
      items.push({ id, type: 'text', text: inputText(item.content) })
      this.claimed.set(id, {
        kind: 'hostInput',
        role: item.role,
        authority: item.authority,
        content: item.content,
        clientId: item.clientId ?? null,
        requestId: host!.entry.id,
      })
    }
    const dropped = new Set<string>()
    const forget = () => {
      for (const item of items) this.claimed.delete(item.id!)
    }
    return {
      items,
      drop: (itemId) => {
        dropped.add(itemId)
      },
      accept: () => {
        forget()
        if (!host) return
        const channel = this.channel
        const statuses = host.items.map(({ id }, index) => ({
          index,
          itemId: id,
          status: dropped.has(id) ? 'blockedByHook' : 'recorded',
        }))
        for (const { id } of host.items) {
          const item = this.heldItems.get(id)
          this.heldItems.delete(id)
          if (!item || dropped.has(id)) continue
          const now = Date.now()
          channel?.notify('item/started', {
            item: stamped(item, now, null),
            threadId: this.threadId,
            turnId: boundary.turnId,
            startedAtMs: now,
          })
          channel?.notify('item/completed', {
            item: stamped(item, now, now),
            threadId: this.threadId,
            turnId: boundary.turnId,
            contentTokenCount: null,
            completedAtMs: now,
          })
        }
        channel?.notify('turn/hostInput/accepted', {
          threadId: this.threadId,
          turnId: boundary.turnId,
          requestId: host.entry.id,
          items: statuses,
        })
        channel?.resolved(host.entry)
      },
      reject: () => {
        forget()
        // Unrecorded steers go back to the front: the turn's end reports them (turn/steer/dropped).
        this.steers.unshift(...steers)
        if (!host) return
        for (const { id } of host.items) this.heldItems.delete(id)
        this.#rejected(host.entry, 'notRecorded', 'the turn ended before the input was recorded')
        this.channel?.resolved(host.entry)
      },
    }
  }
}
