/** The `ws` package, loaded the first time a WebSocket is needed: `harness` starts without it. */
export type WsModule = typeof import('ws')

let loading: Promise<WsModule> | undefined

export function loadWs(): Promise<WsModule> {
  loading ??= import('ws')
  return loading
}
