import type { MethodHandler } from './method-context.js'

/** Threads as the session store keeps them: list, read, page, fork, archive, name, unsubscribe, compact. */
export const THREAD_STORE_METHODS: Readonly<Record<string, MethodHandler>> = {}
