import { isLoopback } from './listen-url.js'

/** What `harness app-server --listen ws://…` prints on stderr once it listens: Codex 0.171.0's banner, with our name. */
export function webSocketBanner(listener: { host: string; url: string }): string {
  const http = listener.url.replace(/^ws:/, 'http:')
  const note = isLoopback(listener.host)
    ? 'binds localhost only (use SSH port-forwarding for remote access)'
    : 'websocket auth is required for non-localhost listeners'
  return [
    'harness app-server (WebSockets)',
    `  listening on: ${listener.url}`,
    `  readyz: ${http}/readyz`,
    `  healthz: ${http}/healthz`,
    `  note: ${note}`,
    '',
  ].join('\n')
}

/** Codex prints nothing for its unix socket; ours says where it is, so a script (or a test) can wait for it. */
export function unixBanner(listener: { path: string; socketPath: string }): string {
  return ['harness app-server (unix socket)', `  listening on: unix://${listener.path}`, `  socket: ${listener.socketPath}`, ''].join('\n')
}
