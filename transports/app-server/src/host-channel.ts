import type { BudgetSettings } from './budget-requests.js'
import type { HostInputSettings } from './host-input-protocol.js'
import type { RequestId, RpcResponse } from './rpc-peer.js'

export type ServerRequestKind = 'hostInput' | 'approval'

export interface ServerRequestEntry {
  id: number
  kind: ServerRequestKind
  threadId: string
  turnId: string
  /** `answered` and `expired` are final; a later answer is `duplicate` or `late`. */
  state: 'pending' | 'answered' | 'expired'
  resolvedSent: boolean
}

/** One client connection as threads see it: notifications, server requests and their ledger. */
export interface HostChannel {
  readonly hostInput: HostInputSettings | undefined
  /** Set when the connection asked to be asked about reached budgets (relayed from another server's too). */
  readonly budget?: BudgetSettings | undefined
  readonly closed: boolean
  notify(method: string, params: unknown): void
  request(
    kind: ServerRequestKind,
    threadId: string,
    turnId: string,
    method: string,
    params: unknown,
  ): { entry: ServerRequestEntry; response: Promise<RpcResponse> }
  /** The request will not be answered in time: stop waiting (a later answer is `late`) and send `serverRequest/resolved`. */
  expire(entry: ServerRequestEntry): void
  /** Sends `serverRequest/resolved` once for the request. */
  resolved(entry: ServerRequestEntry): void
}

/** Server requests of one connection, by id, kept so late, duplicate and unknown answers are told apart. */
export class ServerRequestLedger {
  readonly #entries = new Map<RequestId, ServerRequestEntry>()

  add(entry: ServerRequestEntry): void {
    this.#entries.set(entry.id, entry)
  }

  get(id: RequestId): ServerRequestEntry | undefined {
    return this.#entries.get(id)
  }

  pending(): ServerRequestEntry[] {
    return [...this.#entries.values()].filter((entry) => entry.state === 'pending')
  }
}
