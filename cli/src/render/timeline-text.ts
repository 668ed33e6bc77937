import type { Style } from '../style.js'
import { formatTime } from './format-time.js'
import type { TimelineRow, TimelineTurn } from './timeline.js'

const LABEL_WIDTH = 60
const BAR_WIDTH = 32

/**
 * The timeline as a waterfall: per turn a header (number, start, id, status, duration, tokens), then a row per step,
 * tool, hook run, steer, compaction, subagent and warning, with where it starts, how long it took and a bar placed on
 * the turn's span, so a glance shows where the time went.
 */
export function renderTimeline(sessionId: string, turns: readonly TimelineTurn[], style: Style): string {
  const lines = [style.bold(`session ${sessionId} · ${turns.length} turn${turns.length === 1 ? '' : 's'}`)]
  if (turns.length === 0) lines.push('  (no turns)')
  for (const turn of turns) {
    lines.push('', style.bold(turnHeader(turn)))
    if (turn.reason) lines.push(`  ${turn.reason}`)
    lines.push(
      style.dim(
        `  ${'start'.padStart(9)} ${'took'.padStart(9)}  ${'what'.padEnd(LABEL_WIDTH)} ${'0'.padEnd(BAR_WIDTH - 1)}${duration(turn.durationMs)}`,
      ),
    )
    for (const row of turn.rows) lines.push(renderRow(row, turn.durationMs, style))
  }
  return lines.join('\n')
}

function turnHeader(turn: TimelineTurn): string {
  const facts = [`turn ${turn.index}`, formatTime(turn.startedAt), turn.turnId, turn.status, duration(turn.durationMs)]
  const { inputTokens, outputTokens, costUsd } = turn.usage
  if (inputTokens > 0 || outputTokens > 0)
    facts.push(`${inputTokens.toLocaleString('en-US')} in · ${outputTokens.toLocaleString('en-US')} out`)
  if (costUsd !== undefined) facts.push(`$${costUsd.toFixed(4)}`)
  return facts.join(' · ')
}

function renderRow(row: TimelineRow, totalMs: number, style: Style): string {
  const what = `${'  '.repeat(row.depth - 1)}${row.label}${row.detail ? `  ${row.detail}` : ''}`
  const label = fit(what, LABEL_WIDTH)
  const paint = row.failed ? style.red : PAINT[row.kind](style)
  const took = row.durationMs > 0 ? duration(row.durationMs) : '·'
  return `  ${duration(row.startMs).padStart(9)} ${took.padStart(9)}  ${paint(label)} ${paint(bar(row, totalMs))}`
}

const PAINT: Record<TimelineRow['kind'], (style: Style) => (text: string) => string> = {
  step: (style) => style.cyan,
  tool: (style) => style.green,
  hook: (style) => style.magenta,
  steer: (style) => style.yellow,
  compaction: (style) => style.yellow,
  subagent: (style) => style.cyan,
  notice: (style) => style.yellow,
}

/** The row's span on the turn's, `BAR_WIDTH` wide: at least one cell, `▏` for a moment. */
function bar(row: TimelineRow, totalMs: number): string {
  const scale = totalMs > 0 ? BAR_WIDTH / totalMs : 0
  const start = Math.min(BAR_WIDTH - 1, Math.floor(row.startMs * scale))
  if (row.durationMs <= 0) return `${' '.repeat(start)}▏`
  const length = Math.max(1, Math.min(BAR_WIDTH - start, Math.round(row.durationMs * scale)))
  return `${' '.repeat(start)}${'█'.repeat(length)}`
}

/** `412 ms`, `3.41 s`, `2 min 05 s`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`
  const seconds = Math.round(ms / 1000)
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`
}

function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width)
}
