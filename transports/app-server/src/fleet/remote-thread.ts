import type { SessionEvent } from '@harness-kernel/kernel'
import { errorMessage } from '@harness-kernel/kernel'
import type { ConnectionChannel } from '../connection-channel.js'
import { turnsFromEvents, type WireTurn } from '../wire-items.js'
import type { FleetPort } from './fleet-port.js'

/**
 * A thread another process owns, as this server shows it to the connections that resumed it here: its log, followed
 * from the store as the owner writes it, turned into the notifications a connection of the owner's gets for what the
 * log keeps (turns starting and ending, items completed, steers accepted here and dropped there). What is only
 * streamed (text deltas, a command's output) stays with the owner's connections.
 */
export class RemoteThread {
  readonly id: string
  readonly cwd: string
  readonly #events: SessionEvent[]
  readonly #subscribers = new Set<ConnectionChannel>()
  readonly #abort = new AbortController()
  readonly #log: (message: string) => void
  readonly #turnEnded: (turnId: string) => void
  /** Steers this server accepted for the thread, by inbox id, until the log records or drops them. */
  readonly #steers = new Map<string, SteerSent>()

  constructor(options: {
    id: string
    cwd: string
    events: SessionEvent[]
    log: (message: string) => void
    /** The log shows the turn ended. */
    turnEnded: (turnId: string) => void
  }) {
    this.id = options.id
    this.cwd = options.cwd
    this.#events = [...options.events]
    this.#log = options.log
    this.#turnEnded = options.turnEnded
  }

  /** A steer this server accepted for the thread: if the owner drops it, subscribers get `turn/steer/dropped`. */
  steered(id: string, steer: SteerSent): void {
    this.#steers.set(id, steer)
  }

  follow(port: FleetPort): void {
    const afterSeq = this.#events.at(-1)?.seq ?? 0
    port
      .follow(this.id, afterSeq, (events) => this.#grow(events), this.#abort.signal)
      .catch((error: unknown) => {
        this.#log(`stopped following thread ${this.id}: ${errorMessage(error)}`)
      })
  }

  get events(): readonly SessionEvent[] {
    return this.#events
  }

  /** The turn the log has open, if any (the owner is running it, or died in it). */
  get openTurnId(): string | undefined {
    return openTurn(this.#events)
  }

  turns(hostInput: boolean): WireTurn[] {
    return turnsFromEvents(this.#events, this.cwd, hostInput)
  }

  join(connection: ConnectionChannel): void {
    this.#subscribers.add(connection)
  }

  leave(connection: ConnectionChannel): boolean {
    return this.#subscribers.delete(connection)
  }

  get subscribers(): ReadonlySet<ConnectionChannel> {
    return this.#subscribers
  }

  close(): void {
    this.#abort.abort()
  }

  readonly #recordedWaiters = new Map<string, ((turnId: string) => void)[]>()

  /** Settles with the turn a message carrying `itemId` (its `steeringItemId`) was recorded in, once the log has it. */
  whenRecorded(itemId: string): Promise<string> {
    const turnId = turnOfItem(this.#events, itemId)
    if (turnId !== undefined) return Promise.resolve(turnId)
    return new Promise((resolve) => this.#recordedWaiters.set(itemId, [...(this.#recordedWaiters.get(itemId) ?? []), resolve]))
  }

  #grow(events: SessionEvent[]): void {
    for (const [itemId, waiters] of this.#recordedWaiters) {
      const turnId = turnOfItem(events, itemId)
      if (turnId === undefined) continue
      this.#recordedWaiters.delete(itemId)
      for (const waiter of waiters) waiter(turnId)
    }
    this.#settleSteers(events)
    const before = new Map(this.turns(false).map((turn) => [turn.id, turn]))
    this.#events.push(...events)
    const now = Date.now()
    for (const turn of this.turns(false)) {
      const old = before.get(turn.id)
      if (!old) {
        this.#notify('thread/status/changed', { threadId: this.id, status: { type: 'active', activeFlags: [] } })
        this.#notify('turn/started', { threadId: this.id, turn: { ...turn, items: [], itemsView: 'notLoaded', status: 'inProgress' } })
      }
      const shown = new Set((old?.items ?? []).map((item) => item.id))
      for (const item of turn.items) {
        if (shown.has(item.id)) continue
        this.#notify('item/started', { item: { ...item, completedAtMs: null }, threadId: this.id, turnId: turn.id, startedAtMs: now })
        this.#notify('item/completed', { item, threadId: this.id, turnId: turn.id, completedAtMs: now })
      }
      if (turn.status !== 'inProgress' && (old === undefined || old.status === 'inProgress')) {
        this.#notify('thread/status/changed', { threadId: this.id, status: { type: 'idle' } })
        this.#notify('turn/completed', { threadId: this.id, turn })
        this.#turnEnded(turn.id)
      }
    }
  }

  #settleSteers(events: readonly SessionEvent[]): void {
    if (this.#steers.size === 0) return
    for (const event of events) {
      if (event.type === 'message' && typeof event.message.meta?.steeringItemId === 'string')
        this.#steers.delete(event.message.meta.steeringItemId)
      if (event.type !== 'steering/dropped') continue
      for (const itemId of event.itemIds) {
        const steer = this.#steers.get(itemId)
        if (!steer) continue
        this.#steers.delete(itemId)
        this.#notify('turn/steer/dropped', {
          threadId: this.id,
          turnId: event.turnId ?? steer.turnId,
          input: steer.input,
          clientUserMessageId: steer.clientId,
          reason: event.reason,
        })
      }
    }
  }

  #notify(method: string, params: unknown): void {
    for (const connection of this.#subscribers) connection.notify(method, params)
  }
}

/** A steer as this server accepted it, for `turn/steer/dropped`. */
export interface SteerSent {
  turnId: string
  input: unknown[]
  clientId: string | null
}

/** The turn the message carrying `itemId` (its `steeringItemId`) was recorded in, if it is among `events`. */
export function turnOfItem(events: readonly SessionEvent[], itemId: string): string | undefined {
  for (const event of events) {
    if (event.type === 'message' && event.message.meta?.steeringItemId === itemId) return event.turnId
  }
  return undefined
}

/** The turn `events` leave open, if any. */
export function openTurn(events: readonly SessionEvent[]): string | undefined {
  let open: string | undefined
  for (const event of events) {
    if (event.type === 'turn/start') open = event.turnId
    else if (event.type === 'turn/end' && event.turnId === open) open = undefined
  }
  return open
}
