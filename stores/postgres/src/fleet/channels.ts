/** PostgreSQL's longest identifier, in bytes: a longer channel name is an error for `pg_notify`, cut short by `LISTEN`. */
const MAX_IDENTIFIER_BYTES = 63

/**
 * The `NOTIFY` channel of a schema's inbox: `<schema>_inbox`, cut to 63 characters (schema names are ASCII) so that
 * `pg_notify` and `LISTEN` name the same channel. Two schemas alike in their first 57 characters share it: a spurious
 * wake, never a missed one.
 */
export function inboxChannel(schema: string): string {
  return `${schema}_inbox`.slice(0, MAX_IDENTIFIER_BYTES)
}

/**
 * The `NOTIFY` channel of a schema's relayed requests: `<schema>_asks`, cut to 63 characters as `inboxChannel` is.
 * Each notification names the instance it is for, so schemas sharing the channel only hear each other's.
 */
export function asksChannel(schema: string): string {
  return `${schema}_asks`.slice(0, MAX_IDENTIFIER_BYTES)
}
