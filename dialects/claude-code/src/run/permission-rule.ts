import { homedir } from 'node:os'
import { splitBashCommand } from './bash-command-parts.js'
import { commandGlobSource, escapeRegExp } from './glob-source.js'
import { matchesPathPattern } from './path-rule.js'

export interface PermissionRuleMatch {
  matches: boolean
  /** Set when the rule or the call could not be evaluated: the rule then fails open (`matches: true`). */
  warning?: string
}

export interface PermissionRuleOptions {
  /** The anchor of `/path` patterns; default `cwd`. */
  projectDir?: string | undefined
  /** The anchor of `~/path` patterns; default the user's home directory. */
  homeDir?: string | undefined
}

export interface ParsedPermissionRule {
  tool: string
  /** The text between the parentheses; undefined for a bare tool name. */
  content: string | undefined
}

/** The tools each file rule covers: `Edit` rules apply to every built-in tool that edits files. */
export const FILE_RULE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  Edit: ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'],
  Write: ['Write'],
  MultiEdit: ['MultiEdit'],
  NotebookEdit: ['NotebookEdit'],
  Read: ['Read'],
}

const RULE = /^([A-Za-z_][A-Za-z0-9_.*-]*)(?:\(([\s\S]*)\))?$/

/** `Tool` or `Tool(content)`, with `\(` and `\)` escaping parentheses in the content; undefined when malformed. */
export function parsePermissionRule(rule: string): ParsedPermissionRule | undefined {
  const match = RULE.exec(rule.trim())
  // Only MCP rules may use `*` in the tool name (`mcp__server__*`).
  if (match === null || (match[1]!.includes('*') && !match[1]!.startsWith('mcp__'))) return undefined
  const content = match[2]?.replace(/\\([()])/g, '$1')
  return { tool: match[1]!, content }
}

/**
 * Whether a tool call matches a handler's `if` permission rule, e.g. `Bash(git *)`, `Bash(npm run test:*)`, `Edit(src/**)`,
 * `Read`, `mcp__server__tool`, `WebFetch(domain:example.com)`. Tool names are Claude's. Like Claude Code, the filter is
 * best-effort and fails open: a rule or a call it cannot evaluate matches, with a warning.
 *
 * Bash: every simple command of a compound line is checked (leading `VAR=value` stripped, `$()` and backticks looked into);
 * `*` matches any sequence, a trailing ` *` or legacy `:*` also matches the bare prefix (`ls *` matches `ls`, not `lsof`); a
 * pattern naming more than the command matches any line with `$()`, backticks or `$VAR`.
 */
export function matchesPermissionRule(
  rule: string,
  toolName: string,
  toolInput: unknown,
  cwd: string,
  options: PermissionRuleOptions = {},
): PermissionRuleMatch {
  const parsed = parsePermissionRule(rule)
  if (parsed === undefined) return failOpen(`the \`if\` rule "${rule}" cannot be parsed`)
  if (!ruleCoversTool(parsed.tool, toolName)) return { matches: false }
  const { content } = parsed
  if (content === undefined || content === '') return { matches: true }
  if (parsed.tool === 'Bash') return matchesBashRule(rule, content, toolInput)
  if (Object.hasOwn(FILE_RULE_TOOLS, parsed.tool)) return matchesFileRule(rule, content, toolName, toolInput, cwd, options)
  if (parsed.tool === 'WebFetch') return matchesWebFetchRule(rule, content, toolInput)
  return failOpen(`the \`if\` rule "${rule}" has content the dialect cannot evaluate for ${toolName}`)
}

export function ruleCoversTool(ruleTool: string, toolName: string): boolean {
  if (ruleTool.startsWith('mcp__')) {
    const segments = ruleTool.split('__')
    // `mcp__server` covers every tool of the server, as does `mcp__server__*`.
    if (segments.length === 2 || (segments.length === 3 && segments[2] === '*')) return toolName.startsWith(`mcp__${segments[1]}__`)
    return toolName === ruleTool
  }
  return (FILE_RULE_TOOLS[ruleTool] ?? [ruleTool]).includes(toolName)
}

function matchesBashRule(rule: string, content: string, toolInput: unknown): PermissionRuleMatch {
  const command = stringField(toolInput, 'command')
  if (command === undefined) return failOpen(`the \`if\` rule "${rule}" needs tool_input.command, which is missing`)
  const pattern = bashPattern(content)
  if (pattern.regex.test(command.trim())) return { matches: true }
  const parts = splitBashCommand(command)
  if (parts === undefined) return failOpen(`the Bash command could not be parsed for the \`if\` rule "${rule}"`)
  if (parts.dynamic && !pattern.namesCommandOnly) return { matches: true }
  return { matches: parts.commands.some((simple) => pattern.regex.test(simple)) }
}

export function bashPattern(content: string): { regex: RegExp; namesCommandOnly: boolean } {
  const prefix = content.endsWith(':*') ? content.slice(0, -2) : content.endsWith(' *') ? content.slice(0, -2) : undefined
  const source =
    prefix === undefined
      ? commandGlobSource(content)
      : `${content.endsWith(':*') ? escapeRegExp(prefix) : commandGlobSource(prefix)}(?:\\s.*)?`
  const head = (prefix ?? content).trim()
  return { regex: new RegExp(`^${source}$`, 's'), namesCommandOnly: !/[\s*]/.test(head) }
}

function matchesFileRule(
  rule: string,
  content: string,
  toolName: string,
  toolInput: unknown,
  cwd: string,
  options: PermissionRuleOptions,
): PermissionRuleMatch {
  const filePath =
    (toolName === 'NotebookEdit' ? stringField(toolInput, 'notebook_path') : undefined) ?? stringField(toolInput, 'file_path')
  if (filePath === undefined) return failOpen(`the \`if\` rule "${rule}" needs tool_input.file_path, which is missing`)
  const context = { cwd, projectDir: options.projectDir ?? cwd, homeDir: options.homeDir ?? homedir() }
  return { matches: matchesPathPattern(content, filePath, context) }
}

function matchesWebFetchRule(rule: string, content: string, toolInput: unknown): PermissionRuleMatch {
  const matched = webFetchRuleCovers(content, toolInput)
  if (matched === 'unreadable-rule') return failOpen(`the \`if\` rule "${rule}" has content the dialect cannot evaluate`)
  if (matched === 'unreadable-url') return failOpen(`the \`if\` rule "${rule}" needs a valid tool_input.url`)
  return { matches: matched }
}

/** Whether a `WebFetch(domain:…)` rule covers a call's `url`, or which of the two could not be read. */
export function webFetchRuleCovers(content: string, toolInput: unknown): boolean | 'unreadable-rule' | 'unreadable-url' {
  const domain = /^domain:(.+)$/.exec(content.trim())?.[1]?.trim().toLowerCase()
  if (domain === undefined) return 'unreadable-rule'
  try {
    return domainMatches(domain, new URL(stringField(toolInput, 'url') ?? '').hostname.toLowerCase())
  } catch {
    return 'unreadable-url'
  }
}

/** A domain pattern against a host: `*.x.com` covers the subdomains of `x.com`, anything else only itself. */
export function domainMatches(pattern: string, host: string): boolean {
  return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern
}

export function stringField(input: unknown, name: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined
  const value = (input as Record<string, unknown>)[name]
  return typeof value === 'string' ? value : undefined
}

function failOpen(reason: string): PermissionRuleMatch {
  return { matches: true, warning: `${reason}; the hook runs anyway` }
}
