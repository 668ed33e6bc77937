import { TOOL_EVENTS } from '../events.js'
import type {
  ClaudeHandler,
  ClaudeHookSource,
  CommandHandler,
  HttpHandler,
  McpToolHandler,
  PromptHandler,
  UnsupportedHandler,
} from '../types.js'
import { HandlerFields } from './handler-fields.js'
import { describeJsonType, isJsonObject, type JsonObject } from './json-value.js'
import type { PluginIdentity } from './plugin-hooks-file.js'

/** Where one handler sits in its file; the indices are positions as written, so keys stay stable when a sibling is skipped. */
export interface HandlerSite {
  source: ClaudeHookSource
  sourcePath: string
  plugin: PluginIdentity | undefined
  event: string
  matcher: string | undefined
  groupIndex: number
  handlerIndex: number
}

type Common = Omit<CommandHandler, 'type' | 'command' | 'args' | 'shell' | 'async'>

const COMMON_FIELDS = ['type', 'timeout', 'if', 'statusMessage', 'once']

/** The fields Claude Code documents per handler type, beyond the common ones; anything else is tolerated and reported. */
const TYPE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  command: ['command', 'args', 'async', 'asyncRewake', 'shell'],
  http: ['url', 'headers', 'allowedEnvVars'],
  prompt: ['prompt', 'model', 'continueOnBlock'],
  agent: ['prompt', 'model'],
  mcp_tool: ['server', 'tool', 'input', 'onFailure'],
}

const SHELLS = ['bash', 'powershell'] as const

function handlerLocation(site: HandlerSite): string {
  return `${site.sourcePath}: hooks.${site.event}[${site.groupIndex}].hooks[${site.handlerIndex}]`
}

/**
 * One handler object as configured. A malformed one (a required field missing, a field of the wrong type) is skipped
 * with a warning naming where it is; `agent` and unknown types load as UnsupportedHandler.
 */
export function parseHandler(raw: unknown, site: HandlerSite, warnings: string[]): ClaudeHandler | undefined {
  const where = handlerLocation(site)
  if (!isJsonObject(raw)) {
    warnings.push(`${where}: a handler must be an object, got ${describeJsonType(raw)}; skipped`)
    return undefined
  }
  if (typeof raw.type !== 'string') {
    warnings.push(`${where}: "type" must be a string, got ${describeJsonType(raw.type)}; skipped`)
    return undefined
  }
  const type = raw.type
  const typeFields = Object.hasOwn(TYPE_FIELDS, type) ? TYPE_FIELDS[type] : undefined
  const fields = new HandlerFields(raw)
  const ifRule = fields.string('if')
  const ifApplies = TOOL_EVENTS.has(site.event)
  const common: Common = {
    key: `${site.sourcePath}:${site.event}:${site.groupIndex}:${site.handlerIndex}`,
    event: site.event,
    matcher: site.matcher,
    timeoutSec: fields.positiveNumber('timeout'),
    if: ifRule,
    statusMessage: fields.string('statusMessage'),
    source: site.source,
    sourcePath: site.sourcePath,
    groupIndex: site.groupIndex,
    handlerIndex: site.handlerIndex,
    ...(site.plugin && { plugin: site.plugin }),
    // An unknown type's fields are its own business: the type is what gets reported.
    unknownFields: typeFields ? Object.keys(raw).filter((key) => !COMMON_FIELDS.includes(key) && !typeFields.includes(key)) : [],
  }
  fields.boolean('once')
  const handler = typedHandler(type, raw, fields, common)
  if (fields.problems.length > 0) {
    warnings.push(`${where}: ${fields.problems.join('; ')}; skipped`)
    return undefined
  }

  if (!typeFields) warnings.push(`${where}: unknown handler type ${JSON.stringify(type)}; listed, never run`)
  if (common.unknownFields.length > 0) {
    warnings.push(`${where}: unknown field(s) ${common.unknownFields.map((key) => JSON.stringify(key)).join(', ')} ignored`)
  }
  if (ifRule !== undefined && !ifApplies) {
    warnings.push(
      `${where}: "if" applies only to tool events (${[...TOOL_EVENTS].join(', ')}); Claude Code never runs this handler on ${site.event}, so neither does the dialect`,
    )
  }
  if (type === 'command' && raw.asyncRewake === true) {
    warnings.push(`${where}: "asyncRewake" is not supported: the hook runs async and its exit code 2 does not wake the model`)
  }
  return handler
}

function typedHandler(type: string, raw: JsonObject, fields: HandlerFields, common: Common): ClaudeHandler {
  switch (type) {
    case 'command':
      return {
        ...common,
        type: 'command',
        command: fields.requiredString('command'),
        args: fields.stringArray('args'),
        shell: fields.oneOf('shell', SHELLS),
        // asyncRewake implies async; its wake-up is what the kernel lacks.
        async: (fields.boolean('async') ?? false) || fields.boolean('asyncRewake') === true,
      } satisfies CommandHandler
    case 'http':
      return {
        ...common,
        type: 'http',
        url: fields.url('url'),
        headers: fields.stringRecord('headers') ?? {},
        allowedEnvVars: fields.stringArray('allowedEnvVars') ?? [],
      } satisfies HttpHandler
    case 'prompt':
      return {
        ...common,
        type: 'prompt',
        prompt: fields.requiredString('prompt'),
        model: fields.string('model'),
        continueOnBlock: fields.boolean('continueOnBlock') ?? false,
      } satisfies PromptHandler
    case 'mcp_tool':
      return {
        ...common,
        type: 'mcp_tool',
        server: fields.requiredString('server'),
        tool: fields.requiredString('tool'),
        input: fields.object('input'),
        // Claude Code 2.1.332's schema: `continue` is itself, any other value (even a non-string) reads as `block`.
        onFailure: raw.onFailure === undefined || raw.onFailure === 'continue' ? 'continue' : 'block',
      } satisfies McpToolHandler
    default:
      return { ...common, type, raw } satisfies UnsupportedHandler
  }
}
