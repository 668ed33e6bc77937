import type { Session } from '@harness-kernel/kernel'

/** What a session's trace needs to know of the session, as plain data (it crosses to the export thread). */
export interface SessionInfo {
  id: string
  /** The kernel's driver id: `native`, `claude-code`, `codex`. */
  driver: string
  /** `gen_ai.provider.name`, where it is known. */
  provider: string | undefined
  /** A subagent's: the session and tool call that started it. */
  parent?: { sessionId: string; callId: string | undefined; agentType: string; agentId: string }
}

export function sessionInfo(session: Session, driver: string, provider: string | undefined): SessionInfo {
  const link = session.parent
  const info: SessionInfo = { id: session.id, driver, provider }
  if (link !== undefined) {
    info.parent = { sessionId: link.session.id, callId: link.callId, agentType: link.agent.type, agentId: link.agent.id }
  }
  return info
}
