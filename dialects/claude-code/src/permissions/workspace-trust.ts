import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * Whether the user accepted Claude Code's trust dialog for a project: `projects[<dir>].hasTrustDialogAccepted` in
 * `.claude.json`, which lives in `$CLAUDE_CONFIG_DIR` when that is set, else in the home directory. Unreadable: untrusted.
 */
export function workspaceTrust(options: { projectDir: string; configDir: string | undefined; env: NodeJS.ProcessEnv }): {
  trusted: boolean
  trustFile: string
} {
  const dir = options.configDir ?? options.env.CLAUDE_CONFIG_DIR ?? options.env.HOME ?? homedir()
  const trustFile = join(dir, '.claude.json')
  try {
    const parsed = JSON.parse(readFileSync(trustFile, 'utf8')) as { projects?: Record<string, { hasTrustDialogAccepted?: unknown }> }
    return { trusted: parsed.projects?.[options.projectDir]?.hasTrustDialogAccepted === true, trustFile }
  } catch {
    return { trusted: false, trustFile }
  }
}
