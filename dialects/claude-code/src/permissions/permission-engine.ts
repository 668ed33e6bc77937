import { dirname, resolve } from 'node:path'
import type { PermissionMode } from '../io/payload.js'
import { stringField } from '../run/permission-rule.js'
import { bashNeedsApproval, outputRedirection } from './bash-mode-check.js'
import { bashSubcommands, type Subcommand } from './bash-subcommands.js'
import { PERMISSION_TEXTS } from './permission-texts.js'
import {
  allowRuleCovers,
  bashRuleCovers,
  filePathOf,
  type PermissionCall,
  pathRuleCovers,
  type RuleAnchors,
  restrictingRuleCovers,
  subcommandsNotAllowed,
} from './rule-match.js'
import { shellWords } from './shell-words.js'
import type { ClaudePermissionSettings, PermissionRule } from './types.js'
import { inWorkingDirectories } from './working-directories.js'

/** Claude Code's tools that edit files: Edit rules and acceptEdits cover them all. */
export const EDIT_TOOLS: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit'])
const READ_TOOLS: ReadonlySet<string> = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead'])
/** PermissionDenied's `reason` when the classifier cannot run. */
const CLASSIFIER_UNAVAILABLE = 'Classifier unavailable'

export interface PermissionContext extends RuleAnchors {
  /** The mode in force; undefined when no Claude Code setting or flag names one (then only rules decide). */
  mode: PermissionMode | undefined
  /** The cwd and `additionalDirectories`. */
  workingDirectories: readonly string[]
}

/**
 * A verdict, with what a PermissionRequest hook is offered (`permission_suggestions`; absent when a rule asked), and for
 * a refusal PermissionDenied hooks hear of, their `reason`.
 */
export type PermissionDecision =
  | { behavior: 'allow'; rule?: PermissionRule }
  | { behavior: 'deny'; message: string; rule?: PermissionRule; permissionDenied?: string }
  | { behavior: 'ask'; message: string; rule?: PermissionRule; suggestions?: unknown[] }
  | { behavior: 'passthrough' }

/** Tools a tool-wide deny takes away from the model. */
export function removedTools(settings: ClaudePermissionSettings): Set<string> {
  return new Set(settings.rules.filter((rule) => rule.behavior === 'deny' && rule.content === undefined).map((rule) => rule.tool))
}

/** The file rules that govern a tool: Read rules for the reading tools, Edit (and per-tool) rules for the editing ones. */
function fileRulesFor(rules: readonly PermissionRule[], toolName: string): PermissionRule[] {
  if (READ_TOOLS.has(toolName)) return rules.filter((rule) => rule.tool === 'Read')
  if (EDIT_TOOLS.has(toolName)) return rules.filter((rule) => rule.tool === 'Edit' || rule.tool === toolName)
  return []
}

/**
 * What Claude Code checks before any hook runs: a tool a tool-wide deny took away does not exist, and a file a Read or
 * Edit deny rule covers (as its path is written) is refused. Undefined when the call may go on to the hooks.
 */
export function checkBeforeHooks(
  settings: ClaudePermissionSettings,
  call: PermissionCall,
  context: PermissionContext,
  removed: ReadonlySet<string> = removedTools(settings),
): string | undefined {
  if (removed.has(call.toolName)) return PERMISSION_TEXTS.toolRemoved(call.toolName)
  const path = filePathOf(call, context.cwd)
  if (path === undefined) return undefined
  const denies = fileRulesFor(settings.rules, call.toolName).filter((rule) => rule.behavior === 'deny' && rule.content !== undefined)
  return denies.some((rule) => pathRuleCovers(rule, path, context, 'path')) ? PERMISSION_TEXTS.fileDenied : undefined
}

/**
 * Claude Code's decision after the PreToolUse hooks: deny rules, then ask rules (in every mode, bypassPermissions
 * included), then allow rules, then the mode. `passthrough` when no mode is named and no rule speaks.
 */
