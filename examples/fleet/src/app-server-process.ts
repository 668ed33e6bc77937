import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export interface AppServerProcess {
  readonly name: string
  /** The `ws://` address it listens on. */
  readonly url: string
  readonly child: ChildProcess
  stop(): Promise<void>
}

/** `harness` itself: the CLI package's `dist/bin.js`, found through the package's own export. */
function harnessBin(): string {
  return fileURLToPath(new URL('bin.js', import.meta.resolve('@harness-kernel/cli')))
}

/**
 * Starts `harness app-server --listen ws://127.0.0.1:0 --store <url>` with its own HARNESS_HOME and CODEX_HOME under
 * `root` (no user config, offline), and resolves with the address its banner prints.
 */
export function startAppServer(options: {
  name: string
  root: string
  workspace: string
  store: string
  script: string
}): Promise<AppServerProcess> {
  const home = join(options.root, options.name)
  mkdirSync(join(home, 'codex'), { recursive: true })
  const args = [harnessBin(), 'app-server', '--listen', 'ws://127.0.0.1:0', '--model', `scripted:${options.script}`]
  const child = spawn(process.execPath, args, {
    cwd: options.workspace,
    // The store's URL (with its password) goes in the environment, not on the command line others can read.
    env: { ...process.env, HARNESS_STORE: options.store, HARNESS_HOME: home, CODEX_HOME: join(home, 'codex') },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return new Promise((resolve, reject) => {
    let stderr = ''
    child.stderr!.setEncoding('utf8')
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk
      const url = /listening on: (ws:\/\/\S+)/.exec(stderr)?.[1]
      if (url)
        resolve({
          name: options.name,
          url,
          child,
          stop: async () => {
            child.kill('SIGTERM')
            await exited
          },
        })
    })
    child.once('exit', (code) => reject(new Error(`${options.name} exited (${code}) before listening:\n${stderr}`)))
  })
}
