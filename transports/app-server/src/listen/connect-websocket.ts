import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { defaultControlSocketPath } from './daemon-socket.js'
import { loadWs } from './load-ws.js'
import { type JsonLineStreams, webSocketLines } from './message-streams.js'

export interface WebSocketConnectOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string
  headers?: Record<string, string>
  /** A relative `unix://PATH` resolves against it. Default the process's. */
  cwd?: string
  /** `unix://` without a path connects to the default control socket under it. Default `$HARNESS_HOME`, else `~/.harness`. */
  harnessHome?: string
}

/** The server would not upgrade: its status and the reason it gave (`401 invalid websocket bearer token`). */
export class WebSocketRefusedError extends Error {
  override readonly name: string = 'WebSocketRefusedError'
  readonly status: number
  readonly body: string

  constructor(url: string, status: number, body: string) {
    super(`${url} refused the WebSocket upgrade: ${status}${body === '' ? '' : ` ${body}`}`)
    this.status = status
    this.body = body
  }
}

/** Connects to an App Server listening on `ws://IP:PORT` or `unix://PATH`, as JSON-lines streams. */
export async function connectWebSocket(url: string, options: WebSocketConnectOptions = {}): Promise<JsonLineStreams> {
  const ws = await loadWs()
  const headers = { ...options.headers, ...(options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` }) }
  const socket = new ws.WebSocket(webSocketAddress(url, options), { headers })
  await new Promise<void>((resolveOpen, reject) => {
    socket.once('open', () => resolveOpen())
    socket.once('error', reject)
    socket.once('unexpected-response', (_request, response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        body += chunk
      })
      response.on('end', () => reject(new WebSocketRefusedError(url, response.statusCode ?? 0, body)))
    })
  })
  socket.on('error', () => {})
  return webSocketLines(socket)
}

/** `ws://…` as is; `unix://PATH` as `ws`'s `ws+unix:` address of that socket. */
function webSocketAddress(url: string, options: WebSocketConnectOptions): string {
  if (url.startsWith('ws://')) return url
  if (!url.startsWith('unix://')) throw new TypeError(`cannot connect to ${url}: expected ws://IP:PORT or unix://PATH`)
  const given = url.slice('unix://'.length)
  const home = options.harnessHome ?? (process.env.HARNESS_HOME || join(process.env.HOME || homedir(), '.harness'))
  const path = given === '' ? defaultControlSocketPath(resolve(home)) : resolve(options.cwd ?? process.cwd(), given)
  return `ws+unix://${path}:/`
}
