import { errorMessage } from '@harness-kernel/kernel'
import { z } from 'zod'
import type { AppThread } from '../app-thread.js'
import { parseParams } from '../params.js'
import type { MethodContext, MethodHandler } from './method-context.js'

const threadUnsubscribeParamsSchema = z.object({ threadId: z.string() })

/** Codex keeps a thread nobody is subscribed to loaded for 30 minutes without activity. */
const UNLOAD_AFTER_MS = 30 * 60_000

/** The pending unload of each thread this connection unsubscribed from. */
const unloads = new WeakMap<AppThread, NodeJS.Timeout>()

/**
 * `thread/unsubscribe`: this connection stops getting the thread's notifications (and its approval and host-input
 * requests: with no subscriber, approvals are denied and host input is not asked). Answers `{status}`:
 * `unsubscribed`, `notSubscribed` or `notLoaded`. With nobody subscribed, the thread unloads once it has been idle
 * for `unloadAfterMs` (default 30 minutes, as Codex), then `thread/status/changed` (`notLoaded`) and
 * `thread/closed`. `turn/start`, `turn/steer` and `thread/resume` subscribe the connection again.
 */
export const threadUnsubscribe: MethodHandler = (params, context) => {
  const { threadId } = parseParams(threadUnsubscribeParamsSchema, params)
  const thread = context.threads.get(threadId)
  if (!thread) return { status: 'notLoaded' }
  if (thread.steering.channel !== context.channel) return { status: 'notSubscribed' }
  thread.steering.channel = undefined
  scheduleUnload(context, thread)
  return { status: 'unsubscribed' }
}

function scheduleUnload(context: MethodContext, thread: AppThread): void {
  clearTimeout(unloads.get(thread))
  const timer = setTimeout(() => {
    unloads.delete(thread)
    // Unloaded meanwhile, or subscribed again: nothing to do.
    if (context.threads.get(thread.id) !== thread || thread.steering.channel !== undefined) return
    // Still working: the idle time starts again.
    if (thread.busy) {
      scheduleUnload(context, thread)
      return
    }
    context.unload(thread, 'no subscriber').then(
      () => {
        context.channel.notify('thread/status/changed', { threadId: thread.id, status: { type: 'notLoaded' } })
        context.channel.notify('thread/closed', { threadId: thread.id })
      },
      (error: unknown) => context.log(`thread ${thread.id} did not unload cleanly: ${errorMessage(error)}`),
    )
  }, context.options.unloadAfterMs ?? UNLOAD_AFTER_MS)
  timer.unref()
  unloads.set(thread, timer)
}
