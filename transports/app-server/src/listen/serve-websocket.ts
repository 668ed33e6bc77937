import type { ConnectionHost } from './connection-host.js'
import { isLoopback, socketAddress } from './listen-url.js'
import { createWebSocketEndpoint } from './websocket-endpoint.js'
import type { WsAuth } from './ws-auth.js'

export interface WebSocketListenOptions {
  connections: ConnectionHost
  /** An IP address (`127.0.0.1`, `::1`, `0.0.0.0`). */
  host: string
  /** 0 picks a free port. */
  port: number
  auth?: WsAuth
  log?: (message: string) => void
}

export interface WebSocketListener {
  /** The bound address: the actual port when 0 was asked. */
  readonly host: string
  readonly port: number
  /** `ws://127.0.0.1:PORT`. */
  readonly url: string
  /** Stops listening and closes every client (1001 with `reason`). */
  close(reason?: string): Promise<void>
}

/** Codex's refusal (0.171.0, observed): without auth only loopback is served. */
export class NonLoopbackWithoutAuthError extends Error {
  override readonly name: string = 'NonLoopbackWithoutAuthError'
}

/** Throws unless `host` is loopback or clients must authenticate. */
export function checkLoopbackOrAuth(options: { host: string; port: number; auth?: WsAuth | undefined }): void {
  if (options.auth || isLoopback(options.host)) return
  throw new NonLoopbackWithoutAuthError(
    `refusing to start non-loopback websocket listener ${socketAddress(options.host, options.port)} without auth; configure \`--ws-auth capability-token\` or \`--ws-auth signed-bearer-token\``,
  )
}

/** Serves WebSocket clients on `ws://host:port`, one JSON-RPC message per text frame, `/readyz` and `/healthz` beside. */
export async function listenWebSocket(options: WebSocketListenOptions): Promise<WebSocketListener> {
  checkLoopbackOrAuth(options)
  const log = options.log ?? (() => {})
  const endpoint = await createWebSocketEndpoint({
    connections: options.connections,
    auth: options.auth,
    health: true,
    labelPrefix: 'websocket',
    log,
  })
  await new Promise<void>((resolve, reject) => {
    endpoint.server.once('error', reject)
    endpoint.server.listen({ host: options.host, port: options.port }, () => {
      endpoint.server.off('error', reject)
      resolve()
    })
  })
  const bound = endpoint.server.address()
  if (bound === null || typeof bound === 'string') throw new Error(`websocket listener bound to ${String(bound)}`)
  const address = socketAddress(bound.address, bound.port)
  endpoint.server.on('error', (error) => log(`websocket listener: ${error.message}`))
  return {
    host: bound.address,
    port: bound.port,
    url: `ws://${address}`,
    close: (reason = 'server shutting down') => endpoint.close(reason),
  }
}
