import { z } from 'zod'
import { parseParams } from '../params.js'
import type { MethodHandler } from './method-context.js'

const threadUnsubscribeParamsSchema = z.object({ threadId: z.string() })

/**
 * `thread/unsubscribe`: this connection stops getting the thread's notifications (all but `thread/status/changed`,
 * which every connection gets) and its approval and host-input requests. Answers `{status}`: `unsubscribed`,
 * `notSubscribed` or `notLoaded`. With nobody subscribed, the thread unloads once it has been idle for
 * `unloadAfterMs` (default 30 minutes, as Codex), then `thread/status/changed` (`notLoaded`) and `thread/closed`.
 * `turn/start`, `turn/steer` and `thread/resume` subscribe the connection again.
 */
export const threadUnsubscribe: MethodHandler = (params, context) => {
  const { threadId } = parseParams(threadUnsubscribeParamsSchema, params)
  const thread = context.threads.get(threadId)
  if (!thread) return { status: 'notLoaded' }
  return { status: context.leave(thread) ? 'unsubscribed' : 'notSubscribed' }
}
