import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/** `$CLAUDE_CONFIG_DIR`, else `~/.claude`: where the user settings (`settings.json`) and plugin data live. */
export function defaultClaudeConfigDir(env: NodeJS.ProcessEnv): string {
  return resolve(env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude'))
}
