import { type AppServer, type AppServerOptions, createAppServer } from './app-server.js'

/**
 * Runs the server on this process's stdio (stdout carries protocol only). Ends the process's
 * session work on stdin end, SIGINT or SIGTERM; resolves when it has wound down.
 */
export function serveStdio(options: Omit<AppServerOptions, 'input' | 'output'>): AppServer {
  const server = createAppServer({ ...options, input: process.stdin, output: process.stdout })
  const stop = () => {
    void server.close('server stopped')
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  server.closed.then(() => {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    process.stdin.pause()
  })
  return server
}
