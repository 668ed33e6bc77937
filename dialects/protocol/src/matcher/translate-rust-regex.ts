import { emitJsRegex } from './js-regex-emitter.js'
import { RegexSyntaxError } from './regex-syntax-error.js'
import type { RustRegexSpan } from './rust-regex-error.js'
import { parseRustRegex } from './rust-regex-parser.js'
import { translateAst } from './rust-regex-translator.js'

export type RustRegexTranslation =
  | { ok: true; regexp: RegExp }
  /** `spans` (UTF-16 offsets) locate the problem for `rustRegexError`: the main span first, then Rust's auxiliary one, if any. */
  | { ok: false; reason: string; spans: RustRegexSpan[] }

/**
 * Translates a Rust `regex` crate pattern into an equivalent JavaScript `RegExp` (flag `v`, plus `i` when case
 * insensitivity spans the whole pattern), or rejects it with the reason Rust gives.
 */
export function translateRustRegex(pattern: string): RustRegexTranslation {
  let emitted: { source: string; flags: string }
  try {
    emitted = emitJsRegex(translateAst(parseRustRegex(pattern)))
  } catch (error) {
    if (!(error instanceof RegexSyntaxError)) throw error
    const spans = [error.span, ...(error.auxSpan === undefined ? [] : [error.auxSpan])]
    return { ok: false, reason: error.reason, spans: spans.map((span) => ({ start: span.start.offset, end: span.end.offset })) }
  }
  try {
    return { ok: true, regexp: new RegExp(emitted.source, emitted.flags) }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return {
      ok: false,
      reason: `the pattern's JavaScript translation does not compile (${message})`,
      spans: [{ start: 0, end: pattern.length }],
    }
  }
}
