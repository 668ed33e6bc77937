import { KernelError } from '@harness-kernel/kernel'
import type { ClientBase } from 'pg'
import type { Tables } from './sql-names.js'

/**
 * The version of the tables this store writes; a later store migrates from the number it finds. 2: the inbox's order
 * (`n`) and claimant (`claimed_by`), and an index of its open rows (the fleet). 3: `asks`, the server requests a
 * thread's owner relays to another front-end.
 */
export const SCHEMA_VERSION = 3

/** PostgreSQL's codes for a schema or table that is not there. */
const MISSING = new Set(['3F000', '42P01'])

/**
 * Makes sure the schema and its tables exist at this version. The common case, a database already set up, costs one
 * query; otherwise the tables are created, or those of an older version brought up to this one, in one transaction
 * serialized by an advisory lock so stores starting together do not race on the DDL.
 */
export async function ensureSchema(client: ClientBase, tables: Tables): Promise<void> {
  const found = await installedVersion(client, tables)
  if (found === SCHEMA_VERSION) return
  if (found !== undefined && found > SCHEMA_VERSION) throw newerSchema(tables, found)
  await client.query('BEGIN')
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`@harness-kernel/store-postgres:${tables.schema}`])
    // A store that held the lock before this one may have set the schema up, or migrated it past this version.
    const locked = await versionInTransaction(client, tables)
    if (locked !== undefined && locked > SCHEMA_VERSION) throw newerSchema(tables, locked)
    if (locked !== SCHEMA_VERSION) {
      // One round trip: without parameters, `pg` sends the statements as one simple query. Each is idempotent: the
      // tables are created as version 1 made them, then brought up to this version, as an older database is.
      await client.query([...createStatements(tables), ...upgradeStatements(tables)].join(';\n'))
      await client.query(
        `INSERT INTO ${tables.schemaVersion} AS installed (version) VALUES ($1)
         ON CONFLICT (only_row) DO UPDATE SET version = EXCLUDED.version WHERE installed.version < EXCLUDED.version`,
        [SCHEMA_VERSION],
      )
    }
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  }
}

async function installedVersion(client: ClientBase, tables: Tables): Promise<number | undefined> {
  try {
    const result = await client.query<{ version: number }>(`SELECT version FROM ${tables.schemaVersion}`)
    return result.rows[0]?.version
  } catch (error) {
    if (MISSING.has((error as { code?: string }).code ?? '')) return undefined
    throw error
  }
}

/** As `installedVersion`, without a failed statement (a missing table) aborting the transaction it runs in. */
async function versionInTransaction(client: ClientBase, tables: Tables): Promise<number | undefined> {
  const found = await client.query<{ table: string | null }>('SELECT to_regclass($1)::text AS table', [tables.schemaVersion])
  return found.rows[0]?.table == null ? undefined : installedVersion(client, tables)
}

function newerSchema(tables: Tables, version: number | undefined): KernelError {
  return new KernelError(
    `PostgreSQL schema ${tables.schema} is at version ${version}, which this @harness-kernel/store-postgres (version ${SCHEMA_VERSION}) does not know: use a store as new as the one that wrote it`,
  )
}

function createStatements(t: Tables): string[] {
  return [
    `CREATE SCHEMA IF NOT EXISTS ${t.schema}`,
    `CREATE TABLE IF NOT EXISTS ${t.schemaVersion} (
      only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
      version integer NOT NULL,
      installed_at timestamptz NOT NULL DEFAULT now()
    )`,
    // Times are the log's own ISO strings (created_at from session/start, updated_at from the last event), as the
    // summaries of the JSONL store give them. log_created_at: when `create` or `fork` made the log; a row without it
    // was only made by a lock, and its session does not exist.
    `CREATE TABLE IF NOT EXISTS ${t.threads} (
      id text PRIMARY KEY,
      log_created_at timestamptz,
      created_at text,
      updated_at text,
      cwd text,
      name text,
      archived boolean NOT NULL DEFAULT false,
      forked_from text,
      parent jsonb,
      first_prompt text,
      turns integer NOT NULL DEFAULT 0,
      ended boolean NOT NULL DEFAULT false,
      last_seq bigint NOT NULL DEFAULT 0,
      epoch bigint NOT NULL DEFAULT 0,
      holder jsonb,
      lease_until timestamptz
    )`,
    `CREATE TABLE IF NOT EXISTS ${t.events} (
      thread_id text NOT NULL REFERENCES ${t.threads} (id) ON DELETE CASCADE,
      seq bigint NOT NULL,
      epoch bigint NOT NULL,
      body jsonb NOT NULL,
      PRIMARY KEY (thread_id, seq)
    )`,
    `CREATE TABLE IF NOT EXISTS ${t.processes} (
      thread_id text NOT NULL REFERENCES ${t.threads} (id) ON DELETE CASCADE,
      pgid integer NOT NULL,
      host text NOT NULL,
      record jsonb NOT NULL,
      PRIMARY KEY (thread_id, host, pgid)
    )`,
    `CREATE TABLE IF NOT EXISTS ${t.inbox} (
      id text PRIMARY KEY,
      thread_id text NOT NULL,
      kind text NOT NULL,
      payload jsonb NOT NULL,
      state text NOT NULL DEFAULT 'pending',
      accepted_at timestamptz NOT NULL DEFAULT now(),
      accepted_by text,
      claimed_epoch bigint,
      settled_at timestamptz,
      settled_seq bigint
    )`,
    `CREATE INDEX IF NOT EXISTS inbox_thread_state ON ${t.inbox} (thread_id, state)`,
  ]
}

/**
 * What later versions add to the tables of version 1 (`createStatements`), each statement idempotent. Version 2: `n`,
 * the order rows were accepted in (adding it to an existing table numbers its rows and rewrites it, under the DDL's
 * lock); the partial index keeps the fleet's polls for open rows cheap however many settled rows the inbox keeps.
 * Version 3: `asks`; its partial index serves a front-end's look for the requests still to deliver or answer.
 */
function upgradeStatements(t: Tables): string[] {
  return [
    `ALTER TABLE ${t.inbox} ADD COLUMN IF NOT EXISTS n bigserial`,
    `ALTER TABLE ${t.inbox} ADD COLUMN IF NOT EXISTS claimed_by text`,
    `CREATE INDEX IF NOT EXISTS inbox_open ON ${t.inbox} (thread_id, n) WHERE state IN ('pending', 'claimed')`,
    `CREATE TABLE IF NOT EXISTS ${t.asks} (
      id text PRIMARY KEY,
      thread_id text NOT NULL REFERENCES ${t.threads} (id) ON DELETE CASCADE,
      turn_id text NOT NULL,
      kind text NOT NULL,
      method text NOT NULL,
      params jsonb NOT NULL,
      asked_by text NOT NULL,
      to_instance text NOT NULL,
      to_connection text NOT NULL,
      state text NOT NULL DEFAULT 'pending',
      answer jsonb,
      asked_at timestamptz NOT NULL DEFAULT now(),
      ended_at timestamptz
    )`,
    `CREATE INDEX IF NOT EXISTS asks_open ON ${t.asks} (to_instance, asked_at) WHERE state IN ('pending', 'sent')`,
  ]
}
