import { z } from 'zod'
import { parseParams } from '../params.js'
import { invalidRequest } from '../rpc-errors.js'
import { ANSWERED } from '../rpc-peer.js'
import type { MethodHandler } from './method-context.js'
import { storedThread, storedThreadResult } from './thread-view.js'

const threadIdParamsSchema = z.object({ threadId: z.string() })

/**
 * `thread/archive`: marks the session archived in the store (`thread/list` leaves it out unless asked for
 * `archived`). A thread loaded here is unloaded first, as Codex does: its running turn is interrupted, its session
 * ended, then `thread/status/changed` (`notLoaded`). Answers `{}`, then `thread/archived`.
 */
export const threadArchive: MethodHandler = async (params, context, id) => {
  const { threadId } = parseParams(threadIdParamsSchema, params)
  const kernel = await context.kernel()
  const missing = `no rollout found for thread id ${threadId}`
  if ((await storedThread(kernel, threadId, missing)).archived) throw invalidRequest(missing)
  const loaded = context.threads.get(threadId)
  if (loaded) {
    await context.unload(loaded, 'archived')
    context.broadcast('thread/status/changed', { threadId, status: { type: 'notLoaded' } })
  }
  await kernel.resolve('sessionStore').setArchived(threadId, true)
  context.peer.reply(id, {})
  context.channel.notify('thread/archived', { threadId })
  return ANSWERED
}

/** `thread/unarchive`: the session is listed again. Answers `{thread}` (not loaded), then `thread/unarchived`. */
export const threadUnarchive: MethodHandler = async (params, context, id) => {
  const { threadId } = parseParams(threadIdParamsSchema, params)
  const kernel = await context.kernel()
  const missing = `no archived rollout found for thread id ${threadId}`
  if (!(await storedThread(kernel, threadId, missing)).archived) throw invalidRequest(missing)
  const store = kernel.resolve('sessionStore')
  await store.setArchived(threadId, false)
  context.peer.reply(id, { thread: (await storedThreadResult(context, kernel, await store.summary(threadId), [])).thread })
  context.channel.notify('thread/unarchived', { threadId })
  return ANSWERED
}
