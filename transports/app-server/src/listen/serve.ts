import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Kernel } from '@harness-kernel/kernel'
import type { AppServerOptions } from '../app-server.js'
import { createAppServer } from '../app-server.js'
import { type AppServerHost, createAppServerHost } from '../app-server-host.js'
import { unixBanner, webSocketBanner } from './banner.js'
import { defaultControlSocketPath } from './daemon-socket.js'
import { type ListenTarget, parseListenUrl } from './listen-url.js'
import { listenUnix } from './serve-unix.js'
import { listenWebSocket } from './serve-websocket.js'
import type { WsAuth } from './ws-auth.js'

export interface ServeOptions extends Omit<AppServerOptions, 'input' | 'output'> {
  /** `stdio://`, `unix://`, `unix://PATH`, `ws://IP:PORT` or `off`, or one parsed with `parseListenUrl`. */
  listen: ListenTarget | string
  /** Asked of every WebSocket client (`ws://` and `unix://`) when given. */
  auth?: WsAuth
  /** `unix://`'s default socket is under it. Default `$HARNESS_HOME`, else `~/.harness`. */
  harnessHome?: string
  /** A relative `unix://PATH` resolves against it. Default the process's. */
  cwd?: string
  /** Where unix sockets really are. Default `/tmp/harness-daemon-<uid>`. */
  daemonDir?: string
  /** stdio's streams. Default the process's. */
  stdin?: NodeJS.ReadableStream
  stdout?: NodeJS.WritableStream
  /** Where the listening banner goes. Default stderr. */
  banner?: (text: string) => void
}

export interface ServingServer {
  readonly transport: ListenTarget['transport']
  /** `ws://127.0.0.1:PORT` (the actual port) or `unix:///abs/path`; undefined on stdio. */
  readonly url: string | undefined
  readonly kernel: Promise<Kernel>
  /** Settles when the server has closed and every thread has been wound down. */
  readonly closed: Promise<void>
  /** Stops listening, closes every connection, winds the threads down. */
  close(reason?: string): Promise<void>
}

/** `--listen off`, or nothing else to serve: Codex's words, without its remote control. */
export class NoTransportError extends Error {
  override readonly name: string = 'NoTransportError'
}

/**
 * Serves the App Server on the transport `listen` names: stdio (one connection; the server ends with it) or a
 * listener (`ws://`, `unix://`) for any number of connections, which ends only on `close`. Resolves once listening.
 */
export async function serve(options: ServeOptions): Promise<ServingServer> {
  const { listen, auth, harnessHome, cwd, daemonDir, stdin, stdout, banner, ...serverOptions } = options
  const target = typeof listen === 'string' ? parseListenUrl(listen) : listen
  const print = banner ?? ((text: string) => process.stderr.write(text))
  switch (target.transport) {
    case 'off':
      throw new NoTransportError('no transport configured; use --listen')
    case 'stdio': {
      const server = createAppServer({ ...serverOptions, input: stdin ?? process.stdin, output: stdout ?? process.stdout })
      return { transport: 'stdio', url: undefined, ...server }
    }
    case 'ws': {
      const host = createAppServerHost(serverOptions)
      const listener = await closingOnFailure(host, () =>
        listenWebSocket({ connections: host, host: target.host, port: target.port, ...(auth ? { auth } : {}), ...logOf(serverOptions) }),
      )
      print(webSocketBanner(listener))
      return listening(host, 'ws', listener.url, listener)
    }
    case 'unix': {
      const host = createAppServerHost(serverOptions)
      const path = target.path ?? defaultControlSocketPath(harnessHome ?? defaultHarnessHome())
      const listener = await closingOnFailure(host, () =>
        listenUnix({
          connections: host,
          path,
          createDir: target.path === undefined,
          ...(cwd ? { cwd } : {}),
          ...(daemonDir ? { daemonDir } : {}),
          ...(auth ? { auth } : {}),
          ...logOf(serverOptions),
        }),
      )
      print(unixBanner(listener))
      return listening(host, 'unix', `unix://${listener.path}`, listener)
    }
  }
}

function defaultHarnessHome(): string {
  return resolve(process.env.HARNESS_HOME || join(process.env.HOME || homedir(), '.harness'))
}

function logOf(options: { log?: (message: string) => void }): { log?: (message: string) => void } {
  return options.log ? { log: options.log } : {}
}

async function closingOnFailure<T>(host: AppServerHost, start: () => Promise<T>): Promise<T> {
  try {
    return await start()
  } catch (error) {
    await host.close('server failed to start')
    throw error
  }
}

function listening(
  host: AppServerHost,
  transport: 'ws' | 'unix',
  url: string,
  listener: { close(reason?: string): Promise<void> },
): ServingServer {
  let closing: Promise<void> | undefined
  const close = (reason = 'server shutting down') => {
    closing ??= listener.close(reason).then(() => host.close(reason))
    return closing
  }
  // The host can close on its own (its kernel failed): the listener goes with it.
  const closed = host.closed.then(() => close())
  return { transport, url, kernel: host.kernel, closed, close }
}
