export { type WebSocketConnectOptions, WebSocketRefusedError } from './connect-websocket.js'
export type { ClientStreams, ConnectionHost } from './connection-host.js'
export { DaemonSocketError, defaultControlSocketPath, defaultDaemonDir } from './daemon-socket.js'
export { isLoopback, type ListenTarget, ListenUrlError, parseListenUrl } from './listen-url.js'
export { NoTransportError, type ServeOptions, type ServingServer, serve } from './serve.js'
export { listenUnix, type UnixListener, type UnixListenOptions } from './serve-unix.js'
export {
  checkLoopbackOrAuth,
  listenWebSocket,
  NonLoopbackWithoutAuthError,
  type WebSocketListener,
  type WebSocketListenOptions,
} from './serve-websocket.js'
export { MAX_MESSAGE_BYTES } from './websocket-endpoint.js'
export {
  checkWsAuthFlags,
  DEFAULT_MAX_CLOCK_SKEW_SECONDS,
  loadWsAuth,
  WS_AUTH_MODES,
  type WsAuth,
  WsAuthError,
  type WsAuthFlags,
} from './ws-auth.js'
