import { type ChildProcess, spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import type { DriverInfo } from './app-server.js'
import type { BudgetSettings } from './budget-requests.js'
import type { HostInputItem, HostInputSettings } from './host-input-protocol.js'
import type { WebSocketConnectOptions } from './listen/connect-websocket.js'
import type { UserInput } from './params.js'
import { RpcError } from './rpc-errors.js'
import { ANSWERED, type RequestId, RpcPeer, type RpcResponse } from './rpc-peer.js'
import type { WireTurn } from './wire-items.js'

export interface Notification {
  method: string
  params: Record<string, unknown>
}

export interface HostInputRequest {
  threadId: string
  turnId: string
  boundary: { kind: 'sampling' | 'final' | 'tool'; step: number }
}

/** Answers a `turn/hostInput/request`: the items, or `undefined` to leave it unanswered (answer later with `respond`). */
export type HostInputHandler = (
  request: HostInputRequest,
  requestId: RequestId,
) => { items: HostInputItem[] } | undefined | Promise<{ items: HostInputItem[] } | undefined>

/**
 * Answers an approval request with `{decision}`; `method` says which: `item/commandExecution/requestApproval` or
 * `item/fileChange/requestApproval`.
 */
export type ApprovalHandler = (params: Record<string, unknown>, requestId: RequestId, method: string) => unknown | Promise<unknown>

/** A `turn/budget/request`: the thread, its turn, and the budget reached. */
export interface BudgetRequest {
  threadId: string
  turnId: string
  budget: { scope: 'session' | 'turn'; kind: 'tokens' | 'costUsd'; limit: number; used: number; sessionId?: string }
}

/** Answers a `turn/budget/request`: a new limit (above `used`) to go on, or `undefined` to let the turn halt. */
export type BudgetHandler = (request: BudgetRequest, requestId: RequestId) => number | undefined | Promise<number | undefined>

export interface AppServerClientOptions {
  onHostInput?: HostInputHandler
  /** Answers `turn/budget/request` (a connection that initialized with `budget`); default: no raise. */
  onBudget?: BudgetHandler
  /** Answers `item/commandExecution/requestApproval` and `item/fileChange/requestApproval` with `{decision}`; default `decline`. */
  onApproval?: ApprovalHandler
  /**
   * Sees every message as it is read, before anything else handles it (a wire log, a protocol check). `answering` is
   * the method of the request a response answers (when this client sent that request).
   */
  onReceive?: ReceiveTap
}

export type ReceiveTap = (message: WireMessage, answering?: string) => void

export interface InitializeOptions {
  name?: string
  version?: string
  hostInput?: { version?: number; boundaries?: ('sampling' | 'final' | 'tool')[]; timeoutMs?: number }
  /** `capabilities.experimentalApi` (Codex gates a granular `approvalPolicy` behind it). Default false. */
  experimentalApi?: boolean
  /** `capabilities.budget`: be asked with `turn/budget/request` when a budget of a turn this client started is reached. */
  budget?: { version?: number; timeoutMs?: number }
}

export interface InitializeResult {
  userAgent: string
  codexHome: string
  platformFamily: string
  platformOs: string
  hostInput?: HostInputSettings
  budget?: BudgetSettings
  /** The kernel's driver: its id, the boundaries where it takes input, and whether final input continues a turn. */
  driver?: DriverInfo
}

/** One inbound message as read, in order (notifications, server requests and responses). */
export type WireMessage = Record<string, unknown>

/**
 * A host for the app server: spawns it (or wraps its streams), sends typed requests, emits
 * `notification` events and answers server requests through handlers.
 */
export class AppServerClient extends EventEmitter {
  readonly child: ChildProcess | undefined
  /** Every message received, in order. */
  readonly received: WireMessage[] = []
  readonly notifications: Notification[] = []
  /** The child's stderr, when spawned with `stderr: 'pipe'`. */
  stderr = ''
  onHostInput: HostInputHandler | undefined
  onApproval: ApprovalHandler
  onBudget: BudgetHandler | undefined
  onReceive: ReceiveTap | undefined
  readonly #peer: RpcPeer
  /** The method of each request sent and not answered yet, by id. */
  readonly #asked = new Map<RequestId, string>()
  readonly #exited: Promise<number | null>
  readonly #toServer: NodeJS.WritableStream
  /** Set by `connect`: closes the WebSocket and resolves once it is closed. */
  #disconnect: (() => Promise<void>) | undefined

  constructor(
    fromServer: NodeJS.ReadableStream,
    toServer: NodeJS.WritableStream,
    options: AppServerClientOptions = {},
    child?: ChildProcess,
  ) {
    super()
    this.child = child
    this.onHostInput = options.onHostInput
    this.onApproval = options.onApproval ?? (() => ({ decision: 'decline' }))
    this.onBudget = options.onBudget
    this.onReceive = options.onReceive
    this.#toServer = toServer
    this.#exited = child
      ? new Promise((resolve) => {
          if (child.exitCode !== null) resolve(child.exitCode)
          else child.once('exit', (code) => resolve(code))
        })
      : Promise.resolve(null)
    this.#peer = new RpcPeer(fromServer, toServer, {
      request: (method, params, id, message) => {
        this.onReceive?.(message)
        this.received.push({ method, id, params })
        this.emit('serverRequest', method, params, id)
        return this.#serverRequest(method, params as Record<string, unknown>, id)
      },
      notification: (method, params, message) => {
        this.onReceive?.(message)
        const notification = { method, params: (params ?? {}) as Record<string, unknown> }
        this.received.push(message)
        this.notifications.push(notification)
        this.emit('notification', notification)
      },
      response: (response) => {
        const answering = this.#asked.get(response.id)
        this.#asked.delete(response.id)
        this.onReceive?.({ ...response }, answering)
        this.received.push({ ...response })
      },
      closed: () => this.emit('closed'),
      log: (message) => this.emit('log', message),
    })
  }

  /** Spawns a server process speaking JSON lines on stdio (stderr is inherited unless `stderr: 'pipe'`). */
  static spawn(
    command: string,
    args: readonly string[],
    options: AppServerClientOptions & { cwd?: string; env?: NodeJS.ProcessEnv; stderr?: 'inherit' | 'pipe' | 'ignore' } = {},
  ): AppServerClient {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', options.stderr ?? 'inherit'] })
    const client = new AppServerClient(child.stdout!, child.stdin!, options, child)
    child.stderr?.setEncoding('utf8')
    child.stderr?.on('data', (chunk: string) => {
      client.stderr += chunk
    })
    return client
  }

  /**
   * Connects to a server listening on `ws://IP:PORT` or `unix://PATH` (`harness app-server --listen …`), one JSON-RPC
   * message per WebSocket text frame. Rejects with a `WebSocketRefusedError` when the server refuses the upgrade.
   */
  static async connect(url: string, options: AppServerClientOptions & WebSocketConnectOptions = {}): Promise<AppServerClient> {
    const { connectWebSocket } = await import('./listen/connect-websocket.js')
    const { input, output, closed } = await connectWebSocket(url, options)
    const client = new AppServerClient(input, output, options)
    client.#disconnect = () => {
      output.end()
      return closed.then(() => {})
    }
    return client
  }

  async request<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    const { id, response } = this.#peer.request(method, params)
    this.#asked.set(id, method)
    const answer = await response
    if (answer.error) throw new RpcError(answer.error.code, answer.error.message, answer.error.data)
    return answer.result as T
  }

  /** Sends a raw answer to a server request (for late, duplicate or unknown answers). */
  respond(id: RequestId, result: unknown): void {
    this.#peer.reply(id, result)
  }

  respondError(id: RequestId, code: number, message: string): void {
    this.#peer.send({ error: { code, message }, id })
  }

  /** Sends a raw line, or lines (e.g. malformed JSON in tests). The requests among them are known to `onReceive`. */
  sendRaw(line: string): void {
    for (const part of line.split('\n')) {
      try {
        const message = JSON.parse(part) as WireMessage
        if (typeof message.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number'))
          this.#asked.set(message.id, message.method)
      } catch {}
    }
    this.#toServer.write(`${line}\n`)
  }

  initialize(options: InitializeOptions = {}): Promise<InitializeResult> {
    const capabilities: Record<string, unknown> = { experimentalApi: options.experimentalApi === true }
    if (options.hostInput) capabilities.hostInput = { version: 1, ...options.hostInput }
    if (options.budget) capabilities.budget = { version: 1, ...options.budget }
    return this.request<InitializeResult>('initialize', {
      clientInfo: { name: options.name ?? 'app-server-client', title: null, version: options.version ?? '0.1.0' },
      capabilities,
    }).then((result) => {
      this.#peer.send({ method: 'initialized' })
      return result
    })
  }

  /** `thread/start`; `params` may carry any of its members (`sandbox`, `approvalPolicy`, …). */
  startThread(
    params: { cwd?: string; [member: string]: unknown } = {},
  ): Promise<{ thread: { id: string; path: string; turns: WireTurn[] } } & Record<string, unknown>> {
    return this.request('thread/start', params)
  }

  resumeThread(threadId: string): Promise<{ thread: { id: string; path: string; turns: WireTurn[] } }> {
    return this.request('thread/resume', { threadId })
  }

  startTurn(threadId: string, text: string | UserInput[], clientUserMessageId?: string): Promise<{ turn: WireTurn }> {
    return this.request('turn/start', { threadId, input: toInput(text), ...(clientUserMessageId ? { clientUserMessageId } : {}) })
  }

  steer(threadId: string, expectedTurnId: string, text: string | UserInput[], clientUserMessageId?: string): Promise<{ turnId: string }> {
    return this.request('turn/steer', {
      threadId,
      expectedTurnId,
      input: toInput(text),
      ...(clientUserMessageId ? { clientUserMessageId } : {}),
    })
  }

  interrupt(threadId: string, turnId: string): Promise<Record<string, never>> {
    return this.request('turn/interrupt', { threadId, turnId })
  }

  /** Resolves with the first notification (from index `since` of `notifications`) that matches. */
  waitFor(
    method: string,
    match: (params: Record<string, unknown>) => boolean = () => true,
    options: { since?: number; timeoutMs?: number } = {},
  ) {
    const found = this.notifications.slice(options.since ?? 0).find((entry) => entry.method === method && match(entry.params))
    if (found) return Promise.resolve(found.params)
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('notification', listener)
        reject(new Error(`timed out waiting for ${method}`))
      }, options.timeoutMs ?? 10_000)
      const listener = (entry: Notification) => {
        if (entry.method !== method || !match(entry.params)) return
        clearTimeout(timer)
        this.off('notification', listener)
        resolve(entry.params)
      }
      this.on('notification', listener)
    })
  }

  /** Waits for `turn/completed` of a turn. */
  turnCompleted(threadId: string, turnId: string, timeoutMs?: number): Promise<{ turn: WireTurn }> {
    return this.waitFor('turn/completed', (params) => params.threadId === threadId && (params.turn as WireTurn).id === turnId, {
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    }) as unknown as Promise<{ turn: WireTurn }>
  }

  /** Closes stdin (the server winds down) and waits for the process to exit; a `connect`ed client closes its socket. */
  async close(): Promise<number | null> {
    this.child?.stdin?.end()
    await this.#disconnect?.()
    this.#peer.close()
    return this.#exited
  }

  async #serverRequest(method: string, params: Record<string, unknown>, id: RequestId): Promise<unknown> {
    if (method === 'turn/hostInput/request') {
      const answer = await this.onHostInput?.(params as unknown as HostInputRequest, id)
      return answer === undefined ? ANSWERED : answer
    }
    if (method === 'item/commandExecution/requestApproval' || method === 'item/fileChange/requestApproval')
      return this.onApproval(params, id, method)
    if (method === 'turn/budget/request') return { limit: (await this.onBudget?.(params as unknown as BudgetRequest, id)) ?? null }
    throw new RpcError(-32601, `unsupported server request ${method}`)
  }
}

function toInput(text: string | UserInput[]): UserInput[] {
  return typeof text === 'string' ? [{ type: 'text', text, text_elements: [] }] : text
}

export type { RpcResponse }
