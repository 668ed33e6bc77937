import { createHash } from 'node:crypto'

const MAX_LENGTH = 64

/**
 * `mcp__<server>__<tool>`, as both Codex and Claude Code name an MCP tool for the model: characters other than letters,
 * digits, `_` and `-` become `_`, and a name over 64 characters keeps its start and ends with a hash of the whole.
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${server}__${tool}`.replace(/[^\w-]/g, '_')
  if (name.length <= MAX_LENGTH) return name
  const hash = createHash('sha1').update(name).digest('hex').slice(0, 8)
  return `${name.slice(0, MAX_LENGTH - hash.length - 1)}_${hash}`
}
