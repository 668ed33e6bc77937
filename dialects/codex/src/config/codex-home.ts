import { realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/** `$CODEX_HOME`, else `~/.codex`; canonicalized as Codex does, so keys name the real path. */
export function resolveCodexHome(codexHome: string | undefined, env: NodeJS.ProcessEnv): string {
  const path = resolve(codexHome ?? (env.CODEX_HOME || join(env.HOME || homedir(), '.codex')))
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}