export function decidePermission(settings: ClaudePermissionSettings, call: PermissionCall, context: PermissionContext): PermissionDecision {
  if (call.toolName === 'Bash') return decideBash(settings, stringField(call.input, 'command') ?? '', context)
  const rulesOf = (behavior: PermissionRule['behavior']) => settings.rules.filter((rule) => rule.behavior === behavior)
  const path = filePathOf(call, context.cwd)
  const denied = rulesOf('deny').find((rule) => restrictingRuleCovers(rule, call, context))
  if (denied !== undefined) {
    const message =
      denied.content === undefined
        ? PERMISSION_TEXTS.toolRemoved(call.toolName)
        : path !== undefined && (READ_TOOLS.has(call.toolName) || EDIT_TOOLS.has(call.toolName))
          ? PERMISSION_TEXTS.fileDenied
          : PERMISSION_TEXTS.toolDenied(call.toolName)
    return { behavior: 'deny', message, rule: denied }
  }
  if (path !== undefined) {
    // A link to a denied file: refused after the hooks, naming the link (observed for Read).
    const throughLink = fileRulesFor(rulesOf('deny'), call.toolName).find((rule) => pathRuleCovers(rule, path, context, 'target'))
    if (throughLink !== undefined) {
      const message = READ_TOOLS.has(call.toolName) ? PERMISSION_TEXTS.readDenied(path) : PERMISSION_TEXTS.fileDenied
      return { behavior: 'deny', message, rule: throughLink }
    }
  }
  const asked = rulesOf('ask').find((rule) => restrictingRuleCovers(rule, call, context))
  if (asked !== undefined) return { behavior: 'ask', message: askMessage(call, context), rule: asked }
  const allowed = rulesOf('allow').find((rule) => allowRuleCovers(rule, call, context))
  if (allowed !== undefined) return { behavior: 'allow', rule: allowed }
  return decideByMode(call, context, needsApproval(call, context))
}

function decideBash(settings: ClaudePermissionSettings, command: string, context: PermissionContext): PermissionDecision {
  const bashRules = (behavior: PermissionRule['behavior']) =>
    settings.rules.filter((rule) => rule.behavior === behavior && rule.tool === 'Bash')
  let inScript: PermissionRule | undefined
  for (const rule of bashRules('deny')) {
    const hit = bashRuleCovers(rule, command)
    if (hit?.where === 'line') {
      if (rule.content === undefined) return { behavior: 'deny', message: PERMISSION_TEXTS.toolRemoved('Bash'), rule }
      const named = hit.part !== undefined && hasTopLevelPipe(command) ? hit.part : command
      return { behavior: 'deny', message: PERMISSION_TEXTS.bashDenied(named), rule }
    }
    if (hit?.where === 'shellScript') inScript ??= rule
  }
  const parts = bashSubcommands(command)
  const readDenied = readDenyCovering(settings, parts ?? [], context)
  if (readDenied !== undefined) return { behavior: 'deny', message: PERMISSION_TEXTS.bashDenied(command), rule: readDenied }
  if (inScript !== undefined) {
    return { behavior: 'ask', message: PERMISSION_TEXTS.deniedInShellScript, rule: inScript, suggestions: [] }
  }
  const asked = bashRules('ask').find((rule) => bashRuleCovers(rule, command) !== undefined)
  if (asked !== undefined) return { behavior: 'ask', message: PERMISSION_TEXTS.notGranted('Bash'), rule: asked }
  const allows = bashRules('allow')
  // An allow rule covers a command, not where it writes: a part with an output redirection is still checked (observed:
  // `Bash(echo:*)` and `echo a > o.txt` asks).
  const uncovered = allows.length === 0 ? parts : subcommandsNotAllowed(allows, command)
  const left =
    uncovered === undefined
      ? undefined
      : [
          ...uncovered,
          ...(parts ?? []).filter(
            (part) => !uncovered.some((left) => left.text === part.text) && outputRedirection(part.text, context.cwd) !== undefined,
          ),
        ]
  if (allows.length > 0 && left !== undefined && left.length === 0) return { behavior: 'allow', rule: allows[0]! }
  const call = { toolName: 'Bash', input: { command } }
  if (context.mode === undefined || context.mode === 'bypassPermissions') return decideByMode(call, context, undefined)
  const acceptEdits = context.mode === 'acceptEdits' || context.mode === 'auto'
  const needed = bashNeedsApproval(command, { cwd: context.cwd, workingDirectories: context.workingDirectories, acceptEdits }, left)
  return decideByMode(call, context, needed)
}

/**
 * A Read deny rule covering a file a command names (an argument or a `<` redirection): Claude Code refuses the command
 * (observed for `cat`, `head`, `cat <`, `cp`). Globs are not expanded, as Claude Code does not.
 */
