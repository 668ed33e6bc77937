import { KernelError } from '@harness-kernel/kernel'
import { CommanderError } from 'commander'
import { CliError } from './cli-error.js'
import { EXIT } from './exit-codes.js'
import { type CliIo, processIo } from './io.js'
import { buildProgram } from './program.js'

/** Runs the `harness` command with `args` (without node and the script) and resolves to its exit code. */
export async function runCli(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  let code: number = EXIT.ok
  const program = buildProgram(io, (exitCode) => {
    code = exitCode
  })
  try {
    await program.parseAsync([...args], { from: 'user' })
    return code
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has printed the message already.
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? EXIT.ok : EXIT.usage
    }
    const usage = error instanceof CliError || error instanceof KernelError
    const message = error instanceof Error ? error.message : String(error)
    io.stderr.write(`harness: ${message}\n`)
    if (!usage && io.env.HARNESS_LOG === 'debug' && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`)
    return error instanceof CliError ? error.exitCode : usage ? EXIT.usage : EXIT.failed
  }
}
