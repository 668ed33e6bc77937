import { existsSync } from 'node:fs'
import type { SessionStore } from '@harness-kernel/kernel'
import { CliError } from './cli-error.js'
import { renderSessionTable } from './render/session-table.js'
import { indent } from './text.js'

/**
 * The session a user named: an exact id, else the one session whose id starts with `given`. No match, or more than
 * one, is a usage error (exit 2) that names the sessions folder, or lists the matches.
 */
export async function resolveSessionId(store: SessionStore, given: string, sessionsDir: string): Promise<string> {
  const prefix = given.trim()
  // A whole id whose log is there needs no listing (which reads every log of the folder).
  if (prefix !== '' && existsSync(store.pathFor(prefix))) return prefix
  const sessions = await store.list()
  if (prefix !== '' && sessions.some((session) => session.id === prefix)) return prefix
  const matches = prefix === '' ? [] : sessions.filter((session) => session.id.startsWith(prefix))
  if (matches.length === 1) return matches[0]!.id
  if (matches.length === 0) {
    throw new CliError(`no session ${given} in ${sessionsDir} (harness sessions list shows the sessions there)`)
  }
  throw new CliError(
    `the session id prefix ${given} matches ${matches.length} sessions in ${sessionsDir}; give more of the id:\n${indent(renderSessionTable(matches))}`,
  )
}
