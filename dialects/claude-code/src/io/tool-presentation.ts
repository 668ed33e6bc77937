import { isAbsolute, resolve } from 'node:path'
import type { ToolAliases, ToolOutput } from '@harness-kernel/kernel'
import { splitBashCommand } from '../run/bash-command-parts.js'
import { fileToolResponse } from './file-tool-responses.js'

/** A kernel tool call as Claude Code's hooks see it: the Claude name and input shape (claude-code-hooks.md §3). */
export interface ClaudeToolView {
  toolName: string
  toolInput: unknown
}

type Shape = 'Bash' | 'Read' | 'Write' | 'Edit'

function shapeOf(toolName: string): Shape | undefined {
  return toolName === 'Bash' || toolName === 'Read' || toolName === 'Write' || toolName === 'Edit' ? toolName : undefined
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function defined(entries: [string, unknown][]): Record<string, unknown> {
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined))
}

/** `shell`→`Bash {command, description, timeout?, run_in_background?}`, file tools→`{file_path, …}` with absolute paths. */
export function presentTool(name: string, input: unknown, aliases: ToolAliases | undefined, cwd: string): ClaudeToolView {
  const toolName = aliases?.claudeCode ?? name
  const source = record(input)
  const filePath = typeof source.path === 'string' ? absolute(source.path, cwd) : source.file_path
  switch (shapeOf(toolName)) {
    case 'Bash':
      return {
        toolName,
        toolInput: defined([
          ['command', source.command],
          ['description', source.description],
          ['timeout', source.timeout_ms ?? source.timeout],
          ['run_in_background', source.run_in_background],
          // The shell tool's request to run outside the sandbox is Claude Code's `dangerouslyDisableSandbox`.
          ['dangerouslyDisableSandbox', source.sandbox_permissions === 'require_escalated' ? true : undefined],
        ]),
      }
    case 'Read':
      return {
        toolName,
        toolInput: defined([
          ['file_path', filePath],
          ['offset', source.offset],
          ['limit', source.limit],
        ]),
      }
    case 'Write':
      return {
        toolName,
        toolInput: defined([
          ['file_path', filePath],
          ['content', source.content],
        ]),
      }
    case 'Edit':
      return {
        toolName,
        toolInput: defined([
          ['file_path', filePath],
          ['old_string', source.old_string],
          ['new_string', source.new_string],
          ['replace_all', source.replace_all],
        ]),
      }
    default:
      return { toolName, toolInput: input }
  }
}

/**
 * `updatedInput` replaces the whole input (a `description` the hook left out is gone); it is in Claude's shape, so
 * it maps back onto the kernel tool's names (`file_path`→`path`, Bash `timeout`→`timeout_ms`).
 */
export function inputFromClaude(toolName: string, updated: Record<string, unknown>): unknown {
  const shape = shapeOf(toolName)
  if (shape === undefined) return updated
  const { file_path, timeout, dangerouslyDisableSandbox, ...rest } = updated
  if (shape === 'Bash') {
    return defined([
      ...Object.entries(rest),
      ['timeout_ms', timeout],
      ['sandbox_permissions', dangerouslyDisableSandbox === true ? 'require_escalated' : undefined],
    ])
  }
  return defined([
    ['path', file_path],
    ...Object.entries(rest),
    ...(timeout === undefined ? [] : [['timeout', timeout] as [string, unknown]]),
  ])
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path)
}

/**
 * Bash's and the file tools' `tool_response` objects [obs]; an MCP tool's result (`@harness-kernel/mcp` keeps it in
 * `details`) as Claude Code gives it [obs]; other tools give their output text.
 */
export function toolResponse(
  toolName: string,
  result: ToolOutput,
  toolInput?: unknown,
  sandbox: { violations?: string; ranOutside?: boolean } = {},
): unknown {
  const details = result.details
  // A tool that gives Claude Code's own response object for itself (`@harness-kernel/subagents`' `Agent`).
  if (details?.toolResponse !== undefined) return details.toolResponse
  const file = fileToolResponse(toolName, details, result.output)
  if (file !== undefined) return file
  const mcp = mcpToolResponse(toolName, details)
  if (mcp !== undefined) return mcp
  if (toolName === 'Bash' && typeof details?.stdout === 'string' && typeof details.stderr === 'string') {
    return {
      stdout: trimFinalNewlines(details.stdout),
      // What Claude Code's sandbox refused the command goes with its stderr (observed for the network).
      stderr: [trimFinalNewlines(details.stderr), sandbox.violations ?? ''].filter((part) => part !== '').join('\n'),
      interrupted: wasInterrupted(result),
      isImage: false,
      noOutputExpected: noOutputExpected((toolInput as { command?: unknown } | undefined)?.command),
      ...(sandbox.ranOutside ? { dangerouslyDisableSandbox: true } : {}),
    }
  }
  return result.output
}

/**
 * An MCP tool's `tool_response` (Claude Code 2.1.332, conformance scenario m01-mcp-tools, 2 runs): the result's
 * `structuredContent` as JSON text when it has one (its content blocks are then not shown), else its content blocks.
 */
function mcpToolResponse(toolName: string, details: ToolOutput['details']): unknown {
  if (!toolName.startsWith('mcp__') || !Array.isArray(details?.content)) return undefined
  if (details.structuredContent !== undefined) return JSON.stringify(details.structuredContent)
  return details.content
}

/** A shell run that a signal ended (a timeout, an interrupt): Bash's `interrupted`, PostToolUseFailure's `is_interrupt`. */
export function wasInterrupted(result: ToolOutput): boolean {
  const signal = result.details?.signal
  return signal !== null && signal !== undefined
}

/**
 * PostToolUseFailure's `error`: a failed Bash call reads `Exit code <n>\n<stdout>\n<stderr>` (Claude Code 2.1.332, `echo
 * out; echo err >&2; exit 3` gave `Exit code 3\nout\nerr`, 1 run; empty streams are left out); other tools their output.
 */
export function toolFailureError(toolName: string, result: ToolOutput): string {
  const details = result.details
  if (toolName === 'Bash' && typeof details?.exitCode === 'number') {
    const streams = [details.stdout, details.stderr].filter((text): text is string => typeof text === 'string' && text.trim() !== '')
    return [`Exit code ${details.exitCode}`, ...streams.map(trimFinalNewlines)].join('\n')
  }
  return result.output
}

function trimFinalNewlines(text: string): string {
  return text.replace(/\n+$/, '')
}

/** Commands that print nothing when they succeed (Claude Code 2.1.332's list, read from the binary). */
const SILENT_COMMANDS: ReadonlySet<string> = new Set([
  'mv',
  'cp',
  'rm',
  'mkdir',
  'rmdir',
  'chmod',
  'chown',
  'chgrp',
  'touch',
  'ln',
  'cd',
  'export',
  'unset',
  'wait',
])

/** Bash's `noOutputExpected`: every command of the line is one that prints nothing on success (observed for touch, mkdir, rm). */
function noOutputExpected(command: unknown): boolean {
  if (typeof command !== 'string') return false
  const commands = splitBashCommand(command)?.commands ?? []
  const names = commands.map((simple) => simple.trim().split(/\s+/, 1)[0] ?? '').filter((name) => name !== '')
  return names.length > 0 && names.every((name) => SILENT_COMMANDS.has(name))
}
