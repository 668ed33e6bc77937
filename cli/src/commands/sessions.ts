import { resolve } from 'node:path'
import type { SessionStore } from '@harness-kernel/kernel'
import type { Command } from 'commander'
import { createHarness } from '../create-harness.js'
import { EXIT } from '../exit-codes.js'
import { type CliIo, writeJson } from '../io.js'
import { renderSessionLog } from '../render/session-log.js'
import { renderSessionTable } from '../render/session-table.js'
import { resolveSessionId } from '../session-id.js'
import { colorEnabled, createStyle } from '../style.js'
import { reapSessions } from './sessions-reap.js'

export interface SessionsOptions {
  sessionsDir?: string
  config?: string
  cwd?: string
  json?: boolean
}

export function addSessionsCommand(parent: Command, io: CliIo, exit: (code: number) => void): Command {
  const sessions = parent.command('sessions').description('list and show session logs, and reap what crashed kernels left running')
  const withCommonOptions = (command: Command) =>
    command
      .option('--sessions-dir <dir>', "where session logs are (default: the config's, else .harness/sessions)")
      .option('--config <file>', 'a config file (default: harness.config.{mjs,js,ts,mts} in the working directory)')
      .option('--cwd <dir>', 'the working directory (default: the current one)')
  withCommonOptions(sessions.command('list').description('list sessions, oldest first'))
    .option('--json', 'print the session summaries as a JSON array')
    .action(async (options: SessionsOptions) => exit(await listSessions(options, io)))
  withCommonOptions(sessions.command('show').description("print a session's log"))
    .argument('<id>', 'the session id, or a prefix of it that names one session')
    .option('--json', 'print the raw events as a JSON array')
    .action(async (id: string, options: SessionsOptions) => exit(await showSession(id, options, io)))
  withCommonOptions(
    sessions
      .command('reap')
      .description(
        'kill the processes a crashed kernel left running (every session no live process holds, or one); a resume does the same',
      ),
  )
    .argument('[id]', 'the session id, or a prefix of it that names one session')
    .option('--json', 'print what became of each process group as JSON')
    .action(async (id: string | undefined, options: SessionsOptions) =>
      exit(await withStore(options, io, (store, sessionsDir) => reapSessions(id, options, io, store, sessionsDir))),
    )
  return sessions
}

export async function listSessions(options: SessionsOptions, io: CliIo): Promise<number> {
  return withStore(options, io, (store, sessionsDir) => {
    const summaries = store.list()
    if (options.json) writeJson(io.stdout, summaries)
    else if (summaries.length === 0) io.stdout.write(`no sessions in ${sessionsDir}\n`)
    else io.stdout.write(`${renderSessionTable(summaries)}\n`)
    return EXIT.ok
  })
}

export async function showSession(given: string, options: SessionsOptions, io: CliIo): Promise<number> {
  return withStore(options, io, (store, sessionsDir) => {
    const id = resolveSessionId(store, given, sessionsDir)
    const loaded = store.load(id)
    if (options.json) writeJson(io.stdout, loaded.events)
    else io.stdout.write(`${renderSessionLog(loaded, store.pathFor(id), createStyle(colorEnabled(io.stdout, io.env)))}\n`)
    return EXIT.ok
  })
}

/** Reads through the composed kernel's `sessionStore`, so a config that provides its own store is honoured. */
async function withStore(
  options: SessionsOptions,
  io: CliIo,
  use: (store: SessionStore, sessionsDir: string) => number | Promise<number>,
): Promise<number> {
  const { kernel, sessionsDir } = await createHarness({
    cwd: resolve(io.cwd, options.cwd ?? '.'),
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.sessionsDir === undefined ? {} : { sessionsDir: options.sessionsDir }),
    env: io.env,
    requireModel: false,
  })
  try {
    return await use(kernel.resolve('sessionStore'), sessionsDir)
  } finally {
    await kernel.dispose()
  }
}
