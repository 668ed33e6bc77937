import { CODEX_EVENTS } from '../events.js'
import {
  emptyHookEvents,
  HANDLER_EXPECTING,
  HANDLER_TYPES,
  type HandlerType,
  type RawHandlerConfig,
  type RawHookEvents,
  type RawMatcherGroup,
} from './hook-config.js'
import { type Content, contentBool, contentOptionalString, contentOptionalUnsigned, contentString, invalidType } from './serde-content.js'
import { serde } from './serde-error.js'

export function handlerType(name: string): HandlerType {
  if ((HANDLER_TYPES as readonly string[]).includes(name)) return name as HandlerType
  throw serde.unknownVariant(name, HANDLER_TYPES)
}

/** Reads a struct from a buffered map: known fields once each, unknown ones ignored, in the map's order. */
function visitFields(entries: [string, Content][], fields: Record<string, (value: Content) => void>, aliases: Record<string, string> = {}) {
  const seen = new Set<string>()
  for (const [key, value] of entries) {
    const field = aliases[key] ?? key
    const read = Object.hasOwn(fields, field) ? fields[field] : undefined
    if (!read) continue
    if (seen.has(field)) throw serde.duplicateField(field)
    seen.add(field)
    read(value)
  }
  return seen
}

/** The variant of an internally tagged handler, from the entries left once `type` was taken out. */
export function handlerFromContent(type: HandlerType, entries: [string, Content][]): RawHandlerConfig {
  switch (type) {
    case 'command': {
      let command: string | undefined
      const handler: RawHandlerConfig = {
        type: 'command',
        command: '',
        timeout: undefined,
        async: false,
        statusMessage: undefined,
        additionalContextLimit: undefined,
      }
      visitFields(
        entries,
        {
          command: (value) => {
            command = contentString(value)
          },
          commandWindows: (value) => void contentOptionalString(value),
          timeout: (value) => {
            handler.timeout = contentOptionalUnsigned(value, 'u64')
          },
          async: (value) => {
            handler.async = contentBool(value)
          },
          statusMessage: (value) => {
            handler.statusMessage = contentOptionalString(value)
          },
          additionalContextLimit: (value) => {
            handler.additionalContextLimit = contentOptionalUnsigned(value, 'usize')
          },
        },
        { command_windows: 'commandWindows' },
      )
      if (command === undefined) throw serde.missingField('command')
      handler.command = command
      return handler
    }
    case 'mcp_tool': {
      const seen = visitFields(entries, {
        server: (value) => void contentString(value),
        tool: (value) => void contentString(value),
        input: (value) => {
          if (value.kind !== 'map') throw invalidType(value, 'a map')
        },
        timeout: (value) => void contentOptionalUnsigned(value, 'u64'),
        statusMessage: (value) => void contentOptionalString(value),
      })
      for (const required of ['server', 'tool']) if (!seen.has(required)) throw serde.missingField(required)
      return { type }
    }
    default:
      return { type }
  }
}

const COMMAND_FIELDS = ['command', 'commandWindows', 'timeout', 'async', 'statusMessage', 'additionalContextLimit']
const MCP_TOOL_FIELDS = ['server', 'tool', 'input', 'timeout', 'statusMessage']

/** A handler written as a sequence (`["command", "x"]`): serde reads the tag, then the variant's fields in order. */
export function handlerFromSeq(type: HandlerType, items: Content[]): RawHandlerConfig {
  const fields = type === 'command' ? COMMAND_FIELDS : type === 'mcp_tool' ? MCP_TOOL_FIELDS : []
  const required = type === 'command' ? 1 : type === 'mcp_tool' ? 2 : 0
  if (items.length < required) {
    const variant = type === 'command' ? 'Command' : 'McpTool'
    throw serde.custom(
      `invalid length ${items.length}, expected struct variant HookHandlerConfig::${variant} with ${fields.length} elements`,
    )
  }
  return handlerFromContent(
    type,
    items.slice(0, fields.length).map((item, i) => [fields[i]!, item]),
  )
}

function matcherGroupFromContent(content: Content): RawMatcherGroup {
  const group: RawMatcherGroup = { matcher: undefined, hooks: [] }
  if (content.kind === 'seq') {
    const [matcher, hooks] = content.items
    if (matcher) group.matcher = contentOptionalString(matcher)
    if (hooks) group.hooks = handlersFromContent(hooks)
    return group
  }
  if (content.kind !== 'map') throw invalidType(content, 'struct MatcherGroup')
  visitFields(content.entries, {
    matcher: (value) => {
      group.matcher = contentOptionalString(value)
    },
    hooks: (value) => {
      group.hooks = handlersFromContent(value)
    },
  })
  return group
}

function handlersFromContent(content: Content): RawHandlerConfig[] {
  if (content.kind !== 'seq') throw invalidType(content, 'a sequence')
  return content.items.map((item) => {
    if (item.kind !== 'map') throw invalidType(item, HANDLER_EXPECTING)
    const tag = item.entries.filter(([key]) => key === 'type')
    if (tag.length === 0) throw serde.missingField('type')
    if (tag.length > 1) throw serde.duplicateField('type')
    const tagValue = tag[0]![1]
    if (tagValue.kind !== 'string') throw invalidType(tagValue, 'variant identifier')
    return handlerFromContent(
      handlerType(tagValue.value),
      item.entries.filter(([key]) => key !== 'type'),
    )
  })
}

/**
 * A `[hooks]` value from a TOML layer (config.toml, -c flags, requirements.toml) as Codex's `HookEventsToml`:
 * unknown keys (`state`, `managed_dir`, unknown events) are ignored, type errors fail the whole table.
 */
export function hookEventsFromContent(content: Content): RawHookEvents {
  const events = emptyHookEvents()
  if (content.kind !== 'map') throw invalidType(content, 'struct HookEventsToml')
  visitFields(
    content.entries,
    Object.fromEntries(
      CODEX_EVENTS.map((event) => [
        event,
        (value: Content) => {
          if (value.kind !== 'seq') throw invalidType(value, 'a sequence')
          events[event] = value.items.map(matcherGroupFromContent)
        },
      ]),
    ),
  )
  return events
}
