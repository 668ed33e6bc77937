import { parsePermissionRule } from '../run/permission-rule.js'

/**
 * A rule's tool and content, or why it is no rule. Claude Code 2.1.332 skips such entries silently (observed with
 * `Bash(rm`, `Bash(rm))`, `Bash()`, `Bash(:*)`, `Read([)`, `""`); the dialect skips them with a warning.
 */
export function checkPermissionRule(text: string): { tool: string; content: string | undefined } | { problem: string } {
  if (text.trim() === '') return { problem: 'is empty' }
  const parsed = parsePermissionRule(text)
  if (parsed === undefined) return { problem: 'is not a rule (`Tool` or `Tool(specifier)` with balanced parentheses)' }
  const content = parsed.content?.trim()
  if (content === '') return { problem: 'has nothing between its parentheses' }
  if (parsed.tool === 'Bash' && content !== undefined) {
    if (content === ':*') return { problem: 'has no command before `:*`' }
    if (content.slice(0, -2).includes(':*')) return { problem: 'uses `:*` before the end (the legacy prefix form allows it only last)' }
  }
  if (content !== undefined && /\[(?![^\]]*\])/.test(content) && parsed.tool !== 'Bash') {
    return { problem: 'has an unclosed `[` in its pattern' }
  }
  // `Tool(*)` is the whole tool, as Claude Code reads it.
  return { tool: parsed.tool, content: content === '*' ? undefined : content }
}