function readDenyCovering(
  settings: ClaudePermissionSettings,
  parts: readonly Subcommand[],
  context: PermissionContext,
): PermissionRule | undefined {
  const denies = settings.rules.filter((rule) => rule.behavior === 'deny' && rule.tool === 'Read' && rule.content !== undefined)
  if (denies.length === 0) return undefined
  for (const part of parts) {
    const words = shellWords(part.text.replace(/<\s*/g, ' ')) ?? []
    const pattern = searchPatternIndex(words.map((word) => word.text))
    for (const [index, word] of words.entries()) {
      if (index === 0 || index === pattern || word.text.startsWith('-') || /[*?[]/.test(word.text)) continue
      const path = resolve(context.cwd, word.text)
      const hit = denies.find((rule) => pathRuleCovers(rule, path, context, 'path') || pathRuleCovers(rule, path, context, 'target'))
      if (hit !== undefined) return hit
    }
  }
  return undefined
}

const SEARCHES: ReadonlySet<string> = new Set(['grep', 'egrep', 'fgrep', 'rg'])

/** Where a search command's pattern is (its first operand, unless `-e`/`-f` gave it): a pattern is not a file. */
function searchPatternIndex(words: readonly string[]): number | undefined {
  const at = words.findIndex((word) => SEARCHES.has(word.split('/').at(-1) ?? ''))
  if (at < 0 || words.slice(at + 1).some((word) => /^-(e|f)$|^--(regexp|file)(=|$)/.test(word))) return undefined
  const operand = words.findIndex((word, index) => index > at && !word.startsWith('-'))
  return operand < 0 ? undefined : operand
}

/** Whether the line is a pipeline at its top level (a `|` outside quotes, not `||`). */
function hasTopLevelPipe(command: string): boolean {
  let quote: string | undefined
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!
    if (quote !== undefined) {
      if (char === quote) quote = undefined
      else if (char === '\\' && quote === '"') index++
    } else if (char === "'" || char === '"') quote = char
    else if (char === '\\') index++
    else if (char === '|' && command[index + 1] !== '|' && command[index - 1] !== '|') return true
  }
  return false
}

function decideByMode(
  call: PermissionCall,
  context: PermissionContext,
  ask: { message: string; suggestions: unknown[] } | undefined,
): PermissionDecision {
  const { mode } = context
  if (mode === undefined) return { behavior: 'passthrough' }
  if (mode === 'bypassPermissions' || ask === undefined) return { behavior: 'allow' }
  if (mode === 'dontAsk') return { behavior: 'deny', message: PERMISSION_TEXTS.dontAsk(call.toolName) }
  if (mode === 'plan' && EDIT_TOOLS.has(call.toolName)) {
    const path = filePathOf(call, context.cwd)
    return { behavior: 'ask', message: path === undefined ? PERMISSION_TEXTS.notGranted(call.toolName) : PERMISSION_TEXTS.planWrite(path) }
  }
  // auto and plan hand what needs approval to Claude Code's classifier; the kernel has none, so it is refused as
  // Claude Code refuses it when its classifier cannot run, and PermissionDenied hooks hear of it.
  if (mode === 'auto' || mode === 'plan') {
    return { behavior: 'deny', message: PERMISSION_TEXTS.classifierUnavailable(call.toolName), permissionDenied: CLASSIFIER_UNAVAILABLE }
  }
  return { behavior: 'ask', ...ask }
}

/** What a prompting mode asks about (other than Bash), and why; undefined when the call needs no approval. */
function needsApproval(call: PermissionCall, context: PermissionContext): { message: string; suggestions: unknown[] } | undefined {
  const { toolName } = call
  const acceptEdits = context.mode === 'acceptEdits' || context.mode === 'auto'
  const setMode = { type: 'setMode', mode: 'acceptEdits', destination: 'session' }
  const path = filePathOf(call, context.cwd)
  if (EDIT_TOOLS.has(toolName)) {
    if (path === undefined) return { message: PERMISSION_TEXTS.notGranted(toolName), suggestions: [setMode] }
    const inside = inWorkingDirectories(path, context.workingDirectories)
    if (acceptEdits && inside) return undefined
    const addDirectory = { type: 'addDirectories', directories: [dirname(path)], destination: 'session' }
    const suggestions = inside ? [setMode] : acceptEdits ? [addDirectory] : [setMode, addDirectory]
    return { message: PERMISSION_TEXTS.notGrantedWrite(path), suggestions }
  }
  if (READ_TOOLS.has(toolName)) {
    if (path === undefined || inWorkingDirectories(path, context.workingDirectories)) return undefined
    return {
      message: PERMISSION_TEXTS.notGrantedRead(path),
      suggestions: [{ type: 'addDirectories', directories: [dirname(path)], destination: 'session' }],
    }
  }
  if (toolName === 'WebFetch' || toolName.startsWith('mcp__')) {
    return {
      message: PERMISSION_TEXTS.notGranted(toolName),
      suggestions: [{ type: 'addRules', rules: [{ toolName }], behavior: 'allow', destination: 'localSettings' }],
    }
  }
  return undefined
}

/** What an ask rule's prompt says (and the model is told when nobody answers). */
function askMessage(call: PermissionCall, context: PermissionContext): string {
  const path = filePathOf(call, context.cwd)
  if (path !== undefined && EDIT_TOOLS.has(call.toolName)) return PERMISSION_TEXTS.notGrantedWrite(path)
  if (path !== undefined && READ_TOOLS.has(call.toolName)) return PERMISSION_TEXTS.notGrantedRead(path)
  return PERMISSION_TEXTS.notGranted(call.toolName)
}
