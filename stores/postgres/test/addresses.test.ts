import { execFileSync } from 'node:child_process'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freeLoopbackPort } from '@harness-kernel/testing/postgres'
import { describe, expect, it } from 'vitest'
import { errorText } from '../src/error-text.js'
import { describeDatabaseUrl, postgresStore } from '../src/index.js'
import { rejection } from './support/rejection.js'

const PASSWORD = 'p@ss:w/rd?x'
const encoded = encodeURIComponent(PASSWORD)
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)))

describe('addresses and messages never show the password', () => {
  it('describes a connection string or a pg config as postgres://user@host:port/database', () => {
    expect(describeDatabaseUrl(`postgres://alice:${encoded}@db.example:6543/threads?sslmode=require`)).toBe(
      'postgres://alice@db.example:6543/threads',
    )
    expect(describeDatabaseUrl(`postgresql://alice@db.example/threads?password=${encoded}`)).toBe(
      'postgres://alice@db.example:5432/threads',
    )
    expect(describeDatabaseUrl({ user: 'bob', password: PASSWORD, host: '10.0.0.5', port: 5433, database: 'harness' })).toBe(
      'postgres://bob@10.0.0.5:5433/harness',
    )
    expect(describeDatabaseUrl({ connectionString: `postgres://carol:${encoded}@h:1/d`, user: 'ignored' })).toBe('postgres://carol@h:1/d')
    expect(describeDatabaseUrl('postgres://dave@/threads?host=/var/run/postgresql')).toBe(
      'postgres://dave@%2Fvar%2Frun%2Fpostgresql:5432/threads',
    )
  })

  it('refuses a connection string that is not a URL without repeating it', () => {
    expect(() => describeDatabaseUrl(`host=db password=${PASSWORD}`)).toThrow(expect.objectContaining({ name: 'KernelError' }))
    expect(() => describeDatabaseUrl(`host=db password=${PASSWORD}`)).not.toThrow(PASSWORD)
  })

  it('names each refused address of a connection to a name with several (an AggregateError without a message)', () => {
    const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' })
    expect(errorText(new AggregateError([refused('::1:5432'), refused('127.0.0.1:5432'), refused('::1:5432')], ''))).toBe(
      'connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432',
    )
  })

  it('a thread’s address is the database’s, its schema and the thread', () => {
    const store = postgresStore(`postgres://alice:${encoded}@db.example:6543/threads`, { schema: 'agents' })
    expect(store.pathFor('s-1')).toBe('postgres://alice@db.example:6543/threads#agents.thread=s-1')
    expect(() => store.pathFor('../etc')).toThrow('invalid session id')
  })

  it('a database nobody listens for: the first use is a KernelError naming it without the password', async () => {
    const port = await freeLoopbackPort()
    const store = postgresStore(`postgres://alice:${encoded}@127.0.0.1:${port}/threads`)
    try {
      for (const use of [() => store.lock('s-1'), () => store.list(), () => store.load('s-1')]) {
        const error = await rejection(use())
        expect(error).toMatchObject({ name: 'KernelError' })
        expect(error.message).toBe(
          `cannot reach PostgreSQL at postgres://alice@127.0.0.1:${port}/threads (no password): connect ECONNREFUSED 127.0.0.1:${port}`,
        )
        expect(error.message).not.toContain(PASSWORD)
        expect(error.message).not.toContain(encoded)
      }
    } finally {
      await store.close()
    }
  })

  it('loads pg only on first use (the built package, in a process of its own)', () => {
    // `pg` is CommonJS: once imported, it is in the CommonJS module cache.
    const script = `
      import { createRequire } from 'node:module'
      const cache = createRequire(import.meta.url).cache
      const pgLoaded = () => Object.keys(cache).some((path) => path.includes('/node_modules/pg/lib/'))
      const { postgresStore } = await import('@harness-kernel/store-postgres')
      const store = postgresStore('postgres://u:pw@127.0.0.1:1/d')
      store.pathFor('x')
      const before = pgLoaded()
      await store.list().catch(() => {})
      console.log(JSON.stringify({ before, after: pgLoaded() }))`
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: packageDir, encoding: 'utf8' })
    expect(JSON.parse(output)).toEqual({ before: false, after: true })
  })
})
