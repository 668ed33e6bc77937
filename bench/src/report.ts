/** What each benchmark hands back to run.ts: a markdown table for people, data for latest.json. */
export interface Section {
  title: string
  head: string[]
  rows: string[][]
  notes?: string[]
  /** Leading columns that hold text (left-aligned); default 1. The rest are numbers. */
  textColumns?: number
  data: unknown
}

export function markdown(section: Section): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`
  const rule = section.head.map((_, index) => (index < (section.textColumns ?? 1) ? '---' : '---:'))
  const notes = (section.notes ?? []).map((note) => `\n${note}`)
  if (section.head.length === 0) return [`### ${section.title}`, ...notes].join('\n')
  return [`### ${section.title}`, '', line(section.head), line(rule), ...section.rows.map(line), ...notes].join('\n')
}
