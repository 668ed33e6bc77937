import { setTimeout as pause } from 'node:timers/promises'
import { AppServerClient, RpcError } from '@harness-kernel/app-server'
import type { Prng } from '../../../bench/src/reliability/prng.js'
import type { RowState } from './thread-db.js'

export interface ChaosClientOptions {
  threadId: string
  rng: Prng
  /** The URLs of the front-ends alive now. */
  frontEnds(): string[]
  /** The turn the thread's log has open, as the client last read it. */
  openTurn(): string | undefined
  rowState(rowId: string): Promise<RowState | undefined>
  connectTimeoutMs: number
  requestTimeoutMs: number
  /** How long one input may take to be accepted, retries included, before the run fails. */
  inputDeadlineMs: number
}

export interface ClientStats {
  requests: number
  /** Requests that failed (connection lost, timeout, an error other than a validation one): reconnect, same id. */
  failures: number
  /** Requests refused for a stale view of the turn (`no active turn to steer`, `expected active turn id`): same id. */
  staleTurn: number
  connects: number
  steers: number
  starts: number
  failureReasons: Map<string, number>
  /** The last attempts, for a failed run's report. */
  recent: string[]
}

/** What a send came to: accepted (a request for it was answered with success), or handed back before it was. */
export type SendOutcome = 'accepted' | 'dropped'

const SUSPECT_MS = 5_000
const isStaleTurn = (error: unknown) => error instanceof RpcError && /no active turn to steer|expected active turn id/.test(error.message)

/**
 * The client of the chaos test: sends each input through a randomly chosen front-end, `turn/steer` into the open turn
 * when it knows one, else `turn/start`, both with `clientUserMessageId`, and retries the same id through any front-end
 * until a request for it is answered with success.
 */
export class ChaosClient {
  readonly stats: ClientStats = {
    requests: 0,
    failures: 0,
    staleTurn: 0,
    connects: 0,
    steers: 0,
    starts: 0,
    failureReasons: new Map(),
    recent: [],
  }
  readonly #options: ChaosClientOptions
  readonly #connections = new Map<string, Promise<AppServerClient>>()
  /** A front-end that failed is tried again only after a while, or when no other is up, as a real client would. */
  readonly #suspectUntil = new Map<string, number>()
  #closed = false

  constructor(options: ChaosClientOptions) {
    this.#options = options
  }

  async send(text: string, clientId: string): Promise<SendOutcome> {
    const { threadId, rng } = this.#options
    const deadline = Date.now() + this.#options.inputDeadlineMs
    for (;;) {
      if (this.#closed) throw new Error('the client was closed')
      if (Date.now() > deadline) throw new Error(`${clientId} was not accepted within ${this.#options.inputDeadlineMs} ms`)
      const urls = this.#options.frontEnds()
      if (urls.length === 0) {
        await pause(100)
        continue
      }
      const trusted = urls.filter((url) => (this.#suspectUntil.get(url) ?? 0) <= Date.now())
      const url = rng.pick(trusted.length > 0 ? trusted : urls)
      const open = this.#options.openTurn()
      try {
        const client = await this.#connection(url)
        this.stats.requests++
        if (open) {
          this.stats.steers++
          await this.#answered(client, client.steer(threadId, open, text, clientId))
        } else {
          this.stats.starts++
          await this.#answered(client, client.startTurn(threadId, text, clientId))
        }
        this.#note(`${clientId} ${open ? `steer ${open}` : 'start'} via ${url}: accepted`)
        return 'accepted'
      } catch (error) {
        this.#note(`${clientId} ${open ? `steer ${open}` : 'start'} via ${url}: ${reasonOf(error)}`)
        if (isStaleTurn(error)) {
          this.stats.staleTurn++
          await pause(20)
          continue
        }
        this.#failed(url, error)
        // Handed back while the client retried (its turn dropped it): it is sent again under a new id.
        if ((await this.#options.rowState(`steer:${threadId}:${clientId}`)) === 'dropped') return 'dropped'
        await pause(50 + rng.int(150))
      }
    }
  }

  async close(): Promise<void> {
    this.#closed = true
    const clients = await Promise.allSettled(this.#connections.values())
    this.#connections.clear()
    await Promise.all(clients.map((entry) => (entry.status === 'fulfilled' ? entry.value.close().catch(() => {}) : undefined)))
  }

  #note(line: string): void {
    this.stats.recent.push(`${new Date().toISOString().slice(11, 23)} ${line}`)
    if (this.stats.recent.length > 40) this.stats.recent.shift()
  }

  #failed(url: string, error: unknown): void {
    this.stats.failures++
    this.#suspectUntil.set(url, Date.now() + SUSPECT_MS)
    const reason = reasonOf(error)
    this.stats.failureReasons.set(reason, (this.stats.failureReasons.get(reason) ?? 0) + 1)
    const connection = this.#connections.get(url)
    this.#connections.delete(url)
    void connection?.then((client) => client.close().catch(() => {})).catch(() => {})
  }

  #connection(url: string): Promise<AppServerClient> {
    let connection = this.#connections.get(url)
    if (!connection) {
      this.stats.connects++
      connection = this.#within(
        (async () => {
          const client = await AppServerClient.connect(url)
          client.on('closed', () => {
            if (this.#connections.get(url) === connection) this.#connections.delete(url)
          })
          await client.initialize({ name: 'chaos-client' })
          return client
        })(),
        'connect',
        this.#options.connectTimeoutMs,
      )
      this.#connections.set(url, connection)
    }
    return connection
  }

  /** The answer, or a failure when the connection closes or the answer takes longer than the request timeout. */
  #answered<T>(client: AppServerClient, request: Promise<T>): Promise<T> {
    let onClosed!: () => void
    const closed = new Promise<never>((_, reject) => {
      onClosed = () => reject(new Error('connection closed'))
      client.once('closed', onClosed)
    })
    return this.#within(Promise.race([request, closed]), 'request', this.#options.requestTimeoutMs).finally(() =>
      client.off('closed', onClosed),
    )
  }

  #within<T>(promise: Promise<T>, what: string, timeoutMs: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out`)), timeoutMs)
    })
    return Promise.race([promise, late]).finally(() => clearTimeout(timer))
  }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  if (error instanceof RpcError) return `rpc ${error.code}: ${message.slice(0, 80)}`
  if (/ECONNREFUSED/.test(message)) return 'connection refused'
  return message.slice(0, 80)
}
