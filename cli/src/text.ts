/** The first line of `text`, cut to `max` characters; `…` marks anything left out. */
export function firstLine(text: string, max = 120): string {
  const trimmed = text.trim()
  const newline = trimmed.indexOf('\n')
  const line = (newline === -1 ? trimmed : trimmed.slice(0, newline)).trimEnd()
  const more = newline !== -1
  if (line.length > max) return `${line.slice(0, max - 1)}…`
  return more ? `${line} …` : line
}

/** `text` cut to `max` characters; `…` marks anything left out. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** Compact JSON of a tool input, cut to `max` characters. */
export function shortJson(value: unknown, max = 100): string {
  let json: string
  try {
    json = JSON.stringify(value) ?? String(value)
  } catch {
    json = String(value)
  }
  return firstLine(json, max)
}

export function indent(text: string, prefix = '  '): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `${prefix}${line}`))
    .join('\n')
}
