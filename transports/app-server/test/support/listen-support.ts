import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket from 'ws'
import type { AppServerConnection } from '../../src/app-server-host.js'
import { readLines, writeLine } from '../../src/json-lines.js'
import type { ClientStreams, ConnectionHost } from '../../src/listen/connection-host.js'

/**
 * A stand-in for the App Server host: answers every request with what it got and the connection's label, and says
 * `{method: 'bye'}` before closing a connection it is asked to close. Enough to test the transports alone.
 */
export class EchoHost implements ConnectionHost {
  readonly labels: string[] = []
  readonly open = new Set<string>()
  /** Each connection's `close`, by label. */
  readonly hosted = new Map<string, () => void>()

  connect(connection: ClientStreams): AppServerConnection {
    this.labels.push(connection.label)
    this.open.add(connection.label)
    let end!: () => void
    const closed = new Promise<void>((resolve) => {
      end = resolve
    })
    const stop = readLines(
      connection.input,
      (line) => {
        const message = JSON.parse(line) as { id?: unknown; method?: string; params?: unknown }
        if (message.id !== undefined)
          writeLine(connection.output, {
            id: message.id,
            result: { method: message.method, params: message.params, label: connection.label },
          })
      },
      () => {
        this.open.delete(connection.label)
        end()
      },
    )
    const close = () => {
      stop()
      writeLine(connection.output, { method: 'bye' })
      connection.output.end()
      this.open.delete(connection.label)
      end()
    }
    this.hosted.set(connection.label, close)
    return { label: connection.label, closed, close }
  }
}

const dirs: string[] = []

/** A fresh directory under the system's temporary one; `removeTempDirs` removes them all. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(dir)
  return dir
}

export function removeTempDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
}

/** A raw `ws` client, open, with every text message it receives and how it closed. */
export interface RawClient {
  socket: WebSocket
  messages: unknown[]
  closed: Promise<{ code: number; reason: string }>
  /** Sends a request and resolves with the message answering it. */
  ask(id: number, method: string, params?: unknown): Promise<Record<string, unknown>>
}

export async function openRaw(address: string, options: WebSocket.ClientOptions = {}): Promise<RawClient> {
  const socket = new WebSocket(address, options)
  const messages: unknown[] = []
  const waiting = new Map<unknown, (message: Record<string, unknown>) => void>()
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>
    messages.push(message)
    waiting.get(message.id)?.(message)
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }))
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  return {
    socket,
    messages,
    closed,
    ask: (id, method, params) =>
      new Promise((resolve) => {
        waiting.set(id, resolve)
        socket.send(JSON.stringify({ id, method, params }))
      }),
  }
}

/** The status, headers and body the server answers a request that is meant to upgrade, when it does not upgrade. */
export function refusedUpgrade(address: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(address, { headers })
    socket.once('open', () => {
      socket.terminate()
      reject(new Error(`${address} upgraded`))
    })
    socket.once('error', () => {})
    socket.once('unexpected-response', (_request, response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        body += chunk
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
  })
}
