export interface Style {
  bold(text: string): string
  dim(text: string): string
  red(text: string): string
  green(text: string): string
  yellow(text: string): string
  cyan(text: string): string
  magenta(text: string): string
}

const codes: Record<keyof Style, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
  magenta: [35, 39],
}

export function createStyle(enabled: boolean): Style {
  const entries = Object.entries(codes).map(([name, [open, close]]) => [
    name,
    enabled ? (text: string) => `\u001b[${open}m${text}\u001b[${close}m` : (text: string) => text,
  ])
  return Object.fromEntries(entries) as Style
}

/** Colours when the stream is a terminal, unless `NO_COLOR` is set; `FORCE_COLOR` (not `0`) forces them. */
export function colorEnabled(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false'
  return stream.isTTY === true
}
