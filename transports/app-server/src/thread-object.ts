import type { GuardrailsPolicy, Kernel, Session, SessionSummary } from '@harness-kernel/kernel'
import { wireApprovalPolicy, wireSandboxPolicy } from './guardrails-params.js'
import type { WireTurn } from './wire-items.js'

/** What a thread object is made of: a loaded thread, or a stand-in for one of the session store. */
export interface ThreadFacts {
  readonly id: string
  readonly busy: boolean
  readonly createdMs: number
  /** A loaded thread's session has its guardrails (the policy in force); a stored one's has none. */
  readonly session: Pick<Session, 'cwd' | 'transcriptPath'> & Partial<Pick<Session, 'guardrails'>>
}

const seconds = (ms: number) => Math.floor(ms / 1000)

/** The session store's facts of a thread (name, first prompt, times), when it has its log. */
async function storedFacts(kernel: Kernel, threadId: string): Promise<SessionSummary | undefined> {
  try {
    return await kernel.resolve('sessionStore').summary(threadId)
  } catch {
    return undefined
  }
}

/**
 * Codex's `Thread`, every member: real values from the session (id, session id, path, cwd, times, first prompt as
 * `preview`, name, fork source, status, this server's version as `cliVersion`), and Codex's neutral value where the
 * kernel has none: `source: "unknown"`, `originator`/`projectId`/`gitInfo`/… null (README "Threads").
 */
export async function threadObject(
  kernel: Kernel,
  thread: ThreadFacts,
  turns: WireTurn[],
  { cliVersion, originator }: ThreadOrigin,
): Promise<Record<string, unknown>> {
  const stored = await storedFacts(kernel, thread.id)
  const createdAt = seconds(Date.parse(stored?.createdAt ?? '') || thread.createdMs)
  const updatedAt = Math.max(createdAt, seconds(Date.parse(stored?.updatedAt ?? '') || Date.now()))
  return {
    id: thread.id,
    sessionId: thread.id,
    forkedFromId: stored?.forkedFrom ?? null,
    parentThreadId: stored?.parent?.sessionId ?? null,
    preview: stored?.firstPrompt ?? '',
    ephemeral: false,
    historyMode: 'paginated',
    modelProvider: 'harness',
    model: threadModel(kernel),
    reasoningEffort: null,
    createdAt,
    updatedAt,
    recencyAt: updatedAt,
    status: thread.busy ? { type: 'active', activeFlags: [] } : { type: 'idle' },
    path: thread.session.transcriptPath,
    cwd: thread.session.cwd,
    cliVersion,
    originator,
    source: await sourceOf(kernel, stored),
    threadSource: null,
    agentNickname: null,
    agentRole: stored?.parent?.agentType ?? null,
    gitInfo: null,
    name: stored?.name ?? null,
    projectId: null,
    section: null,
    sectionEnteredAt: null,
    // Members Codex 0.169.0 sends beyond its published schema, with the values it sends for a local thread.
    attachedToThreadId: null,
    canAcceptDirectInput: true,
    daybreakEnabled: null,
    environments: [{ environmentId: 'local', cwd: thread.session.cwd, runtimeWorkspaceRoots: [thread.session.cwd] }],
    extra: null,
    turns,
  }
}

/** A subagent's session is Codex's `thread_spawn` subagent thread; any other's source is unknown. */
async function sourceOf(kernel: Kernel, stored: SessionSummary | undefined): Promise<unknown> {
  const parent = stored?.parent
  if (parent === undefined) return 'unknown'
  let depth = 1
  for (let above = (await storedFacts(kernel, parent.sessionId))?.parent; above !== undefined && depth < 64; depth++) {
    above = (await storedFacts(kernel, above.sessionId))?.parent
  }
  return {
    subAgent: {
      thread_spawn: { parent_thread_id: parent.sessionId, depth, agent_nickname: null, agent_path: null, agent_role: parent.agentType },
    },
  }
}

/** Who made the thread objects: this server's version, and the connection's client (Codex's `originator`). */
export interface ThreadOrigin {
  readonly cliVersion: string
  /** `clientInfo.name` of the connection that initialized; null before. */
  readonly originator: string | null
  /** The policy a thread that is not loaded would run under: the server's default. */
  readonly defaultPolicy: GuardrailsPolicy
}

/** The model a thread runs: the kernel's; a driver that brings its own (Claude Code, Codex) leaves its id instead. */
export function threadModel(kernel: Kernel): string {
  const driver = kernel.resolve('driver')
  return driver.capabilities.model === 'kernel' ? kernel.resolve('model').id : driver.id
}

/**
 * What `thread/start`, `thread/resume` (and `thread/fork`) answer: the thread and the settings it runs with, among them
 * the sandbox and approval policy in force for its session (the sandbox expanded, as Codex echoes it).
 */
export async function threadResponse(kernel: Kernel, thread: ThreadFacts, turns: WireTurn[], origin: ThreadOrigin) {
  const object = await threadObject(kernel, thread, turns, origin)
  const policy = thread.session.guardrails?.policy ?? origin.defaultPolicy
  return {
    thread: object,
    model: object.model as string,
    modelProvider: 'harness',
    serviceTier: null,
    cwd: thread.session.cwd,
    instructionSources: [],
    approvalPolicy: wireApprovalPolicy(policy.approval),
    approvalsReviewer: 'user',
    sandbox: wireSandboxPolicy(policy.sandbox),
    reasoningEffort: null,
    disabledPluginIds: [],
    // Beyond the published schema, as Codex 0.169.0 sends them.
    runtimeWorkspaceRoots: [thread.session.cwd],
    activePermissionProfile: null,
    multiAgentMode: 'explicitRequestOnly',
  }
}
