import { z } from 'zod'
import { parseParams } from '../params.js'
import { METHOD_NOT_FOUND, RpcError } from '../rpc-errors.js'
import type { MethodHandler } from './method-context.js'

const threadCompactStartParamsSchema = z.object({ threadId: z.string() })

/** `thread/compact/start`: the kernel cannot compact a session's history yet, so a loaded thread gets an error. */
export const threadCompactStart: MethodHandler = (params, context) => {
  const { threadId } = parseParams(threadCompactStartParamsSchema, params)
  context.threadFor(threadId)
  throw new RpcError(METHOD_NOT_FOUND, 'thread/compact/start is not supported: the kernel cannot compact a session yet')
}
