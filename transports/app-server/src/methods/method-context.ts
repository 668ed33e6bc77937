import type { GuardrailsPolicy, Kernel, Session } from '@harness-kernel/kernel'
import type { AppServerOptions } from '../app-server-options.js'
import type { AppThread } from '../app-thread.js'
import type { AppServerBridge } from '../bridge.js'
import type { ConnectionChannel } from '../connection-channel.js'
import type { HostInputSettings } from '../host-input-protocol.js'
import type { RequestId, RpcPeer } from '../rpc-peer.js'
import type { ThreadSteering } from '../thread-steering.js'
import type { WireTurn } from '../wire-items.js'

/** What a method handler may use of the server: its kernel, its threads, its connection. */
export interface MethodContext {
  kernel(): Promise<Kernel>
  /** The threads this server has loaded, by id. */
  readonly threads: ReadonlyMap<string, AppThread>
  /** A loaded thread, or the `thread not found` error. */
  threadFor(threadId: string): AppThread
  /** Makes a started or resumed session one of this server's threads. */
  adopt(session: Session, createdMs: number): AppThread
  /** Interrupts the thread's turn, waits for it to end, then ends its session and forgets the thread. */
  unload(thread: AppThread, reason: string): Promise<void>
  /** `{thread, model, modelProvider, cwd}` as `thread/start` and `thread/resume` answer. */
  threadResult(kernel: Kernel, thread: AppThread, turns: WireTurn[]): Promise<Record<string, unknown> & { thread: Record<string, unknown> }>
  /** This connection: notifications for it alone. */
  readonly channel: ConnectionChannel
  /** Settles when this connection has gone away. */
  readonly connectionClosed: Promise<void>
  readonly peer: RpcPeer
  readonly bridge: AppServerBridge
  readonly options: Omit<AppServerOptions, 'input' | 'output'>
  hostInput(): HostInputSettings | undefined
  /** Whether the client opted into Codex's experimental API (`capabilities.experimentalApi`). */
  experimentalApi(): boolean
  /** The policy sessions run under unless a client asks otherwise: `defaultPolicy`, else the kernel's default. */
  defaultPolicy(): GuardrailsPolicy
  log(message: string): void
  /** Subscribes this connection to the thread; `owner` makes it the one the thread's server requests go to. */
  join(steering: ThreadSteering, options: { owner: boolean }): void
  /** Unsubscribes this connection; false when it was not subscribed. A thread left without subscribers unloads once idle. */
  leave(thread: AppThread): boolean
  /** To every initialized connection. */
  broadcast(method: string, params: unknown): void
}

/** One method: answers with its result (or `ANSWERED` after `peer.reply`), or throws an `RpcError`. */
export type MethodHandler = (params: unknown, context: MethodContext, id: RequestId) => unknown
