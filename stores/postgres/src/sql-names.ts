import { KernelError } from '@harness-kernel/kernel'

/** A schema name the store accepts: an unquoted PostgreSQL identifier, so it reads the same in psql. */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/

/** The store's tables, quoted and qualified by its schema, for SQL text. */
export interface Tables {
  readonly schema: string
  readonly schemaVersion: string
  readonly threads: string
  readonly events: string
  readonly processes: string
  readonly inbox: string
  readonly asks: string
}

export function tablesIn(schema: string): Tables {
  if (!SCHEMA_NAME.test(schema))
    throw new KernelError(`invalid PostgreSQL schema name "${schema}": use letters, digits and '_' (not starting with a digit)`)
  const quoted = `"${schema}"`
  return {
    schema: quoted,
    schemaVersion: `${quoted}.schema_version`,
    threads: `${quoted}.threads`,
    events: `${quoted}.events`,
    processes: `${quoted}.processes`,
    inbox: `${quoted}.inbox`,
    asks: `${quoted}.asks`,
  }
}
