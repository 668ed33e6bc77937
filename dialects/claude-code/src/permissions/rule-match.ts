import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { resolveThroughLinks } from '@harness-kernel/kernel'
import { matchesPathPattern } from '../run/path-rule.js'
import { bashPattern, FILE_RULE_TOOLS, ruleCoversTool, stringField, webFetchRuleCovers } from '../run/permission-rule.js'
import { bashSubcommands, roughSubcommands, type Subcommand } from './bash-subcommands.js'
import type { PermissionRule } from './types.js'

/** A call as Claude Code's permissions see it: Claude's tool name and input shape. */
export interface PermissionCall {
  toolName: string
  input: unknown
}

export interface RuleAnchors {
  /** The anchor of `path` and `./path`, and what relative `file_path`s resolve against. */
  cwd: string
  homeDir?: string | undefined
}

/** Tools a Read rule also covers (their `path`): Claude Code applies Read rules to its search tools. */
const READ_LIKE: ReadonlySet<string> = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead'])

/** The file a file tool reads or writes, absolute; undefined for a call that names none. */
export function filePathOf(call: PermissionCall, cwd: string): string | undefined {
  const path = stringField(call.input, 'file_path') ?? stringField(call.input, 'notebook_path') ?? stringField(call.input, 'path')
  return path === undefined ? undefined : resolve(cwd, path)
}

/** Whether a file rule's pattern covers a path, as written (`through: 'path'`) or where its links lead (`'target'`). */
export function pathRuleCovers(rule: PermissionRule, path: string, anchors: RuleAnchors, through: 'path' | 'target'): boolean {
  if (rule.content === undefined) return true
  const context = { cwd: anchors.cwd, projectDir: rule.root, homeDir: anchors.homeDir ?? homedir() }
  return matchesPathPattern(rule.content, through === 'path' ? path : resolveThroughLinks(path), context)
}

/**
 * Where a Bash deny or ask rule covers a line: in the line itself (`part` names the pipeline segment it is in when the
 * line is a pipeline, as Claude Code names it), or only in a `sh -c` script inside it (Claude Code then asks rather than
 * denies). Undefined when it does not. The rule is read wide: any subcommand, in any of its forms.
 */
export function bashRuleCovers(rule: PermissionRule, command: string): { where: 'line' | 'shellScript'; part?: string } | undefined {
  if (rule.content === undefined) return { where: 'line' }
  const { regex } = bashPattern(rule.content)
  if (regex.test(command.trim())) return { where: 'line' }
  const parts = bashSubcommands(command)
  if (parts === undefined) return roughSubcommands(command).some((form) => regex.test(form)) ? { where: 'line' } : undefined
  const hit = parts.find((part) => part.denyForms.some((form) => regex.test(form)))
  if (hit === undefined) return undefined
  return hit.inShellScript ? { where: 'shellScript' } : { where: 'line', part: hit.text }
}

/**
 * Whether a deny or ask rule other than a Bash one covers a call; a rule the dialect cannot evaluate for it covers it.
 * File rules are matched on the path as written (see `pathRuleCovers` for links).
 */
export function restrictingRuleCovers(rule: PermissionRule, call: PermissionCall, anchors: RuleAnchors): boolean {
  if (!covers(rule, call.toolName)) return false
  if (rule.content === undefined) return true
  if (rule.tool === 'Bash') {
    const command = stringField(call.input, 'command')
    return command === undefined || bashRuleCovers(rule, command) !== undefined
  }
  return contentMatches(rule, call, anchors) ?? true
}

/** Whether an allow rule other than a Bash one covers a call; in doubt, it does not. */
export function allowRuleCovers(rule: PermissionRule, call: PermissionCall, anchors: RuleAnchors): boolean {
  if (!covers(rule, call.toolName) || rule.tool === 'Bash') return false
  if (rule.content === undefined) return true
  return contentMatches(rule, call, anchors) ?? false
}

/**
 * The subcommands of a Bash line no allow rule covers (each may be covered by another rule; a wrapper is looked
 * through; a `sh -c` wrapper a rule allows covers its whole script). Undefined when the line cannot be parsed.
 */
export function subcommandsNotAllowed(rules: readonly PermissionRule[], command: string): Subcommand[] | undefined {
  const parts = bashSubcommands(command)
  if (parts === undefined) return undefined
  if (rules.some((rule) => rule.content === undefined)) return []
  const patterns = rules.map((rule) => bashPattern(rule.content!).regex)
  const allowed = (part: Subcommand) => part.allowForms.some((form) => patterns.some((regex) => regex.test(form)))
  const left: Subcommand[] = []
  let scriptCovered = false
  for (const part of parts) {
    if (part.inShellScript && scriptCovered) continue
    scriptCovered = false
    if (part.shellWrapper) {
      scriptCovered = allowed(part)
      continue
    }
    if (!allowed(part)) left.push(part)
  }
  return left
}

function covers(rule: PermissionRule, toolName: string): boolean {
  if (rule.tool === 'Agent' || rule.tool === 'Task') return toolName === 'Agent' || toolName === 'Task'
  if (rule.tool === 'Read') return READ_LIKE.has(toolName)
  return ruleCoversTool(rule.tool, toolName)
}

/** Whether a rule's content matches the call; undefined when the dialect cannot tell. */
function contentMatches(rule: PermissionRule, call: PermissionCall, anchors: RuleAnchors): boolean | undefined {
  const content = rule.content!
  if (Object.hasOwn(FILE_RULE_TOOLS, rule.tool)) {
    const path = filePathOf(call, anchors.cwd)
    return path === undefined ? undefined : pathRuleCovers(rule, path, anchors, 'path')
  }
  if (rule.tool === 'WebFetch') {
    const matched = webFetchRuleCovers(content, call.input)
    return typeof matched === 'boolean' ? matched : undefined
  }
  if (rule.tool === 'Agent' || rule.tool === 'Task') return stringField(call.input, 'subagent_type') === content.trim()
  return undefined
}
