import type { Kernel, SessionSummary } from '@harness-kernel/kernel'
import { errorMessage } from '@harness-kernel/kernel'
import type { AppThread } from '../app-thread.js'
import { invalidRequest } from '../rpc-errors.js'
import { turnsFromEvents, type WireTurn } from '../wire-items.js'
import type { MethodContext } from './method-context.js'

/** The session store's summary of a thread, or the `-32600` answer (`missing`) Codex gives for a thread it has no log of. */
export async function storedThread(kernel: Kernel, threadId: string, missing: string): Promise<SessionSummary> {
  const store = kernel.resolve('sessionStore')
  try {
    store.pathFor(threadId)
  } catch (error) {
    throw invalidRequest(`invalid thread id: ${errorMessage(error)}`)
  }
  try {
    return await store.summary(threadId)
  } catch {
    throw invalidRequest(missing)
  }
}

/** A thread's turns with their items, rebuilt from its log as `thread/resume` shows them. */
export async function storedTurns(context: MethodContext, kernel: Kernel, summary: SessionSummary): Promise<WireTurn[]> {
  const { events } = await kernel.resolve('sessionStore').load(summary.id)
  const cwd = context.threads.get(summary.id)?.session.cwd ?? summary.cwd ?? kernel.cwd
  return turnsFromEvents(events, cwd, context.hostInput() !== undefined)
}

/**
 * `{thread, model, modelProvider, cwd}` for a thread of the store, loaded here or not, made by the server's own
 * `threadResult`. What only the store knows is laid over its thread: `notLoaded` for a thread this server has not
 * loaded, the first prompt as `preview`, `name`, `forkedFromId`, and the log's `createdAt`/`updatedAt`.
 */
export async function storedThreadResult(context: MethodContext, kernel: Kernel, summary: SessionSummary, turns: WireTurn[]) {
  const loaded = context.threads.get(summary.id)
  const result = await context.threadResult(kernel, loaded ?? unloadedThread(kernel, summary), turns)
  const thread: Record<string, unknown> = {
    ...result.thread,
    ...(loaded ? {} : { status: { type: 'notLoaded' } }),
    preview: summary.firstPrompt ?? '',
    name: summary.name ?? null,
    forkedFromId: summary.forkedFrom ?? null,
    createdAt: seconds(summary.createdAt) ?? result.thread.createdAt,
    updatedAt: seconds(summary.updatedAt) ?? result.thread.updatedAt,
  }
  return { ...result, thread }
}

/** What `threadResult` reads of a thread, for one this server has not loaded: the facts of its log, never busy. */
function unloadedThread(kernel: Kernel, summary: SessionSummary): AppThread {
  const session = { id: summary.id, cwd: summary.cwd ?? kernel.cwd, transcriptPath: summary.path }
  const thread = { id: summary.id, busy: false, createdMs: Date.parse(summary.createdAt ?? '') || 0, session }
  return thread as unknown as AppThread
}

function seconds(iso: string | undefined): number | undefined {
  const ms = Date.parse(iso ?? '')
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000)
}
