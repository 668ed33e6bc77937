import { userInfo } from 'node:os'
import { KernelError } from '@harness-kernel/kernel'
import type { PoolConfig } from 'pg'

/** Where a connection goes: what an address names, never the password. */
interface ConnectionTarget {
  user: string
  host: string
  port: string
  database: string
}

/**
 * The database a connection string or `pg` pool configuration reaches, as `postgres://user@host:port/database`: without
 * the password, and with what is left out filled in as `pg` fills it (the `PG*` environment variables, then its
 * defaults). Safe to print, log and store.
 */
export function describeDatabaseUrl(connection: string | PoolConfig): string {
  const { user, host, port, database } = connectionTarget(connection)
  const shownHost = host.startsWith('/') ? encodeURIComponent(host) : host.includes(':') ? `[${host}]` : host
  return `postgres://${encodeURIComponent(user)}@${shownHost}:${port}/${encodeURIComponent(database)}`
}

/** The password a connection carries, to be cut out of any message that could echo it. */
export function passwordOf(connection: string | PoolConfig): string | undefined {
  if (typeof connection === 'string') return fieldsOfUrl(connection).password
  const fromString = connection.connectionString === undefined ? undefined : passwordOf(connection.connectionString)
  return fromString ?? (typeof connection.password === 'string' ? connection.password : undefined)
}

function connectionTarget(connection: string | PoolConfig): ConnectionTarget {
  const fields = typeof connection === 'string' ? fieldsOfUrl(connection) : fieldsOfConfig(connection)
  const user = fields.user || process.env.PGUSER || userInfo().username
  return {
    user,
    host: fields.host || process.env.PGHOST || 'localhost',
    port: fields.port || process.env.PGPORT || '5432',
    database: fields.database || process.env.PGDATABASE || user,
  }
}

function fieldsOfConfig(config: PoolConfig): Partial<ConnectionTarget> {
  // As in `pg`: what the connection string says wins over the separate fields.
  const fromString = config.connectionString === undefined ? {} : fieldsOfUrl(config.connectionString)
  const separate = {
    user: config.user,
    host: config.host,
    port: config.port === undefined ? undefined : String(config.port),
    database: config.database,
  }
  return { ...separate, ...definedOnly(fromString) }
}

/** What a connection string says, read as `pg` reads it (its query parameters win over the URL's parts). */
function fieldsOfUrl(text: string): Partial<ConnectionTarget> & { password?: string } {
  // A Unix socket folder, and optionally the database: `/var/run/postgresql mydb`.
  if (text.startsWith('/')) {
    const [host, database] = text.split(' ')
    return definedOnly({ host, database })
  }
  const { url, hostless } = parseConnectionString(text)
  const query = url.searchParams
  if (url.protocol === 'socket:')
    return definedOnly({
      user: query.get('user') || decode(url.username) || undefined,
      password: query.get('password') || decode(url.password) || undefined,
      host: decode(url.pathname),
      database: query.get('db') || undefined,
    })
  return definedOnly({
    user: query.get('user') || decode(url.username) || undefined,
    password: query.get('password') || decode(url.password) || undefined,
    host: query.get('host') || (hostless ? undefined : decode(url.hostname).replace(/^\[(.+)\]$/, '$1')) || undefined,
    port: query.get('port') || url.port || undefined,
    database: decode(url.pathname.slice(1)) || undefined,
  })
}

/** `postgres://user@/db?host=/socket/folder` has no host in the URL: `pg` reads it with a stand-in host, and so does this. */
function parseConnectionString(text: string): { url: URL; hostless: boolean } {
  try {
    return { url: new URL(text), hostless: false }
  } catch {
    try {
      return { url: new URL(text.replace('@/', '@stand-in-host/')), hostless: true }
    } catch {
      // The text itself is never repeated: it may hold the password.
      throw new KernelError(
        'the PostgreSQL connection string is not a URL: give it as postgres://user:password@host:port/database (or pass a pg PoolConfig)',
      )
    }
  }
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>
}
