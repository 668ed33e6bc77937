import { EFFORT_EVENTS } from '../io/payload.js'

export interface HookEnvInput {
  projectDir: string
  sessionId: string
  /** The event being run, e.g. `PreToolUse`. */
  event: string
  /** The model's effort level (`medium`); undefined when the model has none. */
  effort?: string | undefined
  /** Plugin handlers only. */
  plugin?: { root: string; data: string } | undefined
  /** SessionStart only: the file a hook may write `export` lines to. */
  envFile?: string | undefined
  /** `CLAUDE_CODE_ENTRYPOINT`; default `harness-kernel`. */
  entrypoint?: string | undefined
  /** `AI_AGENT`; default `harness-kernel`. */
  agentName?: string | undefined
  /** The environment the hook inherits; default `process.env`. Only consulted for the names to remove. */
  parentEnv?: Readonly<Record<string, string | undefined>> | undefined
}

export const DEFAULT_HOOK_AGENT_NAME = 'harness-kernel'

/** Variables the dialect sets, when they apply (documented so the docs can cite them). */
export const HOOK_ENV_SET = [
  'CLAUDE_PROJECT_DIR',
  'CLAUDECODE',
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_SESSION_ID',
  'AI_AGENT',
  'CLAUDE_EFFORT',
  'CLAUDE_ENV_FILE',
  'CLAUDE_PLUGIN_ROOT',
  'CLAUDE_PLUGIN_DATA',
] as const

/** Events whose hooks get `CLAUDE_EFFORT` (when the model has an effort level): those whose payload has `effort` [obs]. */
export const EFFORT_ENV_EVENTS: ReadonlySet<string> = EFFORT_EVENTS

/** Inherited variables with these prefixes are removed, as Claude Code does. */
export const HOOK_ENV_STRIPPED_PREFIXES = ['OTEL_'] as const

/**
 * Claude Code sets these for its own process and session; the kernel has no equivalent, so it neither fakes them nor passes
 * on values inherited from an enclosing Claude Code session, which would name another process.
 */
export const HOOK_ENV_NOT_PROVIDED = [
  'CLAUDE_PID',
  'CLAUDE_CODE_MESSAGING_SOCKET',
  'CLAUDE_CODE_MESSAGING_TOKEN',
  'CLAUDE_CODE_CHILD_NOTES_DIR',
] as const

/**
 * The variables added to (or, as `undefined`, removed from) the parent environment for one hook, as Claude Code does.
 * Conditional variables that do not apply are removed, so an inherited value never leaks into a hook that should not see it.
 */
export function hookEnv(input: HookEnvInput): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {}
  for (const name of Object.keys(input.parentEnv ?? process.env)) {
    if (HOOK_ENV_STRIPPED_PREFIXES.some((prefix) => name.startsWith(prefix))) env[name] = undefined
  }
  for (const name of HOOK_ENV_NOT_PROVIDED) env[name] = undefined
  env.CLAUDE_PROJECT_DIR = input.projectDir
  env.CLAUDECODE = '1'
  env.CLAUDE_CODE_ENTRYPOINT = input.entrypoint ?? DEFAULT_HOOK_AGENT_NAME
  env.CLAUDE_CODE_SESSION_ID = input.sessionId
  env.AI_AGENT = input.agentName ?? DEFAULT_HOOK_AGENT_NAME
  env.CLAUDE_EFFORT = input.effort !== undefined && EFFORT_ENV_EVENTS.has(input.event) ? input.effort : undefined
  env.CLAUDE_ENV_FILE = input.envFile !== undefined && input.event === 'SessionStart' ? input.envFile : undefined
  env.CLAUDE_PLUGIN_ROOT = input.plugin?.root
  env.CLAUDE_PLUGIN_DATA = input.plugin?.data
  return env
}
