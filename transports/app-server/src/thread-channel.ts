import { ConnectionChannel } from './connection-channel.js'
import type { HostChannel, ServerRequestEntry, ServerRequestKind } from './host-channel.js'
import type { ThreadSteering } from './thread-steering.js'

/**
 * A thread's audience, as Codex's App Server has it (observed on 0.171.0 with two WebSocket clients): its
 * notifications go to every subscribed connection, `thread/status/changed` to every initialized connection, and its
 * server requests (approvals, host input) only to the connection that started the running turn. A request with that
 * connection gone or unsubscribed is not sent: approvals are refused and host input is not asked (fail closed).
 */
export class ThreadChannel implements HostChannel {
  readonly #subscribers = new Set<ConnectionChannel>()
  readonly #everyone: () => Iterable<ConnectionChannel>
  readonly #sentTo = new WeakMap<ServerRequestEntry, HostChannel>()
  /**
   * The connection that started the running (or last) turn: one of this server's, or (a turn started from input
   * another front-end accepted) that front-end's connection, reached through the store.
   */
  owner: HostChannel | undefined

  constructor(everyone: () => Iterable<ConnectionChannel>) {
    this.#everyone = everyone
  }

  join(connection: ConnectionChannel, options: { owner: boolean }): void {
    this.#subscribers.add(connection)
    if (options.owner || this.owner === undefined || this.#leftOwner) this.owner = connection
  }

  /** Returns whether the connection was subscribed. */
  leave(connection: ConnectionChannel): boolean {
    if (this.owner === connection) this.owner = undefined
    return this.#subscribers.delete(connection)
  }

  has(connection: ConnectionChannel): boolean {
    return this.#subscribers.has(connection)
  }

  get subscribed(): boolean {
    return this.#subscribers.size > 0
  }

  /** The owner is a connection of this server that is no longer subscribed (a relayed owner never subscribes). */
  get #leftOwner(): boolean {
    return this.owner instanceof ConnectionChannel && !this.#subscribers.has(this.owner)
  }

  get #target(): HostChannel | undefined {
    const owner = this.owner
    return owner && !this.#leftOwner && !owner.closed ? owner : undefined
  }

  get hostInput() {
    return this.#target?.hostInput
  }

  get budget() {
    return this.#target?.budget
  }

  get closed(): boolean {
    return this.#target === undefined
  }

  notify(method: string, params: unknown): void {
    if (method === 'thread/status/changed') {
      for (const connection of this.#everyone()) if (connection.initialized) connection.notify(method, params)
      return
    }
    for (const connection of this.#subscribers) connection.notify(method, params)
  }

  request(kind: ServerRequestKind, threadId: string, turnId: string, method: string, params: unknown) {
    const target = this.#target
    if (!target) throw new Error('no connection to ask: the turn has no subscribed owner')
    const asked = target.request(kind, threadId, turnId, method, params)
    this.#sentTo.set(asked.entry, target)
    return asked
  }

  expire(entry: ServerRequestEntry): void {
    this.#sentTo.get(entry)?.expire(entry)
  }

  resolved(entry: ServerRequestEntry): void {
    this.#sentTo.get(entry)?.resolved(entry)
  }
}

/** The thread's channel (made on first use), with the connection subscribed to it. */
export function joinThread(
  steering: ThreadSteering,
  connection: ConnectionChannel,
  everyone: () => Iterable<ConnectionChannel>,
  options: { owner: boolean },
): ThreadChannel {
  const channel = channelOf(steering, everyone)
  channel.join(connection, options)
  return channel
}

/** The thread's channel, made (with nobody subscribed) if it has none yet. */
export function channelOf(steering: ThreadSteering, everyone: () => Iterable<ConnectionChannel>): ThreadChannel {
  const channel = threadChannelOf(steering) ?? new ThreadChannel(everyone)
  steering.channel = channel
  return channel
}

export function threadChannelOf(steering: ThreadSteering): ThreadChannel | undefined {
  return steering.channel instanceof ThreadChannel ? steering.channel : undefined
}
