import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { type ConnectionHandlers, JsonRpcConnection } from './json-rpc-connection.js'
import { StderrTail } from './tail-buffer.js'

export interface AppServerLaunch {
  executable: string
  cwd: string
  env: Record<string, string>
  handlers: ConnectionHandlers
  /** Called once, when the process is gone (or never started), with why. */
  exited(reason: string): void
  timeoutMs: number
}

const CLIENT_INFO = { name: 'harness-kernel', title: 'harness-kernel', version: '0.1.0' }

/** One `codex app-server` process and its connection, initialized with the experimental API (dynamic tools). */
export class AppServerProcess {
  readonly connection: JsonRpcConnection
  readonly #child: ChildProcessWithoutNullStreams
  readonly #exit: Promise<void>

  private constructor(child: ChildProcessWithoutNullStreams, connection: JsonRpcConnection, exit: Promise<void>) {
    this.#child = child
    this.connection = connection
    this.#exit = exit
  }

  static async start(launch: AppServerLaunch): Promise<AppServerProcess> {
    const stderr = new StderrTail()
    const child = spawn(launch.executable, ['app-server'], { cwd: launch.cwd, env: launch.env, stdio: ['pipe', 'pipe', 'pipe'] })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.write(chunk))
    const connection = new JsonRpcConnection(child.stdout, child.stdin, launch.handlers)
    const exit = new Promise<void>((resolve) => {
      let done = false
      const gone = (reason: string) => {
        if (done) return
        done = true
        const tail = stderr.toString()
        const full = tail ? `${reason}; its stderr ends: ${tail}` : reason
        connection.close(full)
        launch.exited(full)
        resolve()
      }
      child.once('error', (error) => gone(`codex app-server could not start (${launch.executable}): ${error.message}`))
      child.once('close', (code, signal) => gone(`codex app-server exited (${signal ? `signal ${signal}` : `code ${code}`})`))
    })
    const server = new AppServerProcess(child, connection, exit)
    try {
      await connection.request('initialize', { clientInfo: CLIENT_INFO, capabilities: { experimentalApi: true } }, launch.timeoutMs)
    } catch (error) {
      await server.close()
      throw error
    }
    connection.notify('initialized')
    return server
  }

  get pid(): number | undefined {
    return this.#child.pid
  }

  /** Ends its input (the app server exits on EOF), then kills it if it lingers. Idempotent. */
  async close(graceMs = 5_000): Promise<void> {
    this.#child.stdin.end()
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), graceMs)
    await this.#exit
    clearTimeout(timer)
  }
}
