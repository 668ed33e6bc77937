const PLACEHOLDER = /\$\{([a-zA-Z_][a-zA-Z0-9_.]*)\}/g

/**
 * An `mcp_tool` handler's arguments, as Claude Code 2.1.332 forms them: every string value, at any depth (in objects and
 * arrays), has each `${path}` replaced by that dotted path's value in the hook's payload: an object or array as its
 * compact JSON, null or a missing path as '', anything else as its text. Only objects are walked into
 * (`${tool_input.command.length}` is ''). Other values, and text that is no placeholder (`${1x}`, `${ a }`, `$a`), stay
 * as they are. The payload itself is not sent unless the input names it.
 */
export function mcpToolArguments(input: Record<string, unknown> | undefined, payload: unknown): Record<string, unknown> {
  if (input === undefined) return {}
  return interpolate(input, payload) as Record<string, unknown>
}

function interpolate(value: unknown, payload: unknown): unknown {
  if (typeof value === 'string') return value.replace(PLACEHOLDER, (_whole, path: string) => placeholderText(lookup(payload, path)))
  if (Array.isArray(value)) return value.map((item) => interpolate(item, payload))
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) result[key] = interpolate(item, payload)
    return result
  }
  return value
}

function lookup(payload: unknown, path: string): unknown {
  let current = payload
  for (const key of path.split('.')) {
    if (!isPlainObject(current)) return undefined
    current = Object.hasOwn(current, key) ? current[key] : undefined
  }
  return current
}

function placeholderText(value: unknown): string {
  if (value === undefined || value === null) return ''
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
