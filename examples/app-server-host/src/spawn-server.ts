import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AppServerClient, type AppServerClientOptions } from '@harness-kernel/app-server'

export interface SpawnedServer {
  client: AppServerClient
  /** The temporary directory holding the workspace, CODEX_HOME and HARNESS_HOME. */
  root: string
  workspace: string
  /** The command line, for printing. */
  commandLine: string
  /** Removes the temporary directory. */
  cleanUp(): void
}

/** `harness` itself: the CLI package's `dist/bin.js`, found through the package's own export. */
export function harnessBin(): string {
  return fileURLToPath(new URL('bin.js', import.meta.resolve('@harness-kernel/cli')))
}

/**
 * Spawns `harness app-server --model scripted:<script>` in a fresh temporary workspace. CODEX_HOME and HARNESS_HOME
 * point into the same temporary directory, so the server reads no user config, hooks or trust state, and stays offline.
 */
export function spawnAppServer(script: string, options: AppServerClientOptions = {}): SpawnedServer {
  const root = mkdtempSync(join(tmpdir(), 'harness-app-server-host-'))
  const workspace = join(root, 'workspace')
  const codexHome = join(root, 'codex-home')
  const harnessHome = join(root, 'harness-home')
  for (const dir of [workspace, codexHome, harnessHome]) mkdirSync(dir, { recursive: true })
  const args = [harnessBin(), 'app-server', '--model', `scripted:${script}`]
  const client = AppServerClient.spawn(process.execPath, args, {
    ...options,
    cwd: workspace,
    env: { ...process.env, CODEX_HOME: codexHome, HARNESS_HOME: harnessHome },
    stderr: 'pipe',
  })
  return {
    client,
    root,
    workspace,
    commandLine: `node ${args.map((arg) => (arg.includes(' ') ? JSON.stringify(arg) : arg)).join(' ')}`,
    cleanUp: () => rmSync(root, { recursive: true, force: true }),
  }
}
