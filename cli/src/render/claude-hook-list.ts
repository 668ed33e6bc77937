import {
  CLAUDE_EVENTS,
  type ClaudeHandler,
  type ClaudeHookSource,
  handlerTimeoutSec,
  isCommandHandler,
  isHttpHandler,
  isMcpToolHandler,
  isPromptHandler,
  isRunnableType,
  type LoadedClaudeCodeHooks,
  type SettingsSourceReport,
} from '@harness-kernel/claude-code'
import type { ClaudeCodeSetup } from '../claude-code/claude-code-setup.js'
import type { Style } from '../style.js'
import { firstLine, indent } from '../text.js'

/** One Claude Code handler as `harness hooks list --json` reports it. Type-specific fields are present for their type only. */
export interface ClaudeHookListEntry {
  key: string
  event: string
  /** As configured; null when absent (matches everything). */
  matcher: string | null
  type: string
  /** command: the command string; http: the URL; prompt: the prompt; other types: null. */
  run: string | null
  command?: string
  args?: string[] | null
  shell?: string | null
  async?: boolean
  url?: string
  /** The names of the configured headers (their values may hold secrets). */
  headerNames?: string[]
  allowedEnvVars?: string[]
  prompt?: string
  model?: string | null
  continueOnBlock?: boolean
  /** The timeout it runs with, seconds (the configured one, else the default for its type and event); null for types not run. */
  timeoutSec: number | null
  /** Whether `timeout` is configured (else `timeoutSec` is the default). */
  timeoutConfigured: boolean
  if: string | null
  statusMessage: string | null
  source: ClaudeHookSource
  sourcePath: string
  plugin: { name: string; root: string; data: string } | null
  unknownFields: string[]
}

export interface ClaudeHookListJson {
  dialect: 'claude-code'
  projectDir: string
  configDir: string
  managedSettingsPath: string
  /** The handlers that may run, in load order. */
  hooks: ClaudeHookListEntry[]
  /** The handlers that will never run, and why. */
  dropped: (ClaudeHookListEntry & { reason: string })[]
  sources: SettingsSourceReport[]
  settings: LoadedClaudeCodeHooks['settings']
  warnings: string[]
}

export function claudeHookListEntry(handler: ClaudeHandler): ClaudeHookListEntry {
  const runnable = isRunnableType(handler)
  const entry: ClaudeHookListEntry = {
    key: handler.key,
    event: handler.event,
    matcher: handler.matcher ?? null,
    type: handler.type,
    run: runText(handler) ?? null,
    timeoutSec: runnable ? handlerTimeoutSec(handler) : (handler.timeoutSec ?? null),
    timeoutConfigured: handler.timeoutSec !== undefined,
    if: handler.if ?? null,
    statusMessage: handler.statusMessage ?? null,
    source: handler.source,
    sourcePath: handler.sourcePath,
    plugin: handler.plugin ?? null,
    unknownFields: handler.unknownFields,
  }
  if (isCommandHandler(handler)) {
    return { ...entry, command: handler.command, args: handler.args ?? null, shell: handler.shell ?? null, async: handler.async }
  }
  if (isHttpHandler(handler)) {
    return { ...entry, url: handler.url, headerNames: Object.keys(handler.headers), allowedEnvVars: handler.allowedEnvVars }
  }
  if (isPromptHandler(handler)) {
    return { ...entry, prompt: handler.prompt, model: handler.model ?? null, continueOnBlock: handler.continueOnBlock }
  }
  return entry
}

export function claudeHookListJson(loaded: LoadedClaudeCodeHooks, setup: ClaudeCodeSetup): ClaudeHookListJson {
  return {
    dialect: 'claude-code',
    projectDir: loaded.projectDir,
    configDir: setup.configDir,
    managedSettingsPath: setup.managedSettingsPath,
    hooks: loaded.handlers.map(claudeHookListEntry),
    dropped: loaded.dropped.map(({ handler, reason }) => ({ ...claudeHookListEntry(handler), reason })),
    sources: loaded.sources,
    settings: loaded.settings,
    warnings: loaded.warnings,
  }
}

const HEADERS = ['MATCHER', 'TYPE', 'TIMEOUT', 'SOURCE', 'RUNS'] as const

/**
 * The sources read, then the handlers that may run grouped by event (Claude Code's event order, load order within),
 * each with its key (and `if`, plugin, status message) below its row; then every dropped handler with its reason,
 * the hook settings in effect, and the load warnings.
 */
