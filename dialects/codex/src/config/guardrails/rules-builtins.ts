import { basename, isAbsolute, resolve } from 'node:path'
import type { CommandRule } from '@harness-kernel/kernel'
import type { RulesPosition } from './rules-syntax-error.js'
import { type RulesValue, reprOf } from './rules-values.js'
import { splitShellWords } from './shell-words.js'

/** A `prefix_rule` waiting for its examples to be checked, once the whole file has run (as Codex does). */
export interface PendingRule extends RulesPosition {
  rule: CommandRule
  matches: string[][]
  notMatches: string[][]
}

/** What running a `.rules` file collects. */
export interface RulesBuilder {
  rules: PendingRule[]
  hostExecutables: Map<string, string[]>
}

interface Param {
  name: string
  type: 'list' | 'str'
  required?: boolean
}

interface Builtin {
  params: Param[]
  run(args: Map<string, RulesValue>, builder: RulesBuilder, at: RulesPosition): void
}

/** The builtins of Codex 0.169.0's rules files, with their parameters in Codex's order (positional or named). */
export const RULES_BUILTINS: Record<string, Builtin> = {
  prefix_rule: {
    params: [
      { name: 'pattern', type: 'list', required: true },
      { name: 'decision', type: 'str' },
      { name: 'match', type: 'list' },
      { name: 'not_match', type: 'list' },
      { name: 'justification', type: 'str' },
    ],
    run: prefixRule,
  },
  host_executable: {
    params: [
      { name: 'name', type: 'str', required: true },
      { name: 'paths', type: 'list', required: true },
    ],
    run: hostExecutable,
  },
  // Codex's network proxy reads these; the harness has no proxy (network is the sandbox's `networkAccess`), so they
  // are checked as Codex checks them and then left out.
  network_rule: {
    params: [
      { name: 'host', type: 'str', required: true },
      { name: 'protocol', type: 'str', required: true },
      { name: 'decision', type: 'str', required: true },
      { name: 'justification', type: 'str' },
    ],
    run: networkRule,
  },
}

/** Binds call arguments to a builtin's parameters, with Starlark's errors. */
export function bindArguments(options: {
  callee: string
  params: Param[]
  positional: RulesValue[]
  named: [string, RulesValue][]
}): Map<string, RulesValue> {
  const { callee, params, positional, named } = options
  if (positional.length > params.length) throw new Error(`Too many positional arguments for call to \`${callee}\``)
  const bound = new Map<string, RulesValue>(positional.map((value, i) => [params[i]!.name, value]))
  const extra = named.filter(([name]) => !params.some((param) => param.name === name)).map(([name]) => `\`${name}\``)
  if (extra.length > 0) throw new Error(`Found ${extra.join(', ')} extra named parameter(s) for call to ${callee}`)
  for (const [name, value] of named) {
    if (bound.has(name)) throw new Error(`Argument \`${name}\` occurs more than once`)
    bound.set(name, value)
  }
  for (const param of params) {
    const value = bound.get(param.name)
    if (value === undefined) {
      if (param.required) throw new Error(`Missing parameter \`${param.name}\` for call to \`${callee}\``)
      continue
    }
    const expected = param.type === 'list' ? 'list' : 'string'
    if (value.type !== expected)
      throw new Error(
        `Type of parameter \`${param.name}\` doesn't match, expected \`${param.type}\`, actual \`${value.type} (repr: ${reprOf(value)})\``,
      )
  }
  return bound
}

const DECISIONS = ['allow', 'prompt', 'forbidden'] as const
type Decision = (typeof DECISIONS)[number]

function parseDecision(raw: string): Decision {
  if ((DECISIONS as readonly string[]).includes(raw)) return raw as Decision
  throw new Error(`invalid decision: ${raw}`)
}

const text = (value: RulesValue | undefined) => (value?.type === 'string' ? value.value : undefined)
const items = (value: RulesValue | undefined) => (value?.type === 'list' ? value.items : undefined)

function justificationOf(value: RulesValue | undefined): string | undefined {
  const justification = text(value)
  if (justification !== undefined && justification.trim() === '') throw new Error('invalid rule: justification cannot be empty')
  return justification
}

