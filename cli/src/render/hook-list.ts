import {
  CODEX_EVENTS,
  type CodexEvent,
  type CodexHandler,
  eventCamel,
  type LoadedCodexHooks,
  type TrustStatus,
  type UntrustedProject,
  untrustedProjectReason,
} from '@harness-kernel/codex'
import type { Style } from '../style.js'
import { indent } from '../text.js'

/** One handler as Codex's `hooks/list` reports it (`HookMetadata`), plus its PascalCase `event`. */
export interface HookListEntry {
  key: string
  event: CodexEvent
  eventName: string
  handlerType: 'command'
  command: string
  async: boolean
  matcher: string | null
  timeoutSec: number
  statusMessage: string | null
  additionalContextLimit: number | null
  sourcePath: string
  source: string
  pluginId: null
  environmentId: null
  displayOrder: number
  enabled: boolean
  isManaged: boolean
  currentHash: string
  trustStatus: TrustStatus
}

export interface HookListJson {
  dialect: 'codex'
  hooks: HookListEntry[]
  warnings: string[]
  featureEnabled: boolean
  codexHome: string
  /** The harness's own trust store, read after Codex's config.toml. */
  trustStorePath: string
  /** The project whose `.codex/` hooks are not loaded because Codex does not trust it (`harness hooks trust --project`), or null. */
  untrustedProject: UntrustedProject | null
}

export function hookListEntry(handler: CodexHandler): HookListEntry {
  return {
    key: handler.key,
    event: handler.event,
    eventName: eventCamel(handler.event),
    handlerType: 'command',
    command: handler.command,
    async: handler.async,
    matcher: handler.matcher ?? null,
    timeoutSec: handler.timeoutSec,
    statusMessage: handler.statusMessage ?? null,
    additionalContextLimit: handler.additionalContextLimit ?? null,
    sourcePath: handler.sourcePath,
    source: handler.source,
    pluginId: null,
    environmentId: null,
    displayOrder: handler.displayOrder,
    enabled: handler.enabled,
    isManaged: handler.trustStatus === 'managed',
    currentHash: handler.currentHash,
    trustStatus: handler.trustStatus,
  }
}

export function hookListJson(loaded: LoadedCodexHooks, where: { codexHome: string; trustStorePath: string }): HookListJson {
  return {
    dialect: 'codex',
    hooks: byDisplayOrder(loaded.handlers).map(hookListEntry),
    warnings: loaded.warnings,
    featureEnabled: loaded.featureEnabled,
    codexHome: where.codexHome,
    trustStorePath: where.trustStorePath,
    untrustedProject: loaded.untrustedProject ?? null,
  }
}

const HEADERS = ['#', 'TRUST', 'ENABLED', 'MATCHER', 'TIMEOUT', 'SOURCE', 'COMMAND'] as const

/**
 * The handlers grouped by event (Codex's event order), each group in display order: one table row per handler with
 * its key and current hash below it; then a hint when some will not run, then the load warnings.
 */
export function renderHookList(
  loaded: LoadedCodexHooks,
  where: { codexHome: string; cwd: string; projectTrustCommand: string },
  style: Style,
): string {
  const lines = [`Codex hooks for ${where.cwd} (Codex home ${where.codexHome})`]
  const handlers = byDisplayOrder(loaded.handlers)
  if (handlers.length === 0) lines.push('', `no Codex hooks found (in ${where.codexHome}, nor in trusted projects' .codex/ folders)`)
  const rows = handlers.map((handler) => [
    String(handler.displayOrder),
    handler.trustStatus,
    handler.enabled ? 'yes' : 'no',
    handler.matcher ?? '-',
    `${handler.timeoutSec}s`,
    handler.source,
    commandCell(handler.command),
  ])
  const widths = HEADERS.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)))
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd()
  const detail = ' '.repeat(widths[0]! + 2)
  for (const event of CODEX_EVENTS) {
    const group = handlers.filter((handler) => handler.event === event)
    if (group.length === 0) continue
    lines.push('', style.bold(event), indent(style.dim(line(HEADERS))))
    for (const handler of group) {
      const row = rows[handlers.indexOf(handler)]!
      lines.push(indent(paintRow(line(row), handler, style)))
      if (handler.command.includes('\n')) lines.push(indent(`command\n${indent(handler.command)}`, `  ${detail}`))
      lines.push(`  ${detail}key   ${handler.key}`, `  ${detail}hash  ${handler.currentHash}`)
    }
  }
  if (!loaded.featureEnabled) lines.push('', style.yellow('hooks are turned off ([features] hooks = false): none of these run'))
  const blocked = handlers.filter(
    (handler) => handler.enabled && (handler.trustStatus === 'untrusted' || handler.trustStatus === 'modified'),
  )
  if (blocked.length > 0) {
    const count = blocked.length === 1 ? '1 hook is' : `${blocked.length} hooks are`
    lines.push(
      '',
      `${count} not trusted (untrusted or modified since trusted) and will not run.`,
      'Review the commands, then trust them: harness hooks trust KEY… (or --all)',
    )
  }
  const project = loaded.untrustedProject
  if (project) {
    lines.push(
      '',
      style.yellow(
        `the project's .codex/ hooks are not loaded because the project ${project.path} is not trusted (${untrustedProjectReason(project)}):`,
      ),
      ...project.layers.flatMap((layer) => layer.hookFiles.map((file) => indent(file))),
      `Trust the project as Codex does: ${where.projectTrustCommand} (add --all to trust its hooks too)`,
    )
  }
  if (loaded.warnings.length > 0) {
    lines.push('', style.yellow('warnings:'))
    for (const warning of loaded.warnings) lines.push(indent(`- ${indent(warning).trimStart()}`))
  }
  return lines.join('\n')
}

export function byDisplayOrder(handlers: readonly CodexHandler[]): CodexHandler[] {
  return [...handlers].sort((a, b) => a.displayOrder - b.displayOrder)
}

function commandCell(command: string): string {
  const newline = command.indexOf('\n')
  return newline === -1 ? command : `${command.slice(0, newline).trimEnd()} …`
}

function paintRow(row: string, handler: CodexHandler, style: Style): string {
  if (!handler.enabled) return style.dim(row)
  if (handler.trustStatus === 'untrusted' || handler.trustStatus === 'modified') return style.yellow(row)
  return row
}
