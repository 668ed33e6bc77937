import { defaultManagedSettingsPath } from '@harness-kernel/claude-code'
import { CODEX_EVENTS } from '@harness-kernel/codex'
import type { Command } from 'commander'
import type { CliIo } from '../io.js'
import { MODEL_USAGE } from '../model-usage.js'
import { CLAUDE_EXEC_EVENTS, DIALECTS } from './hook-dialects.js'
import type { HooksExecOptions, HooksListOptions, HooksTrustOptions } from './hooks.js'

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value]

/** `harness hooks list|trust|exec`; the dialects' loaders, runners and renderers load when a subcommand runs. */
export function addHooksCommand(parent: Command, io: CliIo, exit: (code: number) => void): Command {
  const hooks = parent.command('hooks').description("list, trust and try out the user's Codex and Claude Code hooks")
  const withCodexOptions = (command: Command) =>
    command
      .option('--codex-home <dir>', 'the Codex home (default: $CODEX_HOME, else ~/.codex)')
      .option(
        '--cwd <dir>',
        "the working directory: the Claude Code project, where projects' .codex/ folders are found from (default: the current one)",
      )
  const withClaudeOptions = (command: Command) =>
    command
      .option(
        '--claude-config-dir <dir>',
        "Claude Code's config dir, with the user settings.json (default: $CLAUDE_CONFIG_DIR, else ~/.claude)",
      )
      .option('--settings <file-or-json>', 'Claude Code: another settings file, or inline JSON, as claude --settings (repeatable)', collect)
      .option('--plugin-dir <dir>', 'Claude Code: a plugin directory whose hooks/hooks.json loads (repeatable)', collect)
      .option('--managed-settings <file>', `Claude Code's managed settings (default: ${defaultManagedSettingsPath()})`)
  withClaudeOptions(
    withCodexOptions(
      hooks
        .command('list')
        .description(
          'list every hook handler: the Codex ones with their trust status, then the Claude Code ones with the sources read and the handlers dropped, with why; then the load warnings',
        ),
    ),
  )
    .option('--dialect <dialect>', `list one dialect only: ${DIALECTS.join(' or ')} (default: both)`)
    .option(
      '--json',
      'print JSON: with --dialect, that dialect\'s object ({ dialect: "codex", hooks, … } as before, or { dialect: "claude-code", hooks, dropped, sources, … }); else { dialects: [codex, claude-code] }',
    )
    .action(async (options: HooksListOptions) => {
      const { listHooks } = await import('./hooks.js')
      exit(await listHooks(options, io))
    })
  withCodexOptions(
    hooks
      .command('trust')
      .description(
        'trust Codex hooks at their current hash (by key, or --all), or with --project the project whose .codex/ hooks they are',
      ),
  )
    .argument('[keys...]', 'the keys of the hooks to trust (harness hooks list shows them)')
    .option('--all', 'trust every loaded hook')
    .option('--codex', "write $CODEX_HOME/config.toml, so Codex trusts them too (default: the harness's own trust store)")
    .option(
      '--project',
      'trust the project of the working directory as Codex does, so its .codex/ hooks load: [projects."<path>"] trust_level = "trusted" in $CODEX_HOME/config.toml (with --all, then trust every loaded hook)',
    )
    .action(async (keys: string[], options: HooksTrustOptions) => {
      const { trustHooks } = await import('./hooks.js')
      exit(await trustHooks(keys, options, io))
    })
  withClaudeOptions(
    withCodexOptions(hooks.command('exec').description("run one event's hooks on a payload and print the runs and the merged decision")),
  )
    .argument('<dialect>', `the hook dialect: ${DIALECTS.join(', ')}`)
    .argument('<event>', `the event; codex: ${CODEX_EVENTS.join(', ')}; claude-code: ${CLAUDE_EXEC_EVENTS.join(', ')}`)
    .requiredOption('--payload <file>', 'the JSON payload every handler gets on stdin, byte for byte ("-" reads stdin)')
    .option('--json', 'print one JSON object { dialect, event, subject, runs, skipped, merged, warnings, … }')
    .option('--dangerously-bypass-hook-trust', 'Codex: run untrusted hooks too (hooks with enabled = false still do not run)')
    .option(
      '--model <spec>',
      `Claude Code: the model prompt handlers ask (${MODEL_USAGE.replace('--model ', '')}; default: none, they fail)`,
    )
    .action(async (dialect: string, event: string, options: HooksExecOptions) => {
      const { execHooks } = await import('./hooks.js')
      exit(await execHooks(dialect, event, options, io))
    })
  return hooks
}
