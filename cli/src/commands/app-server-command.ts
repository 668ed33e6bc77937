import type { Command } from 'commander'
import type { CliIo } from '../io.js'
import type { AppServerCommandOptions } from './app-server.js'
import { withHarnessOptions } from './harness-flags.js'

/** `harness app-server`; the server and what composes its harness load when the command runs. */
export function addAppServerCommand(parent: Command, io: CliIo, exit: (code: number) => void): Command {
  return withHarnessOptions(
    parent
      .command('app-server')
      .description('serve the Codex App Server v2 protocol (JSON-RPC, one JSON object per line) on stdin/stdout; logs go to stderr'),
  )
    .option('--host-input-timeout <ms>', 'host-input timeout when a client asks for none (1000-600000; default 30000)')
    .option('--steer-on-turn-end <mode>', 'a steer a completed turn did not record: drop (report turn/steer/dropped, default) or nextTurn')
    .action(async (options: AppServerCommandOptions) => {
      const { appServer } = await import('./app-server.js')
      exit(await appServer(options, io))
    })
}
