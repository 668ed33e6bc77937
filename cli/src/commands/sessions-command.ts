import type { Command } from 'commander'
import type { CliIo } from '../io.js'
import { STORE_USAGE } from '../store-usage.js'
import type { SessionsOptions } from './sessions.js'

/** `harness sessions list|show|reap`; the store and the renderers load when a subcommand runs. */
export function addSessionsCommand(parent: Command, io: CliIo, exit: (code: number) => void): Command {
  const sessions = parent.command('sessions').description('list and show session logs, and reap what crashed kernels left running')
  const withCommonOptions = (command: Command) =>
    command
      .option('--sessions-dir <dir>', "where session logs are (default: the config's, else .harness/sessions)")
      .option('--store <url>', `where sessions are kept instead: ${STORE_USAGE} (default: HARNESS_STORE)`)
      .option('--config <file>', 'a config file (default: harness.config.{mjs,js,ts,mts} in the working directory)')
      .option('--cwd <dir>', 'the working directory (default: the current one)')
  withCommonOptions(sessions.command('list').description('list sessions, oldest first'))
    .option('--json', 'print the session summaries as a JSON array')
    .action(async (options: SessionsOptions) => {
      const { listSessions } = await import('./sessions.js')
      exit(await listSessions(options, io))
    })
  withCommonOptions(sessions.command('show').description("print a session's log"))
    .argument('<id>', 'the session id, or a prefix of it that names one session')
    .option('--json', 'print the raw events as a JSON array (with --timeline: its turns and rows)')
    .option('--timeline', 'print each turn as a waterfall: steps, tools, hooks, steers, with when they started and how long they took')
    .action(async (id: string, options: SessionsOptions) => {
      const { showSession } = await import('./sessions.js')
      exit(await showSession(id, options, io))
    })
  withCommonOptions(
    sessions
      .command('reap')
      .description(
        'kill the processes a crashed kernel left running (every session no live process holds, or one); a resume does the same',
      ),
  )
    .argument('[id]', 'the session id, or a prefix of it that names one session')
    .option('--json', 'print what became of each process group as JSON')
    .action(async (id: string | undefined, options: SessionsOptions) => {
      const { reap } = await import('./sessions.js')
      exit(await reap(id, options, io))
    })
  return sessions
}
