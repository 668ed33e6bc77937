import type { ChildRun } from './child-run.js'
import { runError } from './child-run.js'

/** A subagent's status as Codex serializes its `AgentStatus`: `"running"`, `{"completed": message}`, `{"errored": why}`. */
export function codexStatus(child: ChildRun | undefined): unknown {
  if (child === undefined) return 'not_found'
  switch (child.status) {
    case 'running':
      return 'running'
    case 'completed':
      return { completed: child.lastMessage }
    case 'errored':
      return { errored: runError(child.result) }
    default:
      return child.status
  }
}

/** The text that tells the parent a subagent reached a final status (Codex's `<subagent_notification>`). */
export function subagentNotification(child: ChildRun): string {
  return `<subagent_notification>\n${JSON.stringify({ agent_path: child.agent.id, status: codexStatus(child) })}\n</subagent_notification>`
}
