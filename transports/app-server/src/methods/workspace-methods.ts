import type { MethodHandler } from './method-context.js'

/** Models, config, skills, MCP status, commands, file search, account. */
export const WORKSPACE_METHODS: Readonly<Record<string, MethodHandler>> = {}
