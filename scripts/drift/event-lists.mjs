// The hook event lists drift compares, read from source text: the Agent SDK's `HOOK_EVENTS` (sdk.d.ts), the dialects'
// `CLAUDE_EVENTS`/`CODEX_EVENTS` (events.ts), and Codex's `HookEventName` enum of its App Server schema.

/**
 * The quoted names of the list a `const NAME` declares in TypeScript source: `export const X = ['A', 'B'] as const` and
 * `export declare const X: readonly ['A', 'B']` alike.
 * @param {string} source
 * @param {string} name
 * @returns {string[]}
 */
export function constList(source, name) {
  const declaration = new RegExp(`\\bconst\\s+${name}\\b`).exec(source)
  if (!declaration) throw new Error(`no \`const ${name}\` in the source`)
  const open = source.indexOf('[', declaration.index)
  const close = source.indexOf(']', open)
  if (open < 0 || close < 0) throw new Error(`\`const ${name}\` is not a list`)
  return [...source.slice(open + 1, close).matchAll(/'([^']*)'|"([^"]*)"/g)].map((m) => m[1] ?? m[2])
}

/** A schema definition by name, at the top of `definitions` or in one of its groups (`definitions.v2`). */
export function findDefinition(schema, name) {
  const definitions = schema.definitions ?? {}
  if (definitions[name]) return definitions[name]
  for (const group of Object.values(definitions)) if (isGroup(group) && group[name]) return group[name]
  return undefined
}

/** A member of `definitions` that holds definitions (`v2`) rather than being one. */
export const isGroup = (value) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !SCHEMA_KEYWORDS.some((k) => k in value)
const SCHEMA_KEYWORDS = ['type', 'oneOf', 'anyOf', 'allOf', 'enum', 'const', '$ref', 'properties', 'items', 'title', 'description']

/** Codex's hook events as its App Server schema names them (`preToolUse`), in the dialect's spelling (`PreToolUse`). */
export function schemaHookEvents(schema) {
  const definition = findDefinition(schema, 'HookEventName')
  if (!definition?.enum) throw new Error('the schema has no HookEventName enum')
  return definition.enum.map((name) => name[0].toUpperCase() + name.slice(1))
}
