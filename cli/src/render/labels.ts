import type { HookRunRecord, Message, Source } from '@harness-kernel/kernel'

/** `user`, `developer (plugin policy)`, `user (steering omp)`: the role, and the source when it is not the usual one. */
export function messageLabel(message: Message): string {
  const usual =
    (message.role === 'user' && message.source.kind === 'user') || (message.role === 'assistant' && message.source.kind === 'model')
  return usual ? message.role : `${message.role} (${sourceLabel(message.source)})`
}

export function sourceLabel(source: Source): string {
  switch (source.kind) {
    case 'plugin':
      return `plugin ${source.plugin}`
    case 'steering':
      return `steering ${source.transport}`
    default:
      return source.kind
  }
}

/** `codex PreToolUse completed (exit 0, 12 ms)`. */
export function hookRunSummary(run: HookRunRecord): string {
  const facts: string[] = []
  if (run.exitCode !== undefined && run.exitCode !== null) facts.push(`exit ${run.exitCode}`)
  if (run.timedOut) facts.push('timed out')
  if (typeof run.durationMs === 'number') facts.push(`${Math.round(run.durationMs)} ms`)
  const handler = run.command ?? run.key
  return `${run.dialect} ${run.event}${handler ? ` ${handler}` : ''} ${run.status}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}`
}
