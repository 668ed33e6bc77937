// Codex is written in Rust; where its texts depend on Rust's string semantics, these reproduce them.

const EDGE_WHITESPACE = /^\p{White_Space}+|\p{White_Space}+$/gu

/**
 * Rust's `str::trim`: strips Unicode White_Space. Unlike `String.prototype.trim` it keeps U+FEFF and strips U+0085.
 */
export function rustTrim(text: string): string {
  return text.replace(EDGE_WHITESPACE, '')
}

/** `Some(trimmed)` when the trimmed text is not empty (Codex's `trimmed_non_empty`). */
export function trimmedNonEmpty(text: string | undefined): string | undefined {
  if (text === undefined) return undefined
  const trimmed = rustTrim(text)
  return trimmed === '' ? undefined : trimmed
}

/** Rust's `str::lines().count()`: `\n`-separated lines, where a final `\n` does not start another (empty) line. */
export function rustLineCount(text: string): number {
  let newlines = 0
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) newlines++
  return text === '' || text.endsWith('\n') ? newlines : newlines + 1
}

// Rust's `char::is_printable` is false for these categories (except U+0020); `str`'s Debug also escapes grapheme extenders.
const UNICODE_ESCAPED = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}\p{Grapheme_Extend}]$/u

/** Rust's `format!("{:?}", s)` for a `&str`: the quoted string with Debug escapes (`\"`, `\\`, `\n`, `\u{7f}`, …). */
export function rustDebugString(text: string): string {
  let out = '"'
  for (const ch of text) {
    switch (ch) {
      case '\0':
        out += '\\0'
        break
      case '\t':
        out += '\\t'
        break
      case '\r':
        out += '\\r'
        break
      case '\n':
        out += '\\n'
        break
      case '\\':
        out += '\\\\'
        break
      case '"':
        out += '\\"'
        break
      default:
        out += ch !== ' ' && UNICODE_ESCAPED.test(ch) ? `\\u{${ch.codePointAt(0)!.toString(16)}}` : ch
    }
  }
  return `${out}"`
}
