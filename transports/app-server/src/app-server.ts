import type { Kernel } from '@harness-kernel/kernel'
import { createAppServerHost } from './app-server-host.js'
import type { AppServerOptions } from './app-server-options.js'

export {
  type AppServerOptions,
  type DriverInfo,
  type HooksListEntry,
  METHODS,
  SERVER_VERSION,
} from './app-server-options.js'

export interface AppServer {
  readonly kernel: Promise<Kernel>
  /** Settles when the connection has closed and every thread has been wound down. */
  readonly closed: Promise<void>
  /** Interrupts running turns, ends sessions and (if it created it) disposes the kernel. */
  close(reason?: string): Promise<void>
}

/**
 * A Codex App Server v2 compatible server over one JSON-lines connection (codex-app-server.md): the server lives as
 * long as the connection, so the client going away winds its threads down. Many connections: `createAppServerHost`.
 */
export function createAppServer(options: AppServerOptions): AppServer {
  const { input, output, ...hostOptions } = options
  const host = createAppServerHost(hostOptions)
  const connection = host.connect({ input, output, label: 'stdio' })
  connection.closed.then(() => host.close('host disconnected'))
  return { kernel: host.kernel, closed: host.closed, close: (reason) => host.close(reason) }
}
