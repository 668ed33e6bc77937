import { z } from 'zod'
import { parseParams } from '../params.js'
import type { MethodHandler } from './method-context.js'
import { storedThread, storedThreadResult, storedTurns } from './thread-view.js'

const threadReadParamsSchema = z.object({ threadId: z.string(), includeTurns: z.boolean().nullish() })

/** `thread/read`: a thread of the session store, loaded or not, without loading it; its turns with `includeTurns`. */
export const threadRead: MethodHandler = async (params, context) => {
  const { threadId, includeTurns } = parseParams(threadReadParamsSchema, params)
  const kernel = await context.kernel()
  const summary = await storedThread(kernel, threadId, `thread not loaded: ${threadId}`)
  const turns = includeTurns ? await storedTurns(context, kernel, summary) : []
  return { thread: (await storedThreadResult(context, kernel, summary, turns)).thread }
}
