import { readFileSync } from 'node:fs'
import { Command } from 'commander'
import { addAppServerCommand } from './commands/app-server-command.js'
import { addHooksCommand } from './commands/hooks-command.js'
import { addRunCommand } from './commands/run-command.js'
import { addSessionsCommand } from './commands/sessions-command.js'
import type { CliIo } from './io.js'

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }

/** The `harness` program. Actions report their exit code through `exit`; commander errors are thrown (exitOverride). */
export function buildProgram(io: CliIo, exit: (code: number) => void): Command {
  const program = new Command('harness')
    .description(
      "Run a coding-agent harness composed of kernel plugins (on the kernel's own loop, inside Claude Code or inside Codex), inspect its sessions, manage and try out the user's Codex and Claude Code hooks, and serve the App Server protocol.",
    )
    .version(version)
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .showHelpAfterError('(run with --help for usage)')
  addRunCommand(program, io, exit)
  addSessionsCommand(program, io, exit)
  addHooksCommand(program, io, exit)
  addAppServerCommand(program, io, exit)
  return program
}
