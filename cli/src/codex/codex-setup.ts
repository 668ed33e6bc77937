import { resolve } from 'node:path'
import {
  type CodexHooksOptions,
  defaultHarnessTrustPath,
  type LoadedCodexHooks,
  loadCodexHooks,
  resolveCodexHome,
} from '@harness-kernel/codex'
import { JsonFileTrustStore } from '@harness-kernel/hook-protocol'
import { errorMessage } from '@harness-kernel/kernel'
import { CliError } from '../cli-error.js'

/** Codex's warning for the trust bypass; printed once per invocation that uses it. */
export const BYPASS_HOOK_TRUST_WARNING = '`--dangerously-bypass-hook-trust` is enabled: hooks will run without trust checks'

export interface CodexSetup {
  /** The harness's working directory: where project `.codex/` layers are discovered from. */
  cwd: string
  /** The Codex home in effect, canonicalized as Codex does: `--codex-home`, else `$CODEX_HOME`, else `~/.codex`. */
  codexHome: string
  /** The harness's own trust store for Codex hooks: `$HARNESS_HOME/trust/codex.json`. */
  trustStore: JsonFileTrustStore
}

/** Where the Codex hooks of one invocation come from. A relative `codexHome` resolves against `cwd`. */
export function codexSetup(cwd: string, codexHome: string | undefined, env: Record<string, string | undefined>): CodexSetup {
  return {
    cwd,
    codexHome: resolveCodexHome(codexHome === undefined ? undefined : resolve(cwd, codexHome), env),
    trustStore: new JsonFileTrustStore(defaultHarnessTrustPath(env), 'codex'),
  }
}

/** Every Codex handler the harness would load in `setup.cwd`, with its trust status and Codex's load warnings. */
export function loadHooks(setup: CodexSetup, env: Record<string, string | undefined>): LoadedCodexHooks {
  try {
    return loadCodexHooks({ cwd: setup.cwd, codexHome: setup.codexHome, env, trustStore: setup.trustStore })
  } catch (error) {
    throw new CliError(`cannot load the Codex hooks: ${errorMessage(error)}`, { cause: error })
  }
}

/**
 * `codexHooks()` options for the default harness: the Codex home and the harness trust store are resolved here,
 * from `env` and against `cwd`, instead of from the process's environment when a session starts.
 */
export function defaultCodexHooksOptions(
  cwd: string,
  env: Record<string, string | undefined>,
  options: CodexHooksOptions,
): CodexHooksOptions {
  const setup = codexSetup(cwd, options.codexHome, env)
  return {
    ...options,
    codexHome: setup.codexHome,
    trustStore: options.trustStore ?? setup.trustStore,
    ...(options.managedRequirementsPath === undefined ? {} : { managedRequirementsPath: resolve(cwd, options.managedRequirementsPath) }),
  }
}
