import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/** Where the harness keeps its own Codex trust decisions: `$HARNESS_HOME/trust/codex.json` (`~/.harness` by default). */
export function defaultHarnessTrustPath(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HARNESS_HOME || join(env.HOME || homedir(), '.harness')
  return join(resolve(home), 'trust', 'codex.json')
}
