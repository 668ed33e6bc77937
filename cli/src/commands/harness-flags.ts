import type { Command } from 'commander'
import type { GuardrailFlags } from '../guardrails/guardrails-setup.js'
import { MODEL_USAGE } from '../model-usage.js'
import { STORE_USAGE } from '../store-usage.js'

/** The flags every command that composes a harness takes (`run`, `app-server`). */
export interface HarnessOptions extends GuardrailFlags {
  model?: string
  /** `--driver NAME`: `native`, `claude-code` or `codex`. */
  driver?: string
  config?: string
  sessionsDir?: string
  /** `--store URL`: a session store in place of JSONL files (`postgres://…`). */
  store?: string
  cwd?: string
  codexHome?: string
  dangerouslyBypassHookTrust?: boolean
  /** `--no-codex-hooks` sets it to false. */
  codexHooks?: boolean
  claudeConfigDir?: string
  /** `--no-claude-code-hooks` sets it to false. */
  claudeCodeHooks?: boolean
  /** `--permission-mode MODE`: Claude Code's permission mode. */
  permissionMode?: string
  /** `--add-dir DIR`: working directories for Claude Code's permissions besides the cwd (repeatable). */
  addDir?: string[]
}

export function withHarnessOptions(command: Command): Command {
  return command
    .option(
      '--model <spec>',
      `the model: ${MODEL_USAGE.replace('--model ', '')} (default: the config's, else HARNESS_MODEL); with --driver claude-code, a Claude model name such as claude-sonnet-4-5 (default: the config's, else Claude Code's own); with --driver codex, openai:MODEL or MODEL, Codex's model (default: the config's, else Codex's own)`,
    )
    .option(
      '--driver <name>',
      "what runs each turn: native (the kernel's own loop), claude-code (Claude Code through the Agent SDK, with its own model) or codex (Codex through codex app-server, with its own model from OPENAI_BASE_URL and OPENAI_API_KEY); default: the config's, else native",
    )
    .option('--config <file>', 'a config file (default: harness.config.{mjs,js,ts,mts} in the working directory)')
    .option('--sessions-dir <dir>', 'where session logs go (default: .harness/sessions)')
    .option('--store <url>', `where sessions are kept instead: ${STORE_USAGE} (default: HARNESS_STORE)`)
    .option('--cwd <dir>', 'the working directory (default: the current one)')
    .option('--codex-home <dir>', "where the user's Codex hooks and trust state are (default: $CODEX_HOME, else ~/.codex)")
    .option('--dangerously-bypass-hook-trust', 'run Codex hooks without trust checks (hooks with enabled = false still do not run)')
    .option('--no-codex-hooks', "do not run the user's Codex hooks")
    .option('--claude-config-dir <dir>', "where the user's Claude Code settings are (default: $CLAUDE_CONFIG_DIR, else ~/.claude)")
    .option('--no-claude-code-hooks', "do not run the user's Claude Code hooks (nor apply its permission rules)")
    .option(
      '--permission-mode <mode>',
      "Claude Code's permission mode: default, acceptEdits, plan, auto, dontAsk or bypassPermissions (default: the settings' permissions.defaultMode, else none: only the rules apply beside --ask-for-approval)",
    )
    .option(
      '--add-dir <dir>',
      "a working directory for Claude Code's permissions besides the cwd, as claude --add-dir (repeatable)",
      collect,
      [],
    )
    .option(
      '-s, --sandbox <mode>',
      "where the tools' commands and file writes run: read-only, workspace-write or danger-full-access (default: Codex's config, else workspace-write with the network off)",
    )
    .option(
      '-a, --ask-for-approval <policy>',
      "when to ask before a command runs: untrusted, on-request, never (default: Codex's config, else on-request)",
    )
    .option(
      '--dangerously-bypass-approvals-and-sandbox',
      'run every command without a sandbox and without asking (danger-full-access, never): only where the machine itself is the sandbox',
    )
    .option('-c, --codex-config <key=value>', "override a key of Codex's config.toml, as codex -c does (repeatable)", collect, [])
    .option('-p, --profile <name>', "Codex's config profile: the layer <codex home>/<name>.config.toml, as codex --profile")
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value]
}
