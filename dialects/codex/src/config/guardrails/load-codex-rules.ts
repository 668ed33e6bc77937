import { readdirSync } from 'node:fs'
import { extname, join } from 'node:path'
import type { CommandRule } from '@harness-kernel/kernel'
import { CodexGuardrailsConfigError } from './codex-guardrails-config-error.js'
import { type ParsedRules, readRulesFile } from './rules-file.js'

export interface LoadCodexRulesOptions {
  codexHome: string
  /** The `.codex/` folders of the trusted project layers, project root first (an untrusted one is not read). */
  projectDotCodexDirs?: readonly string[]
}

/**
 * Codex's exec-policy rules (core `exec_policy.rs`, `load_exec_policy`): the `*.rules` files of `<codexHome>/rules/`
 * then of each trusted project's `.codex/rules/`, lowest precedence first, each folder's files sorted by name (bytes).
 * Only regular files count (a symlink is skipped, as Codex's `file_type().is_file()` does); a missing folder is none.
 *
 * Codex 0.169.0 meets a bad rules file by dropping every rule and starting anyway (observed: no rule in the prompt,
 * no warning). The harness refuses instead (a `CodexRulesError` naming the file), so a `forbidden` rule cannot vanish.
 */
export function loadCodexRules(options: LoadCodexRulesOptions): CommandRule[] {
  return loadCodexExecPolicy(options).rules
}

/**
 * `loadCodexRules` with the `host_executable` entries too (name → the absolute paths allowed to match that name's
 * rules when a command starts with an absolute path, as Codex matches with `resolve_host_executables`).
 */
export function loadCodexExecPolicy(options: LoadCodexRulesOptions): ParsedRules {
  const dirs = [options.codexHome, ...(options.projectDotCodexDirs ?? [])].map((dir) => join(dir, 'rules'))
  const rules: CommandRule[] = []
  let hostExecutables = new Map<string, string[]>()
  // With `--profile`, Codex has two layers in `codexHome` and reads its rules twice; once is the same policy.
  for (const dir of [...new Set(dirs)]) {
    for (const path of rulesFilesIn(dir)) {
      const parsed = readRulesFile({ path, hostExecutables })
      rules.push(...parsed.rules)
      hostExecutables = parsed.hostExecutables
    }
  }
  return { rules, hostExecutables }
}

function rulesFilesIn(dir: string): string[] {
  let entries: import('node:fs').Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw new CodexGuardrailsConfigError(`failed to read rules files from ${dir}: ${(err as Error).message}`, dir)
  }
  return entries
    .filter((entry) => entry.isFile() && extname(entry.name) === '.rules')
    .map((entry) => entry.name)
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
    .map((name) => join(dir, name))
}
