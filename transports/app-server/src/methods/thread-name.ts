import { z } from 'zod'
import { parseParams } from '../params.js'
import { invalidRequest } from '../rpc-errors.js'
import { ANSWERED } from '../rpc-peer.js'
import type { MethodHandler } from './method-context.js'
import { storedThread } from './thread-view.js'

const threadSetNameParamsSchema = z.object({ threadId: z.string(), name: z.string() })

/**
 * `thread/name/set`: names a thread of the store (loaded or not, not archived), trimmed, as Codex. The name is in
 * its thread objects from then on. Answers `{}`, then `thread/name/updated {threadId, threadName}`.
 */
export const threadSetName: MethodHandler = async (params, context, id) => {
  const { threadId, name } = parseParams(threadSetNameParamsSchema, params)
  const trimmed = name.trim()
  if (trimmed === '') throw invalidRequest('thread name must not be empty')
  const kernel = await context.kernel()
  const missing = `no rollout found for thread id ${threadId}`
  if ((await storedThread(kernel, threadId, missing)).archived) throw invalidRequest(missing)
  await kernel.resolve('sessionStore').setName(threadId, trimmed)
  context.peer.reply(id, {})
  context.channel.notify('thread/name/updated', { threadId, threadName: trimmed })
  return ANSWERED
}
