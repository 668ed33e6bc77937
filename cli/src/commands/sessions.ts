import { resolve } from 'node:path'
import type { SessionStore } from '@harness-kernel/kernel'
import { createHarness } from '../create-harness.js'
import { EXIT } from '../exit-codes.js'
import { type CliIo, writeJson } from '../io.js'
import { renderSessionLog } from '../render/session-log.js'
import { renderSessionTable } from '../render/session-table.js'
import { sessionTimeline } from '../render/timeline.js'
import { renderTimeline } from '../render/timeline-text.js'
import { resolveSessionId } from '../session-id.js'
import { colorEnabled, createStyle } from '../style.js'
import { reapSessions } from './sessions-reap.js'

export interface SessionsOptions {
  sessionsDir?: string
  store?: string
  config?: string
  cwd?: string
  json?: boolean
  timeline?: boolean
}

export async function listSessions(options: SessionsOptions, io: CliIo): Promise<number> {
  return withStore(options, io, async (store, sessionsDir) => {
    const summaries = await store.list()
    if (options.json) writeJson(io.stdout, summaries)
    else if (summaries.length === 0) io.stdout.write(`no sessions in ${sessionsDir}\n`)
    else io.stdout.write(`${renderSessionTable(summaries)}\n`)
    return EXIT.ok
  })
}

export async function showSession(given: string, options: SessionsOptions, io: CliIo): Promise<number> {
  return withStore(options, io, async (store, sessionsDir) => {
    const id = await resolveSessionId(store, given, sessionsDir)
    const loaded = await store.load(id)
    if (options.timeline) {
      const turns = sessionTimeline(loaded.events)
      if (options.json) writeJson(io.stdout, turns)
      else io.stdout.write(`${renderTimeline(id, turns, createStyle(colorEnabled(io.stdout, io.env)))}\n`)
      return EXIT.ok
    }
    if (options.json) writeJson(io.stdout, loaded.events)
    else io.stdout.write(`${renderSessionLog(loaded, store.pathFor(id), createStyle(colorEnabled(io.stdout, io.env)))}\n`)
    return EXIT.ok
  })
}

/** `harness sessions reap [id]`, through the composed kernel's store (see `reapSessions`). */
export async function reap(given: string | undefined, options: SessionsOptions, io: CliIo): Promise<number> {
  return withStore(options, io, (store, sessionsDir) => reapSessions(given, options, io, store, sessionsDir))
}

/** Reads through the composed kernel's `sessionStore`, so a config that provides its own store is honoured. */
async function withStore(
  options: SessionsOptions,
  io: CliIo,
  use: (store: SessionStore, sessionsDir: string) => Promise<number>,
): Promise<number> {
  const { kernel, sessionsAt } = await createHarness({
    cwd: resolve(io.cwd, options.cwd ?? '.'),
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.sessionsDir === undefined ? {} : { sessionsDir: options.sessionsDir }),
    ...(options.store === undefined ? {} : { store: options.store }),
    env: io.env,
    requireModel: false,
  })
  try {
    return await use(kernel.resolve('sessionStore'), sessionsAt)
  } finally {
    await kernel.dispose()
  }
}
