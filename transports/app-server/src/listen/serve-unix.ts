import { chmodSync, mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { ConnectionHost } from './connection-host.js'
import { claimDaemonSocket } from './daemon-socket.js'
import { createWebSocketEndpoint } from './websocket-endpoint.js'
import type { WsAuth } from './ws-auth.js'

export interface UnixListenOptions {
  connections: ConnectionHost
  /** Where clients connect (made absolute against `cwd`). */
  path: string
  cwd?: string
  /** Create the socket's directory, private (the default control socket's `app-server-control/`, as Codex). */
  createDir?: boolean
  /** Where the real socket goes. Default `/tmp/harness-daemon-<uid>`. */
  daemonDir?: string
  /** Codex takes no token on its unix socket; with auth configured, ours asks for it there too. */
  auth?: WsAuth
  log?: (message: string) => void
}

export interface UnixListener {
  /** The symlink clients connect to. */
  readonly path: string
  /** The socket it points to. */
  readonly socketPath: string
  /** Stops listening, closes every client (1001 with `reason`) and removes the symlink, the socket and its lock. */
  close(reason?: string): Promise<void>
}

/**
 * Serves clients on a unix socket the way Codex 0.171.0 does (observed): WebSocket over the socket (not JSON lines),
 * the socket `0600` in a `0700` directory under /tmp named by the SHA-256 of `path`, and `path` a symlink to it.
 */
export async function listenUnix(options: UnixListenOptions): Promise<UnixListener> {
  const path = resolve(options.cwd ?? process.cwd(), options.path)
  if (options.createDir) mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  const log = options.log ?? (() => {})
  const endpoint = await createWebSocketEndpoint({
    connections: options.connections,
    auth: options.auth,
    health: false,
    labelPrefix: 'unix socket',
    log,
  })
  const socket = await claimDaemonSocket({ path, ...(options.daemonDir ? { daemonDir: options.daemonDir } : {}) })
  try {
    await new Promise<void>((resolveListen, reject) => {
      endpoint.server.once('error', reject)
      endpoint.server.listen(socket.socketPath, () => {
        endpoint.server.off('error', reject)
        resolveListen()
      })
    })
    chmodSync(socket.socketPath, 0o600)
    socket.publish()
  } catch (error) {
    socket.release()
    await endpoint.close('server failed to start')
    throw error
  }
  endpoint.server.on('error', (error) => log(`unix socket listener: ${error.message}`))
  let closing: Promise<void> | undefined
  return {
    path,
    socketPath: socket.socketPath,
    close: (reason = 'server shutting down') => {
      closing ??= endpoint.close(reason).finally(() => socket.release())
      return closing
    },
  }
}
