class SyntaxProblem {
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {}
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r'])
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'])
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const HEX_DIGIT = /^[0-9a-fA-F]$/

/**
 * Where and why `text` is not JSON, as `line L, column C: expected …, found …`. Node's own message depends on the
 * V8 version and sometimes quotes the text across lines without a position; this one is always one positioned line.
 * Only called once JSON.parse has refused the text.
 */
export function describeJsonSyntaxError(text: string): string {
  const found = locate(text)
  if (!found) return 'not valid JSON'
  const before = text.slice(0, found.offset)
  const line = before.split('\n').length
  const column = found.offset - before.lastIndexOf('\n')
  return `line ${line}, column ${column}: ${found.problem}`
}

function locate(text: string): SyntaxProblem | undefined {
  let at = 0
  function fail(expected: string): never {
    const char = text[at]
    throw new SyntaxProblem(at, `expected ${expected}, found ${char === undefined ? 'the end of the file' : JSON.stringify(char)}`)
  }
  const skipWhitespace = () => {
    while (at < text.length && WHITESPACE.has(text[at]!)) at++
  }
  const string = () => {
    at++
    for (;;) {
      const char = text[at]
      if (char === undefined) fail("a closing '\"'")
      if (char === '"') {
        at++
        return
      }
      if (char === '\\') {
        at++
        if (text[at] === 'u') {
          at++
          for (let digit = 0; digit < 4; digit++, at++) if (!HEX_DIGIT.test(text[at] ?? '')) fail('a hex digit')
        } else if (ESCAPES.has(text[at] ?? '')) at++
        else fail('an escape character')
      } else if (char.charCodeAt(0) < 0x20) fail('an escaped control character')
      else at++
    }
  }
  const members = (close: string, member: () => void) => {
    at++
    skipWhitespace()
    if (text[at] === close) {
      at++
      return
    }
    for (;;) {
      member()
      skipWhitespace()
      if (text[at] === close) {
        at++
        return
      }
      if (text[at] !== ',') fail(`',' or '${close}'`)
      at++
    }
  }
  const value = (): void => {
    skipWhitespace()
    const char = text[at]
    if (char === '{') {
      members('}', () => {
        skipWhitespace()
        if (text[at] !== '"') fail('a property name in double quotes')
        string()
        skipWhitespace()
        if (text[at] !== ':') fail("':'")
        at++
        value()
      })
      return
    }
    if (char === '[') {
      members(']', value)
      return
    }
    if (char === '"') {
      string()
      return
    }
    NUMBER.lastIndex = at
    if (NUMBER.test(text)) {
      at = NUMBER.lastIndex
      return
    }
    const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, at)) ?? fail('a value')
    at += literal.length
  }
  try {
    value()
    skipWhitespace()
    if (at < text.length) fail('the end of the file after the value')
    return undefined
  } catch (err) {
    if (err instanceof SyntaxProblem) return err
    throw err
  }
}
