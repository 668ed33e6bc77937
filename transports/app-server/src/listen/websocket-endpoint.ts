import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import { closeReason, webSocketWithCloseReasons } from './close-reasons.js'
import type { ConnectionHost } from './connection-host.js'
import { answerPlainRequest, GET_ONLY, isHealthPath, NOT_VERSION_13, refuseUpgrade } from './http-answers.js'
import { loadWs } from './load-ws.js'
import { CLOSE, webSocketLines } from './message-streams.js'
import { checkBearer, type WsAuth } from './ws-auth.js'

/**
 * The largest message a client may send: Codex 0.171.0 drops a connection on a frame over 16 MiB (observed; its
 * messages may reach 64 MiB across fragments, ours may not: `ws` has one limit, for the whole message).
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024

/** How long a client has to answer the server's close frame at shutdown before its socket is dropped. */
const SHUTDOWN_GRACE_MS = 2_000

export interface WebSocketEndpointOptions {
  connections: ConnectionHost
  /** Required of every upgrade when given. */
  auth: WsAuth | undefined
  /** `/readyz` and `/healthz` (the TCP listener has them; Codex's unix socket does not). */
  health: boolean
  /** Names each client in logs: `${labelPrefix} #N`. */
  labelPrefix: string
  log: (message: string) => void
}

export interface WebSocketEndpoint {
  /** Not listening yet: the transport binds it. */
  readonly server: Server
  /** Stops accepting, closes every client with 1001 and a reason, and waits until they are gone. */
  close(reason: string): Promise<void>
}

/** An HTTP server that upgrades each allowed request to a WebSocket and hands it to `connections` as JSON lines. */
export async function createWebSocketEndpoint(options: WebSocketEndpointOptions): Promise<WebSocketEndpoint> {
  const ws = await loadWs()
  const webSockets = new ws.WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    WebSocket: webSocketWithCloseReasons(ws, MAX_MESSAGE_BYTES),
  })
  const clients = new Set<WebSocket>()
  let accepted = 0
  let closing = false
  const server = createServer((request, response) => answerPlainRequest(request, response, { health: options.health }))

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A client that resets mid-handshake must not take the server down.
    socket.on('error', (error) => options.log(`${options.labelPrefix}: upgrade socket error: ${error.message}`))
    if (closing) return refuseUpgrade(socket, 503, 'server shutting down')
    if (request.headers.origin !== undefined) return refuseUpgrade(socket, 403)
    if (options.health && isHealthPath(request)) return refuseUpgrade(socket, 200)
    if (request.method !== 'GET') return refuseUpgrade(socket, 405, GET_ONLY)
    // `ws` also takes version 8 (a draft); Codex takes RFC 6455's only.
    if (request.headers['sec-websocket-version'] !== '13') return refuseUpgrade(socket, 400, NOT_VERSION_13)
    if (options.auth) {
      const verdict = checkBearer(options.auth, request.headers.authorization)
      if (!verdict.allowed) return refuseUpgrade(socket, 401, verdict.message)
    }
    webSockets.handleUpgrade(request, socket, head, (client) => {
      const label = `${options.labelPrefix} #${++accepted}`
      clients.add(client)
      client.on('error', (error) => options.log(`${label}: ${error.message}`))
      client.once('close', (code, reason) => {
        clients.delete(client)
        options.log(`${label}: closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})`)
      })
      const { input, output } = webSocketLines(client)
      const connection = options.connections.connect({ input, output, label })
      connection.closed.then(() => {
        if (client.readyState === client.OPEN) client.close(CLOSE.normal, 'connection closed by the server')
      })
    })
  })

  async function close(reason: string): Promise<void> {
    closing = true
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
    server.closeIdleConnections()
    const gone = [...clients].map(
      (client) =>
        new Promise<void>((resolve) => {
          if (client.readyState === client.CLOSED) return resolve()
          client.once('close', () => resolve())
          client.close(CLOSE.goingAway, closeReason(reason))
          setTimeout(() => client.terminate(), SHUTDOWN_GRACE_MS).unref()
        }),
    )
    await Promise.all(gone)
    server.closeAllConnections()
    await stopped
    webSockets.close()
  }

  return { server, close }
}
