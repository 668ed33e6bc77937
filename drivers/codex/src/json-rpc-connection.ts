import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'

export type RequestId = string | number

export interface RpcErrorBody {
  code: number
  message: string
  data?: unknown
}

/** A JSON-RPC error answer from the app server. */
export class RpcError extends Error {
  readonly code: number
  readonly method: string

  constructor(method: string, body: RpcErrorBody) {
    super(`${method} failed: ${body.message} (${body.code})`)
    this.name = 'RpcError'
    this.code = body.code
    this.method = method
  }
}

/** No answer within the deadline: the request may or may not have taken effect. */
export class RpcTimeoutError extends Error {
  readonly method: string

  constructor(method: string, timeoutMs: number) {
    super(`${method} got no answer within ${timeoutMs} ms`)
    this.name = 'RpcTimeoutError'
    this.method = method
  }
}

/** The connection closed (the process exited) before the answer came. */
export class RpcClosedError extends Error {
  constructor(method: string, reason: string) {
    super(`${method} got no answer: ${reason}`)
    this.name = 'RpcClosedError'
  }
}

export interface Notification {
  method: string
  params: Record<string, unknown>
}

export interface ServerRequest extends Notification {
  id: RequestId
}

export interface ConnectionHandlers {
  notification(message: Notification): void
  /** Answers a server request: a result, or an `RpcErrorBody` thrown as `{ rpc }`. */
  request(message: ServerRequest): Promise<unknown>
  /** A line that is not a JSON-RPC message (it is skipped). */
  garbage(line: string): void
  /** Sees every message sent and received, before it is handled. */
  trace?(entry: ProtocolMessage): void
}

export interface ProtocolMessage {
  direction: 'in' | 'out'
  message: Record<string, unknown>
}

interface Pending {
  method: string
  resolve(result: unknown): void
  reject(error: Error): void
  timer: NodeJS.Timeout | undefined
}

/**
 * JSON-RPC over newline-delimited JSON (the app server's stdio framing, without the `jsonrpc`
 * member). Answers are matched by id; an answer to a request that already timed out is dropped.
 */
export class JsonRpcConnection {
  readonly #output: Writable
  readonly #handlers: ConnectionHandlers
  readonly #pending = new Map<RequestId, Pending>()
  #nextId = 1
  #closed: string | undefined

  constructor(input: Readable, output: Writable, handlers: ConnectionHandlers) {
    this.#output = output
    this.#handlers = handlers
    output.on('error', () => {})
    createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => this.#receive(line))
  }

  get closed(): boolean {
    return this.#closed !== undefined
  }

  request(method: string, params: unknown, timeoutMs?: number): Promise<unknown> {
    if (this.#closed !== undefined) return Promise.reject(new RpcClosedError(method, this.#closed))
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      const pending: Pending = { method, resolve, reject, timer: undefined }
      if (timeoutMs !== undefined) {
        pending.timer = setTimeout(() => {
          this.#pending.delete(id)
          reject(new RpcTimeoutError(method, timeoutMs))
        }, timeoutMs)
      }
      this.#pending.set(id, pending)
      this.#write({ id, method, params })
    })
  }

  notify(method: string, params?: unknown): void {
    if (this.#closed === undefined) this.#write(params === undefined ? { method } : { method, params })
  }

  /** Every request still waiting fails with `reason`; later calls fail at once. */
  close(reason: string): void {
    if (this.#closed !== undefined) return
    this.#closed = reason
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer)
      pending.reject(new RpcClosedError(pending.method, reason))
      this.#pending.delete(id)
    }
  }

  #write(message: Record<string, unknown>): void {
    this.#handlers.trace?.({ direction: 'out', message })
    this.#output.write(`${JSON.stringify(message)}\n`)
  }

  #receive(line: string): void {
    if (line.trim() === '') return
    let message: Record<string, unknown>
    try {
      message = JSON.parse(line) as Record<string, unknown>
    } catch {
      this.#handlers.garbage(line)
      return
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) {
      this.#handlers.garbage(line)
      return
    }
    this.#handlers.trace?.({ direction: 'in', message })
    const { id, method } = message
    if (typeof method === 'string') {
      const params = (message.params ?? {}) as Record<string, unknown>
      if (id === undefined) this.#handlers.notification({ method, params })
      else void this.#answer({ id: id as RequestId, method, params })
      return
    }
    const pending = this.#pending.get(id as RequestId)
    if (!pending) return
    this.#pending.delete(id as RequestId)
    clearTimeout(pending.timer)
    if (message.error !== undefined) pending.reject(new RpcError(pending.method, message.error as RpcErrorBody))
    else pending.resolve(message.result)
  }

  async #answer(request: ServerRequest): Promise<void> {
    try {
      const result = await this.#handlers.request(request)
      if (this.#closed === undefined) this.#write({ id: request.id, result })
    } catch (error) {
      const rpc = (error as { rpc?: RpcErrorBody }).rpc
      const body = rpc ?? { code: -32603, message: error instanceof Error ? error.message : String(error) }
      if (this.#closed === undefined) this.#write({ id: request.id, error: body })
    }
  }
}
