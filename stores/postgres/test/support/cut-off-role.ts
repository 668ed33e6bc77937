import type { TestDatabase } from './test-database.js'

export interface CutOffRole {
  /** The server's address, logging in as the role. */
  readonly url: string
  /** Ends the role's sessions and refuses it new ones: a store connected as it is cut off the database. */
  cutOff(): Promise<void>
  letBack(): Promise<void>
}

let roles = 0

/**
 * A login role of its own for a store in `schema` (set up already), with the rights a store needs there: a test can
 * cut that store off the database, for as long as it likes, and let it back, as a network failure would.
 */
export async function cutOffRole(database: TestDatabase, schema: string): Promise<CutOffRole> {
  const role = `cut_off_${process.pid}_${++roles}`
  const password = 'role-pw-3c9d'
  await database.sql(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`)
  await database.sql(`GRANT USAGE ON SCHEMA "${schema}" TO ${role}`)
  await database.sql(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "${schema}" TO ${role}`)
  await database.sql(`GRANT USAGE ON ALL SEQUENCES IN SCHEMA "${schema}" TO ${role}`)
  const url = new URL(database.server.url)
  url.username = role
  url.password = password
  return {
    url: url.toString(),
    async cutOff() {
      await database.sql(`ALTER ROLE ${role} NOLOGIN`)
      await database.sql('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role])
    },
    async letBack() {
      await database.sql(`ALTER ROLE ${role} LOGIN`)
    },
  }
}
