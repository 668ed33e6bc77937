import { resolve } from 'node:path'
import { type ClaudeCodeHooksOptions, checkPermissionMode, type PermissionMode } from '@harness-kernel/claude-code'
import { type Budgets, errorMessage, type Kernel, type Plugin } from '@harness-kernel/kernel'
import { CliError } from '../cli-error.js'
import { BYPASS_HOOK_TRUST_WARNING } from '../codex/codex-setup.js'
import { createHarness } from '../create-harness.js'
import { parseDriverName } from '../driver-spec.js'
import { type GuardrailsSetup, guardrailsSetup } from '../guardrails/guardrails-setup.js'
import type { CliIo } from '../io.js'
import type { HarnessOptions } from './harness-flags.js'

/** The `claudeCodeHooks()` options the Claude Code flags give, or false with `--no-claude-code-hooks`. */
function claudeCodeFlags(options: HarnessOptions, cwd: string): ClaudeCodeHooksOptions | false {
  const addDirs = options.addDir ?? []
  if (options.claudeCodeHooks === false) {
    const flag = options.permissionMode !== undefined ? '--permission-mode' : addDirs.length > 0 ? '--add-dir' : undefined
    if (flag !== undefined) throw new CliError(`${flag} cannot be used with --no-claude-code-hooks (the Claude Code dialect applies it)`)
    return false
  }
  let permissionMode: PermissionMode | undefined
  if (options.permissionMode !== undefined) {
    try {
      permissionMode = checkPermissionMode(options.permissionMode, '--permission-mode')
    } catch (error) {
      throw new CliError(errorMessage(error), { cause: error })
    }
  }
  return {
    ...(options.claudeConfigDir === undefined ? {} : { configDir: options.claudeConfigDir }),
    ...(permissionMode === undefined ? {} : { permissionMode }),
    ...(addDirs.length === 0 ? {} : { additionalDirectories: addDirs.map((dir) => resolve(cwd, dir)) }),
  }
}

/** Checks `--driver` before anything else runs (a prompt is read, a kernel composed): an unknown name exits 2. */
export function checkDriverFlag(options: HarnessOptions): void {
  if (options.driver !== undefined) parseDriverName(options.driver)
}

/** Composes the harness the flags describe, with `plugins` added (a progress reporter, a transport's bridge). */
export async function harnessFromOptions(
  options: HarnessOptions,
  io: CliIo,
  cwd: string,
  plugins: Plugin[],
  /** The budget flags (`harness run`, `harness app-server`): limits over the config's. */
  extra: { budgets?: Budgets | undefined } = {},
): Promise<{ kernel: Kernel; guardrails: GuardrailsSetup; sessionsAt: string }> {
  const codexFlags = options.codexConfig ?? []
  const claudeCode = claudeCodeFlags(options, cwd)
  const guardrails = guardrailsSetup({
    flags: options,
    cwd,
    codexHome: options.codexHome === undefined ? undefined : resolve(cwd, options.codexHome),
    env: io.env,
    readCodexConfig: options.codexHooks !== false,
  })
  for (const warning of guardrails.warnings) io.stderr.write(`harness: warning: Codex configuration: ${warning}\n`)
  const { kernel, sessionsAt } = await createHarness({
    cwd,
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.driver === undefined ? {} : { driver: parseDriverName(options.driver) }),
    ...(options.sessionsDir === undefined ? {} : { sessionsDir: options.sessionsDir }),
    ...(options.store === undefined ? {} : { store: options.store }),
    env: io.env,
    codex:
      options.codexHooks === false
        ? false
        : {
            ...(options.codexHome === undefined ? {} : { codexHome: options.codexHome }),
            ...(options.dangerouslyBypassHookTrust ? { trust: 'all' as const } : {}),
            ...(codexFlags.length === 0 ? {} : { sessionFlags: codexFlags }),
          },
    claudeCode,
    ...(guardrails.plugin === undefined ? {} : { guardrails: guardrails.plugin }),
    ...(extra.budgets === undefined ? {} : { budgets: extra.budgets }),
    plugins,
  })
  if (options.dangerouslyBypassHookTrust && options.codexHooks !== false)
    io.stderr.write(`harness: warning: ${BYPASS_HOOK_TRUST_WARNING}\n`)
  return { kernel, guardrails, sessionsAt }
}
