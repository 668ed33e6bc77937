import type { ChildRun } from './child-run.js'
import { runError } from './child-run.js'

/**
 * The prompt that brings a background agent's result back (Claude Code 2.1.332, observed with `run_in_background`
 * omitted: `<task-notification>` with the task id, tool use id, output file, status, summary, result and usage).
 */
export function taskNotification({
  child,
  callId,
  description,
  toolUses,
}: {
  child: ChildRun
  callId: string
  description: string
  toolUses: number
}): string {
  const completed = child.result?.status === 'completed'
  const body = completed ? (child.lastMessage ?? '') : runError(child.result)
  return [
    '<task-notification>',
    `<task-id>${child.agent.id}</task-id>`,
    `<tool-use-id>${callId}</tool-use-id>`,
    `<output-file>${child.session.transcriptPath}</output-file>`,
    `<status>${completed ? 'completed' : 'failed'}</status>`,
    `<summary>Agent "${description}" ${completed ? 'finished' : 'failed'}</summary>`,
    `<result>${body}</result>`,
    `<usage><tool_uses>${toolUses}</tool_uses><duration_ms>${Date.now() - child.startedAt}</duration_ms></usage>`,
    '</task-notification>',
  ].join('\n')
}
