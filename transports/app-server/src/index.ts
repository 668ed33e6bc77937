export {
  type AppServer,
  type AppServerOptions,
  createAppServer,
  type DriverInfo,
  type HooksListEntry,
  METHODS,
  SERVER_VERSION,
} from './app-server.js'
export { type AppServerConnection, type AppServerHost, createAppServerHost } from './app-server-host.js'
export { AppServerBridge, type AppServerBridgeOptions, createAppServerBridge, type KernelFactory } from './bridge.js'
export { BUDGET_REQUEST, type BudgetSettings, negotiateBudget } from './budget-requests.js'
export * from './client.js'
export type { FleetPort, InboxItem, InboxKind, InboxState, RelayedAnswer, RelayedEnd, RelayedRequest } from './fleet/fleet-port.js'
export { type HostInputItem, type HostInputSettings, negotiateHostInput } from './host-input-protocol.js'
export * from './listen/index.js'
export type { UserInput } from './params.js'
export { RpcError } from './rpc-errors.js'
export type { RequestId, RpcResponse } from './rpc-peer.js'
export { serveStdio } from './serve-stdio.js'
export type { WireItem, WireTurn } from './wire-items.js'
