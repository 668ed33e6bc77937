import { z } from 'zod'
import { parseParams } from '../params.js'
import type { MethodHandler } from './method-context.js'

const threadCompactStartParamsSchema = z.object({ threadId: z.string() })

/** `thread/compact/start`: `{}` at once; the compaction then runs as a turn of its own (`AppThread.compact`). */
export const threadCompactStart: MethodHandler = (params, context) => {
  const { threadId } = parseParams(threadCompactStartParamsSchema, params)
  const thread = context.threadFor(threadId)
  context.join(thread.steering, { owner: !thread.busy })
  thread.compact()
  return {}
}
