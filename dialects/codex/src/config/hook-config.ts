import { CODEX_EVENTS } from '../events.js'

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

/** The event keys of Codex's `HookEventsToml`, in its field order (which is also the display order). */
export const HOOK_EVENT_KEYS = CODEX_EVENTS
export type HookEventKey = (typeof HOOK_EVENT_KEYS)[number]

export function isHookEventKey(key: string): key is HookEventKey {
  return (HOOK_EVENT_KEYS as readonly string[]).includes(key)
}

export type RawHookEvents = Record<HookEventKey, RawMatcherGroup[]>

export const HANDLER_TYPES = ['command', 'mcp_tool', 'prompt', 'agent'] as const
export type HandlerType = (typeof HANDLER_TYPES)[number]

export const HANDLER_EXPECTING = 'internally tagged enum HookHandlerConfig'

export function emptyHookEvents(): RawHookEvents {
  return Object.fromEntries(HOOK_EVENT_KEYS.map((event) => [event, []])) as unknown as RawHookEvents
}

/** Codex skips a file whose events are all empty lists (a group with no handlers still counts). */
export function hookEventsEmpty(events: RawHookEvents): boolean {
  return HOOK_EVENT_KEYS.every((event) => events[event].length === 0)
}
