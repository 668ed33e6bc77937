import type { SessionSummary } from '@harness-kernel/kernel'
import { firstLine } from '../text.js'
import { formatTime } from './format-time.js'

const HEADERS = ['ID', 'CREATED', 'TURNS', 'ENDED', 'FIRST PROMPT'] as const

/** One row per session, columns padded to their widest cell. */
export function renderSessionTable(sessions: readonly SessionSummary[]): string {
  const rows = sessions.map((session) => [
    session.id,
    formatTime(session.createdAt),
    String(session.turns),
    session.ended ? 'yes' : 'no',
    session.firstPrompt === undefined ? '' : firstLine(session.firstPrompt, 60),
  ])
  const widths = HEADERS.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)))
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd()
  return [line(HEADERS), ...rows.map(line)].join('\n')
}
