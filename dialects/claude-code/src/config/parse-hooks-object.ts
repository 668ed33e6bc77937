import { isClaudeEvent } from '../events.js'
import type { ClaudeHandler, ClaudeHookSource } from '../types.js'
import { describeJsonType, isJsonObject, type JsonObject } from './json-value.js'
import { parseHandler } from './parse-handler.js'
import type { PluginIdentity } from './plugin-hooks-file.js'

export interface HooksFileSite {
  source: ClaudeHookSource
  sourcePath: string
  plugin: PluginIdentity | undefined
}

/**
 * A file's `hooks` object, `{ "<Event>": [ { "matcher"?, "hooks": [handler…] } ] }`, as handlers in config order
 * (events in key order, then groups, then handlers). Unknown events load (and are dropped later); a malformed event
 * entry, group or handler is skipped with a warning and the rest of the file still loads.
 */
export function parseHooksObject(hooks: JsonObject, file: HooksFileSite, warnings: string[]): ClaudeHandler[] {
  const handlers: ClaudeHandler[] = []
  for (const [event, groups] of Object.entries(hooks)) {
    if (!isClaudeEvent(event)) warnings.push(`${file.sourcePath}: unknown event ${JSON.stringify(event)}; its hooks are listed, never run`)
    if (!Array.isArray(groups)) {
      warnings.push(`${file.sourcePath}: hooks.${event} must be an array of matcher groups, got ${describeJsonType(groups)}; skipped`)
      continue
    }
    groups.forEach((group, groupIndex) => {
      handlers.push(...parseMatcherGroup(group, file, event, groupIndex, warnings))
    })
  }
  return handlers
}

function parseMatcherGroup(group: unknown, file: HooksFileSite, event: string, groupIndex: number, warnings: string[]): ClaudeHandler[] {
  const where = `${file.sourcePath}: hooks.${event}[${groupIndex}]`
  if (!isJsonObject(group)) {
    warnings.push(`${where}: a matcher group must be an object, got ${describeJsonType(group)}; skipped`)
    return []
  }
  const { matcher, hooks } = group
  if (matcher !== undefined && typeof matcher !== 'string') {
    warnings.push(`${where}: "matcher" must be a string, got ${describeJsonType(matcher)}; group skipped`)
    return []
  }
  if (!Array.isArray(hooks)) {
    warnings.push(`${where}: "hooks" must be an array of handlers, got ${describeJsonType(hooks)}; group skipped`)
    return []
  }
  const unknownKeys = Object.keys(group).filter((key) => key !== 'matcher' && key !== 'hooks')
  if (unknownKeys.length > 0)
    warnings.push(`${where}: unknown field(s) ${unknownKeys.map((key) => JSON.stringify(key)).join(', ')} ignored`)
  return hooks.flatMap((raw, handlerIndex) => {
    const handler = parseHandler(raw, { ...file, event, matcher, groupIndex, handlerIndex }, warnings)
    return handler ? [handler] : []
  })
}