function prefixRule(args: Map<string, RulesValue>, builder: RulesBuilder, at: RulesPosition): void {
  const raw = text(args.get('decision'))
  const decision = raw === undefined ? 'allow' : parseDecision(raw)
  const justification = justificationOf(args.get('justification'))
  const pattern = items(args.get('pattern'))!.map(patternToken)
  if (pattern.length === 0) throw new Error('invalid pattern element: pattern cannot be empty')
  const matches = (items(args.get('match')) ?? []).map(example)
  const notMatches = (items(args.get('not_match')) ?? []).map(example)
  const rule: CommandRule = { pattern, decision, ...(justification === undefined ? {} : { justification }) }
  builder.rules.push({ rule, matches, notMatches, ...at })
}

function patternToken(value: RulesValue): string | string[] {
  if (value.type === 'string') return value.value
  if (value.type !== 'list')
    throw new Error(`invalid pattern element: pattern element must be a string or list of strings (got ${value.type})`)
  const alternatives = value.items.map((item) => {
    if (item.type !== 'string') throw new Error(`invalid pattern element: pattern alternative must be a string (got ${item.type})`)
    return item.value
  })
  if (alternatives.length === 0) throw new Error('invalid pattern element: pattern alternatives cannot be empty')
  return alternatives.length === 1 ? alternatives[0]! : alternatives
}

function example(value: RulesValue): string[] {
  if (value.type === 'string') {
    const words = splitShellWords(value.value)
    if (words === undefined) throw new Error('invalid example: example string has invalid shell syntax')
    if (words.length === 0) throw new Error('invalid example: example cannot be an empty string')
    return words
  }
  if (value.type !== 'list') throw new Error(`invalid example: example must be a string or list of strings (got ${value.type})`)
  const words = value.items.map((item) => {
    if (item.type !== 'string') throw new Error(`invalid example: example tokens must be strings (got ${item.type})`)
    return item.value
  })
  if (words.length === 0) throw new Error('invalid example: example cannot be an empty list')
  return words
}

function hostExecutable(args: Map<string, RulesValue>, builder: RulesBuilder): void {
  const name = text(args.get('name'))!
  if (name === '') throw new Error('invalid rule: host_executable name cannot be empty')
  if (name.includes('/') || name === '.' || name === '..')
    throw new Error(`invalid rule: host_executable name must be a bare executable name (got ${name})`)
  const paths: string[] = []
  for (const item of items(args.get('paths'))!) {
    if (item.type !== 'string') throw new Error(`invalid rule: host_executable paths must be strings (got ${item.type})`)
    // Codex 0.169.0 takes absolute paths only (`~/…` included in the refusal).
    if (!isAbsolute(item.value)) throw new Error(`invalid rule: host_executable paths must be absolute (got ${item.value})`)
    const path = resolve(item.value)
    if (basename(path) !== name) throw new Error(`invalid rule: host_executable path \`${item.value}\` must have basename \`${name}\``)
    if (!paths.includes(path)) paths.push(path)
  }
  builder.hostExecutables.set(name, paths)
}

const NETWORK_PROTOCOLS = ['http', 'https', 'https_connect', 'http-connect', 'socks5_tcp', 'socks5_udp']

function networkRule(args: Map<string, RulesValue>): void {
  const protocol = text(args.get('protocol'))!
  if (!NETWORK_PROTOCOLS.includes(protocol))
    throw new Error(`invalid rule: network_rule protocol must be one of http, https, socks5_tcp, socks5_udp (got ${protocol})`)
  const decision = text(args.get('decision'))!
  if (decision !== 'deny') parseDecision(decision)
  justificationOf(args.get('justification'))
  const host = text(args.get('host'))!.trim()
  if (host === '') throw new Error('invalid rule: network_rule host cannot be empty')
  if (/:\/\/|[/?#]/.test(host)) throw new Error('invalid rule: network_rule host must be a hostname or IP literal (without scheme or path)')
  if (host.includes('*')) throw new Error('invalid rule: network_rule host must be a specific host; wildcards are not allowed')
}
