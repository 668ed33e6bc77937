import type { Span } from './rust-regex-ast.js'

/** A pattern Rust's `regex` crate rejects: the reason is Rust's own error text. */
export class RegexSyntaxError extends Error {
  readonly reason: string
  readonly span: Span
  /** Rust notates a second span for duplicates (the original flag or group name). */
  readonly auxSpan: Span | undefined

  constructor(reason: string, span: Span, auxSpan?: Span) {
    super(reason)
    this.name = 'RegexSyntaxError'
    this.reason = reason
    this.span = span
    this.auxSpan = auxSpan
  }
}

/** Rust's error texts (`regex-syntax` `ast::ErrorKind` and `hir::ErrorKind`). */
export const RustRegexReason = {
  classEscapeInvalid: 'invalid escape sequence found in character class',
  classRangeInvalid: 'invalid character class range, the start must be <= the end',
  classRangeLiteral: 'invalid range boundary, must be a literal',
  classUnclosed: 'unclosed character class',
  decimalEmpty: 'decimal literal empty',
  decimalInvalid: 'decimal literal invalid',
  escapeHexEmpty: 'hexadecimal literal empty',
  escapeHexInvalid: 'hexadecimal literal is not a Unicode scalar value',
  escapeHexInvalidDigit: 'invalid hexadecimal digit',
  escapeUnexpectedEof: 'incomplete escape sequence, reached end of pattern prematurely',
  escapeUnrecognized: 'unrecognized escape sequence',
  flagDanglingNegation: 'dangling flag negation operator',
  flagDuplicate: 'duplicate flag',
  flagRepeatedNegation: 'flag negation operator repeated',
  flagUnexpectedEof: 'expected flag but got end of regex',
  flagUnrecognized: 'unrecognized flag',
  groupNameDuplicate: 'duplicate capture group name',
  groupNameEmpty: 'empty capture group name',
  groupNameInvalid: 'invalid capture group character',
  groupNameUnexpectedEof: 'unclosed capture group name',
  groupUnclosed: 'unclosed group',
  groupUnopened: 'unopened group',
  nestLimitExceeded: (limit: number) => `exceed the maximum number of nested parentheses/brackets (${limit})`,
  repetitionCountInvalid: 'invalid repetition count range, the start must be <= the end',
  repetitionCountDecimalEmpty: 'repetition quantifier expects a valid decimal',
  repetitionCountUnclosed: 'unclosed counted repetition',
  repetitionMissing: 'repetition operator missing expression',
  specialWordBoundaryUnclosed: 'special word boundary assertion is either unclosed or contains an invalid character',
  specialWordBoundaryUnrecognized: 'unrecognized special word boundary assertion, valid choices are: start, end, start-half or end-half',
  specialWordOrRepetitionUnexpectedEof:
    'found either the beginning of a special word boundary or a bounded repetition on a \\b with an opening brace, but no closing brace',
  unicodeClassInvalid: 'invalid Unicode character class',
  unsupportedBackreference: 'backreferences are not supported',
  unsupportedLookAround: 'look-around, including look-ahead and look-behind, is not supported',
  unicodeNotAllowed: 'Unicode not allowed here',
  invalidUtf8: 'pattern can match invalid UTF-8',
  unicodePropertyNotFound: 'Unicode property not found',
  unicodePropertyValueNotFound: 'Unicode property value not found',
} as const
