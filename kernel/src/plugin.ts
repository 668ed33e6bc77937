import type { HookByName, HookName, KernelHooks } from './hooks.js'
import type { ServiceKey, Services } from './services.js'
import type { Session } from './session-types.js'
import type { ToolDefinition } from './tool.js'

export interface ProvideOptions {
  /** For factories: `session` (default) builds one per session scope, `kernel` one for the whole kernel. */
  lifetime?: 'session' | 'kernel'
}

/** A factory receives the container's cradle (PROXY injection): `({ clock, session }) => …`. */
export type ServiceFactory<T> = (cradle: Services & Record<string, unknown>) => T

export interface StartSubagentOptions {
  /** The session starting it: an open session of this kernel. */
  parent: Session
  /** `id` defaults to the new session's id (Codex names a subagent by its thread id). */
  agent: { type: string; id?: string }
  /** The parent's turn and tool call starting it, when a tool does: recorded in both logs. */
  turnId?: string
  callId?: string
  /** Default: the parent's. */
  cwd?: string
}

/** What a plugin's `setup` receives. */
export interface KernelApi {
  readonly hooks: KernelHooks
  hook<N extends HookName>(name: N): HookByName<N>
  /** Registers a service; the last registration of a key wins. A function is a factory. */
  provide<K extends ServiceKey>(key: K, value: Services[K] | ServiceFactory<Services[K]>, options?: ProvideOptions): void
  provide(key: string, value: unknown, options?: ProvideOptions): void
  resolve<K extends ServiceKey>(key: K): Services[K]
  registerTool<Input>(tool: ToolDefinition<Input>): void
  /**
   * Opens a subagent's session on this kernel: its own log (linked from the parent's by a `subagent/start` event), the
   * same plugins, tools and driver. It fires no `agent/session-start`; its first turn fires `agent/subagent-start`,
   * and `agent/subagent-stop` takes the place of `agent/turn-stopping` at the end of each of its turns. It ends when
   * its parent ends, if not before.
   */
  startSubagent(options: StartSubagentOptions): Promise<Session>
  readonly cwd: string
  readonly sessionsDir: string
}

export type Disposer = () => void | Promise<void>
// biome-ignore lint/suspicious/noConfusingVoidType: a setup may return nothing, a disposer, or a promise of either
export type SetupResult = void | Disposer | Promise<void | Disposer>

export interface Plugin {
  readonly name: string
  /** Plugin names this one removes from the composition. */
  readonly replaces?: readonly string[]
  setup(kernel: KernelApi): SetupResult
}

export function definePlugin(plugin: Plugin): Plugin {
  if (typeof plugin?.name !== 'string' || plugin.name.length === 0) throw new TypeError('definePlugin: a plugin needs a non-empty name')
  if (typeof plugin.setup !== 'function') throw new TypeError(`definePlugin: plugin "${plugin.name}" needs a setup(kernel) function`)
  return Object.freeze({ ...plugin })
}
