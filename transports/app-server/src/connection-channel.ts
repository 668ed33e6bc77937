import { randomUUID } from 'node:crypto'
import type { BudgetSettings } from './budget-requests.js'
import type { HostChannel, ServerRequestEntry, ServerRequestKind } from './host-channel.js'
import { ServerRequestLedger } from './host-channel.js'
import type { HostInputSettings } from './host-input-protocol.js'
import { INVALID_REQUEST } from './rpc-errors.js'
import type { RpcPeer, RpcResponse } from './rpc-peer.js'

/** Which connection each server request went to, across all of a server's connections (ids are unique server-wide). */
export class ServerRequestRoutes {
  readonly #byId = new Map<number, ConnectionChannel>()
  #nextId = 0

  nextId = (): number => this.#nextId++

  sent(id: number, connection: ConnectionChannel): void {
    this.#byId.set(id, connection)
  }

  connectionOf(id: unknown): ConnectionChannel | undefined {
    return typeof id === 'number' ? this.#byId.get(id) : undefined
  }

  forgetConnection(connection: ConnectionChannel): void {
    for (const [id, owner] of this.#byId) if (owner === connection) this.#byId.delete(id)
  }
}

/** One client connection: its own `initialize`, opt-outs, host-input settings and server requests. */
export class ConnectionChannel implements HostChannel {
  /** Unique across the fleet: another server relays this connection's approvals and host input to it by this id. */
  readonly id = randomUUID()
  readonly label: string
  readonly peer: RpcPeer
  readonly ledger = new ServerRequestLedger()
  initialized = false
  clientName: string | null = null
  experimentalApi = false
  hostInput: HostInputSettings | undefined
  /** Set when the connection opted in to `turn/budget/request` (`capabilities.budget`). */
  budget: BudgetSettings | undefined
  optOut = new Set<string>()
  readonly #routes: ServerRequestRoutes

  constructor(options: { label: string; peer: RpcPeer; routes: ServerRequestRoutes }) {
    this.label = options.label
    this.peer = options.peer
    this.#routes = options.routes
  }

  get closed(): boolean {
    return this.peer.closed
  }

  notify(method: string, params: unknown): void {
    if (!this.optOut.has(method)) this.peer.notify(method, params)
  }

  request(kind: ServerRequestKind, threadId: string, turnId: string, method: string, params: unknown) {
    const { id, response } = this.peer.request(method, params)
    this.#routes.sent(id, this)
    const entry: ServerRequestEntry = { id, kind, threadId, turnId, state: 'pending', resolvedSent: false }
    this.ledger.add(entry)
    if (this.peer.closed) {
      entry.state = 'expired'
      return { entry, response: Promise.resolve<RpcResponse>({ id, error: { code: INVALID_REQUEST, message: 'host disconnected' } }) }
    }
    return { entry, response }
  }

  expire(entry: ServerRequestEntry): void {
    if (entry.state !== 'pending') return
    entry.state = 'expired'
    this.peer.forget(entry.id)
    this.resolved(entry)
  }

  resolved(entry: ServerRequestEntry): void {
    if (entry.resolvedSent) return
    entry.resolvedSent = true
    this.notify('serverRequest/resolved', { threadId: entry.threadId, requestId: entry.id })
  }
}
