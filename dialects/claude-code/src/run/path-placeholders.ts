/** The placeholders Claude Code substitutes into an exec-form `command` and `args`; nothing else is expanded there. */
export const PATH_PLACEHOLDERS = ['CLAUDE_PROJECT_DIR', 'CLAUDE_PLUGIN_ROOT', 'CLAUDE_PLUGIN_DATA'] as const

/** Replaces `${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` with their values; one without a value stays literal. */
export function substitutePathPlaceholders(text: string, env: Readonly<Record<string, string | undefined>>): string {
  let result = text
  for (const name of PATH_PLACEHOLDERS) {
    const value = env[name]
    if (value !== undefined) result = result.replaceAll(`\${${name}}`, value)
  }
  return result
}
