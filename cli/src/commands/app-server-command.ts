import { type Command, InvalidArgumentError, Option } from 'commander'
import type { CliIo } from '../io.js'
import type { AppServerCommandOptions } from './app-server.js'
import { withBudgetOptions } from './budget-flags.js'
import { withHarnessOptions } from './harness-flags.js'

/** `harness app-server`; the server and what composes its harness load when the command runs. */
export function addAppServerCommand(parent: Command, io: CliIo, exit: (code: number) => void): Command {
  const command = withHarnessOptions(
    parent
      .command('app-server')
      .description(
        'serve the Codex App Server v2 protocol (JSON-RPC): on stdin/stdout, one JSON object per line (the default), or to any number of clients on a WebSocket or unix socket listener, one message per text frame; logs go to stderr',
      ),
  )
    .addOption(
      new Option(
        '--listen <url>',
        'where to serve, as codex app-server --listen: stdio:// (the default), unix:// ($HARNESS_HOME/app-server-control/app-server-control.sock), unix://PATH, ws://IP:PORT (port 0: any free port; only loopback without --ws-auth) or off',
      ).argParser(once('--listen <url>')),
    )
    .addOption(new Option('--stdio', 'serve on stdin/stdout (the same as --listen stdio://)').conflicts('listen'))
    .addOption(
      new Option('--ws-auth <mode>', 'how WebSocket clients authenticate: a bearer token on the upgrade request').choices([
        'capability-token',
        'signed-bearer-token',
      ]),
    )
    .option('--ws-token-file <path>', 'the capability token: a file holding it (relative to the working directory)')
    .option('--ws-token-sha256 <hex>', "the capability token's SHA-256 digest, in hex")
    .option('--ws-shared-secret-file <path>', 'the shared secret (at least 32 bytes) that signs JWT bearer tokens (HS256)')
    .option('--ws-issuer <issuer>', 'the issuer (iss) signed JWT bearer tokens must have')
    .option('--ws-audience <audience>', 'the audience (aud) signed JWT bearer tokens must have')
    .addOption(
      new Option(
        '--ws-max-clock-skew-seconds <seconds>',
        'how far exp and nbf of signed JWT bearer tokens may be off (default: 30)',
      ).argParser(seconds),
    )
    .option('--host-input-timeout <ms>', 'host-input timeout when a client asks for none (1000-600000; default 30000)')
    .option('--steer-on-turn-end <mode>', 'a steer a completed turn did not record: drop (report turn/steer/dropped, default) or nextTurn')
  return withBudgetOptions(command).action(async (options: AppServerCommandOptions) => {
    const { appServer } = await import('./app-server.js')
    exit(await appServer(options, io))
  })
}

/** A flag given twice is refused, as clap refuses it in codex (commander would keep the last). */
function once(flag: string): (value: string, previous: string | undefined) => string {
  return (value, previous) => {
    if (previous !== undefined) throw new InvalidArgumentError(`the argument '${flag}' cannot be used multiple times`)
    return value
  }
}

function seconds(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('invalid digit found in string')
  return Number(value)
}
