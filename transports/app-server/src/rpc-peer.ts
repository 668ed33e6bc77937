import { readLines, writeLine } from './json-lines.js'
import { INTERNAL_ERROR, INVALID_REQUEST, RpcError } from './rpc-errors.js'

export type RequestId = string | number

/** A request handler returns this when it already answered with `peer.reply()` (to order the answer before notifications). */
export const ANSWERED: unique symbol = Symbol('answered')

export interface RpcResponse {
  id: RequestId
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

export interface RpcPeerHandlers {
  /** Answers a request: return the result or throw an `RpcError`. `message` is the request as read. */
  request(method: string, params: unknown, id: RequestId, message: Record<string, unknown>): Promise<unknown>
  notification(method: string, params: unknown, message: Record<string, unknown>): void
  /** Every response, synchronously, as it is read (before any waiter runs). */
  response?(response: RpcResponse): void
  /** A response whose id this peer is not waiting for (late, duplicate or unknown). */
  strayResponse?(response: RpcResponse): void
  /** The input ended (the other side went away). */
  closed?(): void
  log?(message: string): void
}

interface Waiting {
  resolve(response: RpcResponse): void
}

/**
 * One end of a JSON-RPC connection over JSON lines, in Codex's dialect: no `jsonrpc` member is sent
 * (it is accepted and ignored on input), outgoing request ids are integers from 0.
 */
export class RpcPeer {
  readonly #output: NodeJS.WritableStream
  readonly #handlers: RpcPeerHandlers
  readonly #waiting = new Map<RequestId, Waiting>()
  readonly #stopReading: () => void
  #nextId = 0
  #closed = false
  /** Adds members to every notification sent (the server adds `emittedAtMs`). */
  decorateNotification: ((message: Record<string, unknown>) => Record<string, unknown>) | undefined

  readonly #newId: () => number

  /** `nextId` numbers outgoing requests (a server with many connections keeps them unique across all of them). */
  constructor(
    input: NodeJS.ReadableStream,
    output: NodeJS.WritableStream,
    handlers: RpcPeerHandlers,
    options: { nextId?: () => number } = {},
  ) {
    this.#output = output
    this.#handlers = handlers
    this.#newId = options.nextId ?? (() => this.#nextId++)
    this.#stopReading = readLines(
      input,
      (line) => this.#onLine(line),
      () => this.#onEnd(),
    )
  }

  get closed(): boolean {
    return this.#closed
  }

  notify(method: string, params: unknown): void {
    const message: Record<string, unknown> = { method, params }
    this.send(this.decorateNotification ? this.decorateNotification(message) : message)
  }

  /** Sends a request; the returned id is known before the response arrives. */
  request(method: string, params: unknown): { id: number; response: Promise<RpcResponse> } {
    const id = this.#newId()
    const response = new Promise<RpcResponse>((resolve) => this.#waiting.set(id, { resolve }))
    this.send({ method, id, params })
    return { id, response }
  }

  /** Stops waiting for a response: a later one goes to `strayResponse`. */
  forget(id: RequestId): void {
    this.#waiting.delete(id)
  }

  reply(id: RequestId, result: unknown): void {
    this.send({ id, result: result ?? {} })
  }

  send(message: unknown): void {
    if (!this.#closed) writeLine(this.#output, message)
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#stopReading()
  }

  #onEnd(): void {
    this.#closed = true
    this.#handlers.closed?.()
  }

  #onLine(line: string): void {
    let message: unknown
    try {
      message = JSON.parse(line)
    } catch (error) {
      this.#handlers.log?.(`Failed to deserialize JSONRPCMessage: ${(error as Error).message}`)
      return
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.#handlers.log?.('Failed to deserialize JSONRPCMessage: expected a JSON object')
      return
    }
    const record = message as Record<string, unknown>
    const id = record.id
    const hasId = typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id))
    if (typeof record.method === 'string') {
      if (hasId) void this.#answer(record.method, record.params, id as RequestId, record)
      else if ('id' in record) this.#invalidId(record.method, id)
      else this.#handlers.notification(record.method, record.params, record)
      return
    }
    // The answer to a request whose id could not be read (JSON-RPC 2.0: `id: null`).
    if (id === null && 'error' in record) {
      this.#handlers.response?.(record as unknown as RpcResponse)
      return
    }
    if (hasId && ('result' in record || 'error' in record)) {
      const response = record as unknown as RpcResponse
      this.#handlers.response?.(response)
      const waiting = this.#waiting.get(response.id)
      if (waiting) {
        this.#waiting.delete(response.id)
        waiting.resolve(response)
      } else this.#handlers.strayResponse?.(response)
      return
    }
    this.#handlers.log?.('Failed to deserialize JSONRPCMessage: not a request, notification or response')
  }

  /**
   * A request with an id that is not a string or an integer is still answered: JSON-RPC 2.0's Invalid Request, with
   * `id: null` (Codex 0.169.0 answers nothing, so its client waits forever).
   */
  #invalidId(method: string, id: unknown): void {
    const kind =
      id === null ? 'null' : Array.isArray(id) ? 'an array' : typeof id === 'object' ? 'an object' : `${typeof id} ${JSON.stringify(id)}`
    this.#handlers.log?.(`answered ${method} with an Invalid Request: its id is ${kind}`)
    this.send({
      error: { code: INVALID_REQUEST, message: `Invalid request: the id of ${method} must be a string or an integer, not ${kind}` },
      id: null,
    })
  }

  async #answer(method: string, params: unknown, id: RequestId, message: Record<string, unknown>): Promise<void> {
    try {
      const result = await this.#handlers.request(method, params, id, message)
      if (result !== ANSWERED) this.reply(id, result)
    } catch (error) {
      if (error instanceof RpcError) {
        this.send({ error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) }, id })
      } else {
        this.#handlers.log?.(`internal error in ${method}: ${(error as Error)?.stack ?? String(error)}`)
        this.send({ error: { code: INTERNAL_ERROR, message: (error as Error)?.message ?? String(error) }, id })
      }
    }
  }
}
