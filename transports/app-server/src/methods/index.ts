import type { MethodHandler } from './method-context.js'
import { THREAD_STORE_METHODS } from './thread-store-methods.js'
import { WORKSPACE_METHODS } from './workspace-methods.js'

/** The methods beyond the core turn loop (`app-server.ts`), by name. */
export const EXTRA_METHODS: Readonly<Record<string, MethodHandler>> = {
  ...THREAD_STORE_METHODS,
  ...WORKSPACE_METHODS,
}
