import { CODEX_EVENTS, type CodexEvent } from '../events.js'

// Codex deserializes hook stdout with serde `deny_unknown_fields` structs. These shapes mirror them:
// `string` is `Option<String>` (null = absent), `boolean` a defaulted `bool` (null is a type error),
// `json` an `Option<Value>` (null = absent), `enum` an optional unit enum, `object` an optional struct.
type Field =
  | { type: 'string' }
  | { type: 'boolean' }
  | { type: 'json' }
  | { type: 'enum'; values: readonly string[] }
  | { type: 'object'; shape: Shape }

interface Shape {
  fields: Record<string, Field>
  required?: readonly string[]
}

const string: Field = { type: 'string' }
const boolean: Field = { type: 'boolean' }
const json: Field = { type: 'json' }
const oneOf = (...values: string[]): Field => ({ type: 'enum', values })
const object = (fields: Record<string, Field>, required: readonly string[] = []): Field => ({ type: 'object', shape: { fields, required } })

/** The events whose stdout Codex parses (SessionEnd's is read by nobody, the model-request events' are never read). */
export type ParsedEvent = Exclude<CodexEvent, 'SessionEnd' | 'PreModelRequest' | 'PostModelRequest'>

// Any event name of the parsed events is accepted, whatever the event: Codex's enum has no SessionEnd variant.
const hookEventName = oneOf(...CODEX_EVENTS.filter((event) => !['SessionEnd', 'PreModelRequest', 'PostModelRequest'].includes(event)))

const universal = { continue: boolean, stopReason: string, suppressOutput: boolean, systemMessage: string }
const contextOnly = object({ hookEventName, additionalContext: string }, ['hookEventName'])

const SHAPES: Record<ParsedEvent, Shape> = {
  PreToolUse: {
    fields: {
      ...universal,
      decision: oneOf('approve', 'block'),
      reason: string,
      hookSpecificOutput: object(
        {
          hookEventName,
          permissionDecision: oneOf('allow', 'deny', 'ask'),
          permissionDecisionReason: string,
          updatedInput: json,
          additionalContext: string,
        },
        ['hookEventName'],
      ),
    },
  },
  PermissionRequest: {
    fields: {
      ...universal,
      hookSpecificOutput: object(
        {
          hookEventName,
          decision: object(
            { behavior: oneOf('allow', 'deny'), updatedInput: json, updatedPermissions: json, message: string, interrupt: boolean },
            ['behavior'],
          ),
        },
        ['hookEventName'],
      ),
    },
  },
  PostToolUse: {
    fields: {
      ...universal,
      decision: oneOf('block'),
      reason: string,
      hookSpecificOutput: object({ hookEventName, additionalContext: string, updatedMCPToolOutput: json }, ['hookEventName']),
    },
  },
  PreCompact: { fields: universal },
  PostCompact: { fields: universal },
  SessionStart: { fields: { ...universal, hookSpecificOutput: contextOnly } },
  UserPromptSubmit: { fields: { ...universal, decision: oneOf('block'), reason: string, hookSpecificOutput: contextOnly } },
  SubagentStart: { fields: { ...universal, hookSpecificOutput: contextOnly } },
  SubagentStop: { fields: { ...universal, decision: oneOf('block'), reason: string } },
  Stop: { fields: { ...universal, decision: oneOf('block'), reason: string } },
  Interrupt: { fields: { systemMessage: string } },
}

/** A strictly validated output object: absent and null fields are both `undefined`. */
export type WireObject = { [key: string]: unknown }

/**
 * Parses trimmed stdout as the event's output object, as Codex does: any syntax error, a non-object, an unknown key
 * or a wrong type gives `undefined`. SessionEnd has no output schema, so it always gives `undefined`.
 */
export function parseWireOutput(event: ParsedEvent, trimmedStdout: string): WireObject | undefined {
  let value: unknown
  try {
    value = JSON.parse(trimmedStdout)
  } catch {
    return undefined
  }
  return checkObject(SHAPES[event], value)
}

function checkObject(shape: Shape, value: unknown): WireObject | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const out: WireObject = {}
  for (const [key, raw] of Object.entries(value)) {
    if (!Object.hasOwn(shape.fields, key)) return undefined
    const checked = checkField(shape.fields[key]!, raw)
    if (!checked.ok) return undefined
    out[key] = checked.value
  }
  for (const key of shape.required ?? []) if (out[key] === undefined) return undefined
  return out
}

function checkField(field: Field, raw: unknown): { ok: true; value: unknown } | { ok: false } {
  if (field.type === 'boolean') return typeof raw === 'boolean' ? { ok: true, value: raw } : { ok: false }
  if (raw === null) return { ok: true, value: undefined }
  switch (field.type) {
    case 'string':
      return typeof raw === 'string' ? { ok: true, value: raw } : { ok: false }
    case 'json':
      return { ok: true, value: raw }
    case 'enum':
      return typeof raw === 'string' && field.values.includes(raw) ? { ok: true, value: raw } : { ok: false }
    case 'object': {
      const value = checkObject(field.shape, raw)
      return value === undefined ? { ok: false } : { ok: true, value }
    }
  }
}
