import type { Command } from 'commander'
import type { CliIo } from '../io.js'
import { withBudgetOptions } from './budget-flags.js'
import { withHarnessOptions } from './harness-flags.js'
import type { RunOptions } from './run.js'

/** `harness run`; what runs the turn loads when the command runs, not when the program is built. */
export function addRunCommand(parent: Command, io: CliIo, exit: (code: number) => void): Command {
  return withBudgetOptions(
    withHarnessOptions(
      parent
        .command('run')
        .description('run one turn: a new session, or the next turn of a resumed one')
        .argument('[prompt]', 'the prompt; "-" or none reads it from stdin'),
    ),
  )
    .option('--json', 'print one JSON object { sessionId, transcriptPath, turn } on stdout')
    .option('--resume <id>', 'resume this session (its id, or a prefix of it that names one session) and run the prompt as its next turn')
    .action(async (prompt: string | undefined, options: RunOptions) => {
      const { run } = await import('./run.js')
      exit(await run(prompt, options, io))
    })
}
