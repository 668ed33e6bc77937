import { z } from 'zod'
import { invalidRequest } from '../rpc-errors.js'
import type { MethodContext, MethodHandler } from './method-context.js'
import { noCursor, objectParams, variant } from './method-params.js'

const listParamsSchema = z.object({
  cursor: z.string().nullish(),
  limit: z.number().nullish(),
  detail: z.string().nullish(),
  threadId: z.string().nullish(),
  serverName: z.string().nullish(),
  environmentId: z.string().nullish(),
})

/** `mcpServerStatus/list`: the harness connects to no MCP server (kernel tools are its tools), so the list is empty. */
function mcpServerStatusList(params: unknown, context: MethodContext) {
  const parsed = objectParams(listParamsSchema, params)
  // Codex 0.171.0: an environment's registration is asked for by server and thread.
  if (typeof parsed.environmentId === 'string' && (typeof parsed.serverName !== 'string' || typeof parsed.threadId !== 'string'))
    throw invalidRequest('environmentId requires serverName and threadId')
  if (parsed.detail !== undefined && parsed.detail !== null) variant(parsed.detail, ['full', 'toolsAndAuthOnly'])
  noCursor(parsed.cursor)
  if (parsed.threadId !== undefined && parsed.threadId !== null) context.threadFor(parsed.threadId)
  return { data: [], nextCursor: null }
}

export const MCP_STATUS_METHODS: Readonly<Record<string, MethodHandler>> = {
  'mcpServerStatus/list': mcpServerStatusList,
}
