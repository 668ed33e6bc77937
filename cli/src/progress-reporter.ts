import { definePlugin, type NoticeLevel, type Plugin, type SessionEvent, textOf } from '@harness-kernel/kernel'
import { hookRunSummary, messageLabel } from './render/labels.js'
import { createStyle, type Style } from './style.js'
import { clip, firstLine, shortJson } from './text.js'

const NOTICE_MAX_CHARS = 2000

export interface ProgressReporterOptions {
  /** Default `process.stderr`. */
  stream?: NodeJS.WritableStream
  /** ANSI colours. Default false. */
  color?: boolean
}

/**
 * A plugin that prints one line per interesting session event: steps, assistant text, tool calls and
 * results, hook runs, steering and the turn's end; notices in full. Meant for stderr, so stdout stays clean.
 */
export function progressReporter(options: ProgressReporterOptions = {}): Plugin {
  const stream = options.stream ?? process.stderr
  const style = createStyle(options.color ?? false)
  const print = (line: string) => stream.write(`${line}\n`)
  // Notices are meant to be read (what was skipped, and how to fix it): printed in full, up to a bound, further lines indented.
  const noticeLine = (level: NoticeLevel, text: string) => {
    const paint = level === 'error' ? style.red : level === 'warning' ? style.yellow : style.dim
    return `${paint(`[notice:${level}]`)} ${clip(text.trim(), NOTICE_MAX_CHARS).replaceAll('\n', '\n  ')}`
  }
  return definePlugin({
    name: 'cli-progress',
    setup(kernel) {
      const toolNames = new Map<string, string>()
      // session.notice() appends a `notice` event, then calls agent/notice: print it once.
      let lastNoticeEvent: SessionEvent | undefined
      kernel.hooks.sessionEvent.tap('cli-progress', ({ event }) => {
        lastNoticeEvent = event.type === 'notice' ? event : undefined
        if (event.type === 'tool/call') toolNames.set(event.callId, event.name)
        const line = event.type === 'notice' ? noticeLine(event.level, event.text) : progressLine(event, style, toolNames)
        if (event.type === 'tool/result') toolNames.delete(event.callId)
        if (line !== undefined) print(line)
      })
      kernel.hooks.notice.tap('cli-progress', ({ level, text, source }) => {
        const echo = lastNoticeEvent
        lastNoticeEvent = undefined
        if (echo?.type === 'notice' && echo.level === level && echo.text === text && echo.source === source) return
        print(noticeLine(level, text))
      })
      return undefined
    },
  })
}

function progressLine(event: SessionEvent, style: Style, toolNames: Map<string, string>): string | undefined {
  switch (event.type) {
    case 'session/start':
      return style.dim(`[session] started ${event.sessionId}`)
    case 'session/resume':
      return style.dim(`[session] resumed ${event.sessionId}`)
    case 'step/start':
      return style.dim(`[step ${event.step}]`)
    case 'driver/session':
      return style.dim(`[driver] ${event.driver} session ${event.nativeId}`)
    case 'message': {
      const { message } = event
      const text = textOf(message)
      if (text.trim() === '') return undefined
      if (message.role === 'assistant') return `${style.bold('[assistant]')} ${firstLine(text)}`
      // The user's own prompt is not echoed; context and steered input are.
      if (message.role === 'user' && message.source.kind === 'user') return undefined
      return `${style.magenta(`[${messageLabel(message)}]`)} ${firstLine(text)}`
    }
    case 'tool/call': {
      const verdict = event.decision.startsWith('deny')
        ? ` ${style.red(event.decision === 'deny-guardrails' ? 'refused by the sandbox policy' : 'denied')}`
        : event.decision === 'allow-rewritten'
          ? ' (input rewritten)'
          : ''
      return `${style.cyan('[tool]')} ${event.name} ${shortJson(event.input)}${verdict}`
    }
    case 'tool/result': {
      const name = toolNames.get(event.callId) ?? event.callId
      const status = event.isError ? style.red('error') : style.green('ok')
      const output = firstLine(event.output)
      return `${style.cyan('[tool]')} ${name} ${status}${output === '' ? '' : `: ${output}`}`
    }
    case 'hook/run':
      if (event.status === 'running') return undefined
      return `${style.dim('[hook]')} ${hookRunSummary(event)}`
    case 'steering/accepted':
      if (event.itemIds.length === 0 && event.droppedIds.length === 0) return undefined
      return style.dim(`[steering] ${event.transport}: ${event.itemIds.length} accepted, ${event.droppedIds.length} dropped`)
    case 'turn/end': {
      const paint = event.status === 'completed' ? style.green : event.status === 'failed' ? style.red : style.yellow
      const why = event.error ?? event.reason
      return `${paint(`[turn] ${event.status}`)}${why ? `: ${firstLine(why, 200)}` : ''}`
    }
    default:
      return undefined
  }
}
