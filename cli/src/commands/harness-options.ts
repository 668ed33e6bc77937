import type { Kernel, Plugin } from '@harness-kernel/kernel'
import type { Command } from 'commander'
import { BYPASS_HOOK_TRUST_WARNING } from '../codex/codex-setup.js'
import { createHarness } from '../create-harness.js'
import type { CliIo } from '../io.js'
import { MODEL_USAGE } from '../model-spec.js'

/** The flags every command that composes a harness takes (`run`, `app-server`). */
export interface HarnessOptions {
  model?: string
  config?: string
  sessionsDir?: string
  cwd?: string
  codexHome?: string
  dangerouslyBypassHookTrust?: boolean
}

export function withHarnessOptions(command: Command): Command {
  return command
    .option('--model <spec>', `the model: ${MODEL_USAGE.replace('--model ', '')} (default: the config's, else HARNESS_MODEL)`)
    .option('--config <file>', 'a config file (default: harness.config.{mjs,js,ts,mts} in the working directory)')
    .option('--sessions-dir <dir>', 'where session logs go (default: .harness/sessions)')
    .option('--cwd <dir>', 'the working directory (default: the current one)')
    .option('--codex-home <dir>', "where the user's Codex hooks and trust state are (default: $CODEX_HOME, else ~/.codex)")
    .option('--dangerously-bypass-hook-trust', 'run Codex hooks without trust checks (hooks with enabled = false still do not run)')
}

/** Composes the harness the flags describe, with `plugins` added (a progress reporter, a transport's bridge). */
export async function harnessFromOptions(options: HarnessOptions, io: CliIo, cwd: string, plugins: Plugin[]): Promise<Kernel> {
  const { kernel } = await createHarness({
    cwd,
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.sessionsDir === undefined ? {} : { sessionsDir: options.sessionsDir }),
    env: io.env,
    codex: {
      ...(options.codexHome === undefined ? {} : { codexHome: options.codexHome }),
      ...(options.dangerouslyBypassHookTrust ? { trust: 'all' as const } : {}),
    },
    plugins,
  })
  if (options.dangerouslyBypassHookTrust) io.stderr.write(`harness: warning: ${BYPASS_HOOK_TRUST_WARNING}\n`)
  return kernel
}
