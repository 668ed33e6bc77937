import { randomUUID } from 'node:crypto'
import { errorMessage } from '@harness-kernel/kernel'
import type { BudgetSettings } from '../budget-requests.js'
import type { HostChannel, ServerRequestEntry, ServerRequestKind } from '../host-channel.js'
import type { HostInputSettings } from '../host-input-protocol.js'
import { INTERNAL_ERROR, INVALID_REQUEST } from '../rpc-errors.js'
import type { RpcResponse } from '../rpc-peer.js'
import type { FleetPort, RelayedEnd } from './fleet-port.js'

export interface RelayedHostOptions {
  port: FleetPort
  /** The front-end that accepted the turn's input, and its connection that sent it. */
  instance: string
  connection: string
  hostInput: HostInputSettings | undefined
  /** The connection's budget settings, when it opted in to be asked about reached budgets. */
  budget?: BudgetSettings | undefined
  log(message: string): void
}

/**
 * The connection of another front-end that started a turn this server runs, as the turn sees it: its approvals, host
 * input and reached budgets (when it opted in) are relayed through the store (`FleetPort.ask`) to that connection and its answers come back the same
 * way. Its notifications are not sent: that front-end shows the turn from the thread's log. A front-end that is gone
 * fails closed: the request is answered with an error (an approval refused, no host input), and nothing more is asked.
 */
export class RelayedHost implements HostChannel {
  readonly hostInput: HostInputSettings | undefined
  readonly budget: BudgetSettings | undefined
  readonly #options: RelayedHostOptions
  readonly #asked = new WeakMap<ServerRequestEntry, { id: string; abort: AbortController }>()
  #nextId = 0
  #gone = false

  constructor(options: RelayedHostOptions) {
    this.#options = options
    this.hostInput = options.hostInput
    this.budget = options.budget
  }

  get closed(): boolean {
    return this.#gone
  }

  notify(): void {}

  request(kind: ServerRequestKind, threadId: string, turnId: string, method: string, params: unknown) {
    const entry: ServerRequestEntry = { id: this.#nextId++, kind, threadId, turnId, state: 'pending', resolvedSent: false }
    const id = randomUUID()
    const abort = new AbortController()
    this.#asked.set(entry, { id, abort })
    const { port, instance, connection } = this.#options
    const response = port.ask({ id, threadId, turnId, kind, method, params, to: { instance, connection } }, abort.signal).then(
      (answer): RpcResponse => {
        if (entry.state === 'pending' && !('unanswered' in answer)) entry.state = 'answered'
        if ('result' in answer) return { id: entry.id, result: answer.result }
        if ('error' in answer) return { id: entry.id, error: answer.error }
        if (!abort.signal.aborted) this.#gone = true
        return { id: entry.id, error: { code: INVALID_REQUEST, message: answer.unanswered } }
      },
      (error: unknown): RpcResponse => ({
        id: entry.id,
        error: { code: INTERNAL_ERROR, message: `could not relay ${method} to front-end ${instance}: ${errorMessage(error)}` },
      }),
    )
    return { entry, response }
  }

  expire(entry: ServerRequestEntry): void {
    if (entry.state !== 'pending') return
    entry.state = 'expired'
    this.#asked.get(entry)?.abort.abort()
    this.#end(entry, 'expired')
  }

  resolved(entry: ServerRequestEntry): void {
    if (entry.resolvedSent) return
    entry.resolvedSent = true
    // An expired request was ended as such; its `serverRequest/resolved` is the front-end's to send.
    if (entry.state !== 'expired') this.#end(entry, 'resolved')
  }

  #end(entry: ServerRequestEntry, end: RelayedEnd): void {
    const asked = this.#asked.get(entry)
    if (!asked) return
    this.#options.port
      .endAsk(asked.id, end)
      .catch((error: unknown) =>
        this.#options.log(`could not tell front-end ${this.#options.instance} request ${asked.id} ended: ${errorMessage(error)}`),
      )
  }
}
