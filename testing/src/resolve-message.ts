import type { ApiDialect, ReplyContext, ResolvedMessage } from './dialect.js'
import type { MessageReply } from './reply.js'

/** A message reply with its defaults: the text as deltas (`FINAL reply to request #N` when nothing is said), call ids. */
export function resolveMessage(reply: MessageReply, dialect: ApiDialect, context: ReplyContext): ResolvedMessage {
  const calls = reply.toolCalls ?? []
  const base = `${dialect.callIdPrefix}_${context.runId}_${context.n}`
  const text = reply.text ?? (calls.length === 0 ? `FINAL reply to request #${context.n}` : undefined)
  return {
    deltas: text === undefined ? undefined : typeof text === 'string' ? [text] : text,
    toolCalls: calls.map((call, i) => ({ id: call.id ?? (calls.length > 1 ? `${base}_${i}` : base), name: call.name, input: call.input })),
    reasoning: reply.reasoning,
    delayMs: reply.delayMs ?? 0,
    heldUntil: reply.heldUntil,
    chunkDelayMs: reply.chunkDelayMs ?? 0,
    disconnectAfterEvents: reply.disconnectAfterEvents,
    usage: reply.usage,
  }
}
