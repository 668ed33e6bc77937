import type { Position } from './rust-regex-ast.js'

/** A span in a pattern, as UTF-16 offsets (`end` exclusive). */
export interface RustRegexSpan {
  start: number
  end: number
}

/**
 * Rust `regex`'s error text: `regex parse error:`, the pattern with carets under the offending span(s), then `error: <reason>`.
 * Without a span the carets cover the whole pattern. Multi-line patterns get Rust's numbered layout.
 */
export function rustRegexError(pattern: string, reason: string, span?: RustRegexSpan | readonly RustRegexSpan[]): string {
  const spans = span === undefined ? [{ start: 0, end: pattern.length }] : Array.isArray(span) ? span : [span as RustRegexSpan]
  const lines = rustLines(pattern)
  const lineCount = lines.length + (pattern.endsWith('\n') ? 1 : 0)
  const width = lineCount <= 1 ? 0 : String(lineCount).length
  const byLine: Array<Array<{ start: Position; end: Position }>> = Array.from({ length: lineCount }, () => [])
  const multiLine: Array<{ start: Position; end: Position }> = []
  for (const { start, end } of spans) {
    const resolved = { start: positionAt(pattern, start), end: positionAt(pattern, end) }
    if (resolved.start.line === resolved.end.line) byLine[resolved.start.line - 1]?.push(resolved)
    else multiLine.push(resolved)
  }
  const byOffset = (a: { start: Position; end: Position }, b: { start: Position; end: Position }) =>
    a.start.offset - b.start.offset || a.end.offset - b.end.offset
  for (const line of byLine) line.sort(byOffset)
  multiLine.sort(byOffset)

  let notated = ''
  lines.forEach((line, i) => {
    notated += width > 0 ? `${String(i + 1).padStart(width, ' ')}: ` : '    '
    notated += `${line}\n`
    const lineSpans = byLine[i] ?? []
    if (lineSpans.length === 0) return
    let notes = ' '.repeat(width === 0 ? 4 : width + 2)
    let pos = 0
    for (const s of lineSpans) {
      for (; pos < s.start.column - 1; pos++) notes += ' '
      const length = Math.max(1, s.end.column - s.start.column)
      notes += '^'.repeat(length)
      pos += length
    }
    notated += `${notes}\n`
  })

  if (!pattern.includes('\n')) return `regex parse error:\n${notated}error: ${reason}`
  const divider = '~'.repeat(79)
  let text = `regex parse error:\n${divider}\n${notated}${divider}\n`
  if (multiLine.length > 0) {
    const notes = multiLine.map(
      (s) => `on line ${s.start.line} (column ${s.start.column}) through line ${s.end.line} (column ${s.end.column - 1})`,
    )
    text += `${notes.join('\n')}\n`
  }
  return `${text}error: ${reason}`
}

/** Rust's `str::lines`: split on `\n`, drop one trailing `\r` per line, no empty last line. */
function rustLines(text: string): string[] {
  if (text.length === 0) return []
  const lines = text.split('\n')
  if (text.endsWith('\n')) lines.pop()
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
}

/** Line and column (both 1-based, columns in code points) of a UTF-16 offset. */
export function positionAt(text: string, offset: number): Position {
  let line = 1
  let column = 1
  let index = 0
  const limit = Math.min(Math.max(offset, 0), text.length)
  while (index < limit) {
    const cp = text.codePointAt(index)!
    if (cp === 0x0a) {
      line += 1
      column = 1
    } else {
      column += 1
    }
    index += cp > 0xffff ? 2 : 1
  }
  return { offset: limit, line, column }
}
