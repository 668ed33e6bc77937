import { errorMessage, type Session } from '@harness-kernel/kernel'
import { z } from 'zod'
import { applyPolicy, checkExperimentalApproval, requestedThreadPolicy } from '../guardrails-params.js'
import { parseParams, threadPolicyParams } from '../params.js'
import { invalidRequest } from '../rpc-errors.js'
import { ANSWERED } from '../rpc-peer.js'
import { uuidv7 } from '../uuid-v7.js'
import type { MethodHandler } from './method-context.js'
import { storedThread, storedThreadResult, storedTurns } from './thread-view.js'

const threadForkParamsSchema = z.object({
  threadId: z.string(),
  lastTurnId: z.string().nullish(),
  cwd: z.string().nullish(),
  excludeTurns: z.boolean().nullish(),
  ...threadPolicyParams,
})

/**
 * `thread/fork`: copies the thread's session log (through `lastTurnId`, else all of it) into a new session
 * (`sessionStore.fork`), resumes it as a loaded thread of this connection and answers like `thread/start` (with the
 * fork's turns unless `excludeTurns`), then `thread/started`. The fork keeps the name; `forkedFromId` is the source.
 * A turn still running in the source is copied open, and resuming the fork closes it as interrupted, as Codex
 * snapshots a running thread. `cwd`, `sandbox` and `approvalPolicy` are honoured (the fork starts under the server's
 * default policy, then what they ask); other overrides are accepted and ignored, as on `thread/start`.
 */
export const threadFork: MethodHandler = async (params, context, id) => {
  const parsed = parseParams(threadForkParamsSchema, params)
  const { threadId } = parsed
  const lastTurnId = parsed.lastTurnId ?? undefined
  checkExperimentalApproval(parsed.approvalPolicy, context.experimentalApi())
  const kernel = await context.kernel()
  const store = kernel.resolve('sessionStore')
  const source = await storedThread(kernel, threadId, `no rollout found for thread id ${threadId}`)
  if (source.archived) throw invalidRequest(`session ${threadId} is archived. Unarchive it (thread/unarchive) first.`)
  if (lastTurnId !== undefined) {
    const { events } = await store.load(threadId)
    if (!events.some((event) => event.type === 'turn/start' && event.turnId === lastTurnId))
      throw invalidRequest(`turn not found: ${lastTurnId}`)
    if (!events.some((event) => event.type === 'turn/end' && event.turnId === lastTurnId))
      throw invalidRequest(`lastTurnId '${lastTurnId}' identifies an in-progress turn`)
  }
  const forkId = uuidv7()
  try {
    await store.fork(threadId, forkId, lastTurnId === undefined ? {} : { throughTurnId: lastTurnId })
    if (source.name !== undefined) await store.setName(forkId, source.name)
  } catch (error) {
    throw invalidRequest(`could not fork thread ${threadId}: ${errorMessage(error)}`)
  }
  // Registered before the session exists: the kernel resolves `steering` while resuming it.
  context.join(context.bridge.steeringFor(forkId), { owner: true })
  let session: Session
  try {
    session = await kernel.resumeSession(forkId, parsed.cwd ? { cwd: parsed.cwd } : {})
  } catch (error) {
    context.bridge.forget(forkId)
    throw invalidRequest(`could not fork thread ${threadId}: ${errorMessage(error)}`)
  }
  const defaultPolicy = context.defaultPolicy()
  applyPolicy(session, { ...context.options.defaultPolicy, ...requestedThreadPolicy(parsed, defaultPolicy) })
  context.adopt(session, Date.now())
  const fork = await store.summary(forkId)
  const result = await storedThreadResult(context, kernel, fork, parsed.excludeTurns ? [] : await storedTurns(context, kernel, fork))
  context.peer.reply(id, result)
  context.broadcast('thread/started', { thread: { ...result.thread, turns: [] } })
  return ANSWERED
}
