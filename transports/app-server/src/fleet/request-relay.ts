import { errorMessage } from '@harness-kernel/kernel'
import type { ConnectionChannel } from '../connection-channel.js'
import type { ServerRequestEntry } from '../host-channel.js'
import { INVALID_REQUEST } from '../rpc-errors.js'
import type { FleetPort, RelayedEnd, RelayedRequest } from './fleet-port.js'

interface Relayed {
  request: RelayedRequest
  connection: ConnectionChannel
  entry: ServerRequestEntry
  /** The connection answered; kept until the owner ends it, for `serverRequest/resolved`. */
  answered: boolean
}

/**
 * The front-end's side of server requests relayed from a thread's owner: each goes to this server's connection it
 * names as a request of this connection's own (so an answer from any other connection is refused, as for a local
 * turn), and the connection's answer goes back. A connection that is gone, or goes while asked, is answered for with
 * an error: the owner refuses the approval or takes no host input (fail closed).
 */
export class RequestRelay {
  readonly #port: FleetPort
  readonly #connection: (id: string) => ConnectionChannel | undefined
  readonly #log: (message: string) => void
  readonly #relayed = new Map<string, Relayed>()
  readonly #watch: { close(): Promise<void> }

  constructor(options: { port: FleetPort; connection(id: string): ConnectionChannel | undefined; log(message: string): void }) {
    this.#port = options.port
    this.#connection = options.connection
    this.#log = options.log
    this.#watch = options.port.watchAsks({ onAsk: (request) => this.#ask(request), onEnd: (id, end) => this.#end(id, end) })
  }

  /** The connection went away: whatever it was asked is answered for, as a refusal. */
  left(connection: ConnectionChannel): void {
    for (const [id, relayed] of this.#relayed) {
      if (relayed.connection !== connection) continue
      this.#relayed.delete(id)
      if (!relayed.answered) this.#answer(id, { error: { code: INVALID_REQUEST, message: 'host disconnected' } })
    }
  }

  /**
   * The thread's log shows the turn ended: its owner will not end what it asked (it died; the turn was closed by the
   * process that took the thread over), so the requests still out expire here.
   */
  turnEnded(threadId: string, turnId: string): void {
    for (const [id, relayed] of this.#relayed) {
      if (relayed.request.threadId !== threadId || relayed.request.turnId !== turnId) continue
      this.#relayed.delete(id)
      finish(relayed, 'expired')
    }
  }

  async close(): Promise<void> {
    await this.#watch.close()
    this.#relayed.clear()
  }

  #ask(request: RelayedRequest): void {
    const connection = this.#connection(request.to.connection)
    if (!connection || connection.closed) {
      this.#answer(request.id, { error: { code: INVALID_REQUEST, message: 'host disconnected' } })
      return
    }
    const { entry, response } = connection.request(request.kind, request.threadId, request.turnId, request.method, request.params)
    const relayed: Relayed = { request, connection, entry, answered: false }
    this.#relayed.set(request.id, relayed)
    response.then(
      (answer) => {
        if (this.#relayed.get(request.id) !== relayed) return
        relayed.answered = true
        this.#answer(request.id, answer.error !== undefined ? { error: answer.error } : { result: answer.result })
      },
      (error: unknown) => this.#log(`relayed request ${request.id}: ${errorMessage(error)}`),
    )
  }

  #end(id: string, end: RelayedEnd): void {
    const relayed = this.#relayed.get(id)
    if (!relayed) return
    this.#relayed.delete(id)
    finish(relayed, end)
  }

  #answer(id: string, answer: { result: unknown } | { error: { code: number; message: string } }): void {
    this.#port.answer(id, answer).catch((error: unknown) => this.#log(`could not answer relayed request ${id}: ${errorMessage(error)}`))
  }
}

/** `serverRequest/resolved` for the connection, once: an unanswered request expires (a later answer is `late`). */
function finish(relayed: Relayed, end: RelayedEnd): void {
  if (end === 'expired' && relayed.entry.state === 'pending') relayed.connection.expire(relayed.entry)
  else relayed.connection.resolved(relayed.entry)
}