export function renderClaudeHookList(loaded: LoadedClaudeCodeHooks, setup: ClaudeCodeSetup, style: Style): string {
  const lines = [`Claude Code hooks for ${loaded.projectDir} (config dir ${setup.configDir})`, '', 'sources:']
  const sourceWidth = Math.max(...loaded.sources.map((source) => source.source.length), 0)
  for (const source of loaded.sources) lines.push(indent(`${source.source.padEnd(sourceWidth)}  ${sourceState(source, style)}`))

  const handlers = loaded.handlers
  if (handlers.length === 0) lines.push('', 'no Claude Code hooks that run')
  const rows = handlers.map((handler) => [
    handler.matcher ?? '-',
    isCommandHandler(handler) && handler.async ? 'command async' : handler.type,
    timeoutCell(handler),
    handler.source,
    firstLine(runText(handler) ?? '-', 100),
  ])
  const widths = HEADERS.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)))
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd()
  const events = [...CLAUDE_EVENTS, ...new Set(handlers.map((handler) => handler.event))]
  for (const event of new Set(events)) {
    const group = handlers.filter((handler) => handler.event === event)
    if (group.length === 0) continue
    lines.push('', style.bold(event), indent(style.dim(line(HEADERS))))
    for (const handler of group) {
      lines.push(indent(line(rows[handlers.indexOf(handler)]!)), ...details(handler).map((detail) => indent(detail, '    ')))
    }
  }

  if (loaded.dropped.length > 0) {
    const count = loaded.dropped.length === 1 ? '1 handler' : `${loaded.dropped.length} handlers`
    lines.push('', style.yellow(`dropped: ${count} will not run`))
    for (const { handler, reason } of loaded.dropped) {
      const what = [handler.event, handler.matcher === undefined ? undefined : `matcher ${handler.matcher}`, handler.type, handler.source]
      lines.push(
        indent(`${what.filter((part) => part !== undefined).join(', ')}: ${firstLine(runText(handler) ?? '-', 100)}`),
        indent(`key     ${handler.key}`, '    '),
        indent(`reason  ${reason}`, '    '),
      )
    }
  }
  const settings = settingsLines(loaded.settings)
  if (settings.length > 0) lines.push('', 'settings:', ...settings.map((text) => indent(text)))
  if (loaded.warnings.length > 0) {
    lines.push('', style.yellow('warnings:'))
    for (const warning of loaded.warnings) lines.push(indent(`- ${indent(warning).trimStart()}`))
  }
  return lines.join('\n')
}

/** What a handler runs: its command string, URL or prompt. */
export function runText(handler: ClaudeHandler): string | undefined {
  if (isCommandHandler(handler)) {
    return handler.args === undefined ? handler.command : [handler.command, ...handler.args].map(quoteArg).join(' ')
  }
  if (isHttpHandler(handler)) return `POST ${handler.url}`
  if (isPromptHandler(handler)) return handler.prompt
  if (isMcpToolHandler(handler)) return `${handler.server}/${handler.tool}`
  const raw = (handler as { raw?: Record<string, unknown> }).raw
  const text = raw?.prompt ?? raw?.command ?? raw?.tool
  return typeof text === 'string' ? text : undefined
}

function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`
}

function sourceState(source: SettingsSourceReport, style: Style): string {
  if (source.error !== undefined) return `${style.red('error')}      ${source.path}: ${indent(source.error, '  ').trimStart()}`
  return `${source.found ? 'found    ' : style.dim('not found')}  ${source.path}`
}

function timeoutCell(handler: ClaudeHandler): string {
  return `${handlerTimeoutSec(handler)}s`
}

function details(handler: ClaudeHandler): string[] {
  const lines = [`key      ${handler.key}`]
  if (handler.if !== undefined) lines.push(`if       ${handler.if}`)
  if (handler.plugin !== undefined) lines.push(`plugin   ${handler.plugin.name} (${handler.plugin.root})`)
  if (handler.statusMessage !== undefined) lines.push(`status   ${handler.statusMessage}`)
  const text = runText(handler) ?? ''
  if (text.includes('\n') || text.length > 100) lines.push(`runs     ${indent(text, '         ').trimStart()}`)
  if (handler.unknownFields.length > 0) lines.push(`ignored  ${handler.unknownFields.join(', ')} (unknown fields)`)
  return lines
}

function settingsLines(settings: LoadedClaudeCodeHooks['settings']): string[] {
  const lines: string[] = []
  if (settings.disableAllHooks) lines.push('disableAllHooks = true')
  if (settings.allowManagedHooksOnly) lines.push('allowManagedHooksOnly = true: only managed hooks run')
  if (settings.allowedHttpHookUrls !== undefined) lines.push(`allowedHttpHookUrls = ${JSON.stringify(settings.allowedHttpHookUrls)}`)
  if (settings.httpHookAllowedEnvVars !== undefined)
    lines.push(`httpHookAllowedEnvVars = ${JSON.stringify(settings.httpHookAllowedEnvVars)}`)
  return lines
}
