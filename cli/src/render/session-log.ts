import type { LoadedSession, Message, SessionEvent } from '@harness-kernel/kernel'
import type { Style } from '../style.js'
import { indent, shortJson } from '../text.js'
import { formatTime } from './format-time.js'
import { hookRunSummary, messageLabel } from './labels.js'

/** A readable rendering of a session log: messages by role, tool calls and results, hook runs, notices, turn ends. */
export function renderSessionLog(loaded: LoadedSession, path: string, style: Style): string {
  const lines: string[] = []
  const toolNames = new Map<string, string>()
  let turns = 0
  const rule = (text: string) => lines.push('', style.bold(`── ${text} ──`))
  for (const event of loaded.events) {
    switch (event.type) {
      case 'session/start':
        lines.push(
          style.bold(`session ${event.sessionId}`),
          `  log      ${path}`,
          `  cwd      ${event.cwd}`,
          `  created  ${formatTime(event.createdAt)}`,
          ...(event.parent ? [`  parent   ${event.parent.sessionId} (subagent ${event.parent.agentId}, ${event.parent.agentType})`] : []),
        )
        break
      case 'subagent/start':
        lines.push(
          `${style.cyan('[subagent]')} ${event.agentType} ${event.agentId}${event.callId ? ` [${event.callId}]` : ''}: ${event.transcriptPath}`,
        )
        break
      case 'session/resume':
        rule(`resumed ${formatTime(event.at)}`)
        break
      case 'turn/start':
        turns++
        rule(`turn ${turns} · ${formatTime(event.at)} · ${event.turnId}`)
        break
      case 'step/start':
        lines.push(style.dim(`· step ${event.step}`))
        break
      case 'message':
        lines.push(...renderMessage(event.message, style))
        break
      case 'tool/call': {
        toolNames.set(event.callId, event.name)
        const decision =
          event.decision === 'deny'
            ? style.red('denied')
            : event.decision === 'deny-guardrails'
              ? style.red('refused by the sandbox policy')
              : event.decision === 'allow-rewritten'
                ? `allowed, input rewritten to ${shortJson(event.input, 200)}`
                : event.decision === 'allow'
                  ? 'allowed'
                  : event.decision
        lines.push(`${style.cyan('[tool call]')} ${event.name} [${event.callId}] ${decision}`)
        break
      }
      case 'tool/result': {
        const status = event.isError ? style.red('error') : style.green('ok')
        lines.push(`${style.cyan('[tool result]')} ${toolNames.get(event.callId) ?? '?'} [${event.callId}] ${status}`)
        if (event.output !== '') lines.push(indent(event.output))
        break
      }
      case 'hook/run':
        lines.push(`${style.magenta('[hook]')} ${hookRunSummary(event)}`)
        for (const entry of event.entries ?? []) lines.push(indent(`${entry.kind}: ${entry.text}`))
        break
      case 'steering/accepted':
        if (event.itemIds.length + event.droppedIds.length === 0) break
        lines.push(
          style.dim(
            `[steering] ${event.transport} at the ${event.boundary} boundary of step ${event.step}: accepted ${list(event.itemIds)}, dropped ${list(event.droppedIds)}`,
          ),
        )
        break
      case 'steering/dropped':
        lines.push(style.dim(`[steering] ${event.transport} dropped ${list(event.itemIds)}: ${event.reason}`))
        break
      case 'steering/returned':
        lines.push(style.dim(`[steering] ${event.transport} handed back ${list(event.itemIds)} at ${event.boundary}: ${event.reason}`))
        break
      case 'notice': {
        const paint = event.level === 'error' ? style.red : event.level === 'warning' ? style.yellow : style.dim
        lines.push(`${paint(`[notice:${event.level}]`)} ${event.text} ${style.dim(`(${event.source})`)}`)
        break
      }
      case 'turn/end': {
        const why = event.error ?? event.reason
        const paint = event.status === 'completed' ? style.green : event.status === 'failed' ? style.red : style.yellow
        lines.push(paint(`── turn ${event.status}${why ? `: ${why}` : ''} ──`))
        break
      }
      case 'session/end':
        rule(`session ended · ${formatTime(event.at)} · ${event.reason}`)
        break
      default:
        lines.push(style.dim(`[${(event as SessionEvent).type}] ${shortJson(event, 200)}`))
    }
  }
  if (loaded.droppedTail !== undefined) lines.push('', style.yellow(`(a torn last line of ${loaded.droppedTail.length} chars was dropped)`))
  return lines.join('\n')
}

function renderMessage(message: Message, style: Style): string[] {
  const lines = [style.bold(`${messageLabel(message)}:`)]
  for (const block of message.content) {
    if (block.type === 'text') lines.push(indent(block.text))
    else if (block.type === 'tool_call') lines.push(indent(`→ ${block.name} ${shortJson(block.input, 200)} [${block.id}]`))
    else lines.push(indent(`← [${block.callId}] ${block.isError ? 'error' : 'ok'}\n${indent(block.output)}`))
  }
  return lines
}

function list(ids: readonly string[]): string {
  return ids.length === 0 ? 'none' : ids.join(', ')
}
