/** A kind of subagent the model may start (Claude Code's `subagent_type`, Codex's agent role). */
export interface AgentDefinition {
  /** Shown to the model in the tool's description. */
  description: string
  /** Developer context the subagent gets before its task (its instructions). */
  instructions?: string
  /** The most model requests one run of it may make; default the plugin's `maxSteps`. */
  maxSteps?: number
}

/** Claude Code's default type (its `subagent_type` when none is given) and Codex's (`agent_type` "default"). */
export const CLAUDE_DEFAULT_AGENT = 'general-purpose'
export const CODEX_DEFAULT_AGENT = 'default'

/** The agent types each program's tool offers by default. */
export const defaultAgents: Readonly<Record<'claude-code' | 'codex', Readonly<Record<string, AgentDefinition>>>> = Object.freeze({
  'claude-code': {
    [CLAUDE_DEFAULT_AGENT]: { description: 'General-purpose agent for researching complex questions and carrying out multi-step tasks.' },
  },
  codex: { [CODEX_DEFAULT_AGENT]: { description: 'A general agent.' } },
})

export function checkAgents(agents: Record<string, AgentDefinition>, where: string): void {
  for (const [name, agent] of Object.entries(agents)) {
    if (name.trim() === '') throw new TypeError(`${where}: an agent type needs a non-empty name`)
    if (typeof agent?.description !== 'string') throw new TypeError(`${where}: agent type "${name}" needs a description`)
    if (agent.maxSteps !== undefined) checkSteps(agent.maxSteps, `${where}: agents["${name}"].maxSteps`)
  }
}

export function checkSteps(value: number, name: string): void {
  if (!(Number.isInteger(value) && value > 0)) throw new TypeError(`${name} must be a whole number > 0, got ${value}`)
}
