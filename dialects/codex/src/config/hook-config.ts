import { CODEX_EVENTS, type CodexEvent } from '../events.js'

/** One handler as written in hooks.json or a `[hooks]` table, before any defaulting (Codex's `HookHandlerConfig`). */
export type RawHandlerConfig =
  | {
      type: 'command'
      command: string
      timeout: number | undefined
      async: boolean
      statusMessage: string | undefined
      additionalContextLimit: number | undefined
    }
  | { type: 'mcp_tool' }
  | { type: 'prompt' }
  | { type: 'agent' }

export interface RawMatcherGroup {
  matcher: string | undefined
  hooks: RawHandlerConfig[]
}

/** `HookEventsToml`: its fields are Codex's events, in `CODEX_EVENTS`'s order. */
export type RawHookEvents = Record<CodexEvent, RawMatcherGroup[]>

export const HANDLER_TYPES = ['command', 'mcp_tool', 'prompt', 'agent'] as const
export type HandlerType = (typeof HANDLER_TYPES)[number]

export const HANDLER_EXPECTING = 'internally tagged enum HookHandlerConfig'

export function emptyHookEvents(): RawHookEvents {
  return Object.fromEntries(CODEX_EVENTS.map((event) => [event, []])) as unknown as RawHookEvents
}

/** Codex skips a file whose events are all empty lists (a group with no handlers still counts). */
export function hookEventsEmpty(events: RawHookEvents): boolean {
  return CODEX_EVENTS.every((event) => events[event].length === 0)
}
