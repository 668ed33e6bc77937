/** A TOML basic string: `"` and `\` escaped, control characters as escapes. */
export function tomlString(value: string): string {
  let out = '"'
  for (const ch of value) {
    const code = ch.codePointAt(0)!
    if (ch === '"' || ch === '\\') out += `\\${ch}`
    else if (ch === '\b') out += '\\b'
    else if (ch === '\t') out += '\\t'
    else if (ch === '\n') out += '\\n'
    else if (ch === '\f') out += '\\f'
    else if (ch === '\r') out += '\\r'
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0').toUpperCase()}`
    else out += ch
  }
  return `${out}"`
}

/** A key segment: bare when TOML allows it, quoted otherwise. */
export function tomlKey(segment: string): string {
  return /^[A-Za-z0-9_-]+$/.test(segment) ? segment : tomlString(segment)
}

export function tomlKeyPath(segments: readonly string[]): string {
  return segments.map(tomlKey).join('.')
}
