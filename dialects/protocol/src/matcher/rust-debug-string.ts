const GRAPHEME_EXTEND = /^\p{Grapheme_Extend}$/u
/** Rust's `is_printable` is false for these general categories (other than the ASCII space). */
const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u

const ESCAPES: Record<string, string> = { '\0': '\\0', '\t': '\\t', '\r': '\\r', '\n': '\\n', '\\': '\\\\', '"': '\\"' }

/** Rust's `{:?}` of a `str`: double quotes, backslash escapes, `\u{…}` for unprintable and grapheme-extending characters. */
export function rustDebugString(s: string): string {
  let out = '"'
  for (const c of s) {
    const short = ESCAPES[c]
    if (short !== undefined) out += short
    else if (GRAPHEME_EXTEND.test(c) || (c !== ' ' && NOT_PRINTABLE.test(c))) out += `\\u{${c.codePointAt(0)!.toString(16)}}`
    else out += c
  }
  return `${out}"`
}
