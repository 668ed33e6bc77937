import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import {
  AppServerClient,
  type AppServerClientOptions,
  type AppServerHost,
  type AppServerClient as Client,
  createAppServerBridge,
  createAppServerHost,
} from '@harness-kernel/app-server'
import { createKernel, type Kernel, type KernelOptions, type ModelProvider, type ModelRequest } from '@harness-kernel/kernel'
import { type PostgresFleet, type PostgresSessionLock, type PostgresSessionStore, postgresStore } from '@harness-kernel/store-postgres'
import { waitUntil } from '@harness-kernel/testing'
import { type PostgresServer, startPostgres } from '@harness-kernel/testing/postgres'
import { tools } from '@harness-kernel/tools'
import pg from 'pg'
import { afterAll, afterEach, beforeAll } from 'vitest'

/** One App Server "process" of the fleet: its kernel, its store instance (and so its leases), clients in memory. */
export interface Front {
  host: AppServerHost
  kernel: Kernel
  store: PostgresSessionStore
  fleet: PostgresFleet
  /** Every lock its store took, in order. */
  locks: PostgresSessionLock[]
  connect(
    name: string,
    options?: AppServerClientOptions & { hostInput?: { timeoutMs?: number }; budget?: { timeoutMs?: number } },
  ): Promise<Client>
  /** The client's connection ends, as when its socket closes. */
  hangUp(client: Client): void
}

export interface FrontEnds {
  /** A new schema: the fleet of one test. */
  schema(): string
  /** An App Server on the test file's PostgreSQL, in `schema`; closed after the test. */
  frontEnd(schema: string, provider: ModelProvider, leaseMs?: number, options?: Pick<KernelOptions, 'budgets'>): Promise<Front>
  /** Runs a statement as the server's superuser. */
  sql<Row extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<Row[]>
  /** The state of an inbox row. */
  row(schema: string, id: string): Promise<{ state: string } | undefined>
  /** Waits (bounded at 20 s) until `probe` holds. */
  until<T>(probe: () => Promise<T | undefined | false>, what: string): Promise<T>
}

/**
 * App Servers sharing threads through one PostgreSQL, each a "process" of its own, with clients on in-memory streams:
 * the server starts for the test file (beforeAll), everything a test opened closes after it.
 */
export function useFrontEnds(): FrontEnds {
  let server: PostgresServer | undefined
  let admin: pg.Pool | undefined
  let schemas = 0
  const closers: (() => Promise<void>)[] = []
  beforeAll(async () => {
    server = await startPostgres()
    admin = new pg.Pool({ connectionString: server.url, max: 2 })
    // An idle connection that dies is reported here; without a listener it would crash the test file.
    admin.on('error', () => {})
  })
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {})
  })
  afterAll(async () => {
    await admin?.end()
    await server?.stop()
  })
  const sql = async <Row extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<Row[]> => {
    if (!admin) throw new Error('the server starts in beforeAll')
    return (await admin.query<Row>(text, values)).rows
  }
  return {
    schema: () => `fleet_${process.pid}_${++schemas}`,
    sql,
    row: async (schema, id) => (await sql<{ state: string }>(`SELECT state FROM "${schema}".inbox WHERE id = $1`, [id]))[0],
    until: (probe, what) => waitUntil(probe, what, { boundMs: 20_000 }),
    async frontEnd(schema, provider, leaseMs = 15_000, options = {}) {
      if (!server) throw new Error('the server starts in beforeAll')
      const store = postgresStore(server.url, { schema, leaseMs, localDir: mkdtempSync(join(tmpdir(), 'fleet-ledger-')) })
      const locks: PostgresSessionLock[] = []
      const lock = store.lock.bind(store)
      store.lock = async (id: string) => {
        const taken = await lock(id)
        locks.push(taken)
        return taken
      }
      const fleet = store.fleet({ pollMs: 200, followPollMs: 20 })
      const bridge = createAppServerBridge()
      const kernel = createKernel(
        [
          bridge.plugin,
          tools({ include: ['shell'] }),
          {
            name: 'fleet-test',
            setup: (api) => {
              api.provide('sessionStore', store)
              api.provide('model', provider)
            },
          },
        ],
        { cwd: realpathSync(mkdtempSync(join(tmpdir(), 'fleet-cwd-'))), ...options },
      )
      const host = createAppServerHost({ kernel, bridge, fleet, log: () => {} })
      const streams = new WeakMap<Client, PassThrough>()
      // Each step whatever the one before did: a store left open keeps timers and connections past the server's stop.
      closers.push(async () => {
        await host.close().catch(() => {})
        await kernel.dispose().catch(() => {})
        await store.close()
      })
      return {
        host,
        kernel,
        store,
        fleet,
        locks,
        async connect(name, options = {}) {
          const toServer = new PassThrough()
          const fromServer = new PassThrough()
          host.connect({ input: toServer, output: fromServer, label: name })
          const client = new AppServerClient(fromServer, toServer, options)
          streams.set(client, toServer)
          closers.push(async () => {
            toServer.end()
          })
          await client.initialize({
            name,
            ...(options.hostInput ? { hostInput: options.hostInput } : {}),
            ...(options.budget ? { budget: options.budget } : {}),
          })
          return client
        },
        hangUp: (client) => streams.get(client)?.end(),
      }
    },
  }
}

/** What the model was told, a line per message. */
export const said = (request: ModelRequest) =>
  request.messages.map(
    (message) => `${message.role}: ${message.content.map((block) => (block.type === 'text' ? block.text : '')).join('')}`,
  )

/** A model whose answers wait for `held` when it is given; it answers what it was last told. */
export function model(held?: Promise<void>): ModelProvider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = []
  return {
    id: 'fleet-model',
    requests,
    async generate(request, options) {
      requests.push(request)
      if (held)
        await Promise.race([
          held,
          new Promise((_, reject) => options.signal.addEventListener('abort', () => reject(options.signal.reason))),
        ])
      return { content: [{ type: 'text', text: `answer ${requests.length}` }] }
    },
  }
}
