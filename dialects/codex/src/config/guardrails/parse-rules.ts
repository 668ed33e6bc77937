import type { RulesArg, RulesExpr, RulesStatement } from './rules-ast.js'
import { lexRules, RulesLexError, type RulesToken } from './rules-lexer.js'
import type { RulesPosition } from './rules-syntax-error.js'

/** A syntax problem, positioned; the caller names the file. */
export class RulesParseError extends Error {
  constructor(
    message: string,
    readonly at: RulesPosition,
  ) {
    super(message)
  }
}

const UNSUPPORTED = new Set(['def', 'if', 'for', 'while', 'load', 'return', 'lambda', 'pass', 'break', 'continue', 'else', 'elif'])

/**
 * Parses the Starlark subset the harness reads in `.rules` files, the whole file before anything runs (as Starlark
 * does, so a syntax error anywhere wins): top-level calls and `NAME = value` assignments separated by newlines or
 * `;`, whose values are string, integer, list and tuple literals, names, calls and `+`. Keyword and positional
 * arguments, trailing commas and comments as Starlark allows them. Anything else (`def`, `if`, `for`, `load`,
 * comprehensions, indexing, other operators) is a syntax error naming its position: the file is refused rather than
 * half-read.
 */
export function parseRulesSource(text: string): RulesStatement[] {
  const lexer = lexRules(text)
  const tokens: RulesToken[] = []
  let index = 0
  /** The token `ahead` places on, lexed only now (a lexing problem surfaces where Starlark would meet it). */
  const tokenAt = (ahead = 0): RulesToken => {
    while (tokens.length <= index + ahead) {
      let step: IteratorResult<RulesToken>
      try {
        step = lexer.next()
      } catch (err) {
        if (err instanceof RulesLexError) throw new RulesParseError(err.message, err.at)
        throw err
      }
      if (step.done) return tokens.at(-1)!
      tokens.push(step.value)
    }
    return tokens[index + ahead]!
  }
  const peek = () => tokenAt()
  const next = () => {
    const current = tokenAt()
    index++
    return current
  }
  const isPunct = (text: string) => {
    const token = peek()
    return token.kind === 'punct' && token.text === text
  }
  const expect = (text: string, context: string) => {
    if (!isPunct(text)) fail(peek(), `expected '${text}' ${context}`)
    next()
  }

  const statements: RulesStatement[] = []
  while (peek().kind !== 'end') {
    if (peek().kind === 'newline' || isPunct(';')) {
      next()
      continue
    }
    statements.push(statement())
    if (isPunct(';')) next()
    else if (peek().kind === 'newline') next()
    else if (peek().kind !== 'end') fail(peek(), 'expected a new line')
  }
  return statements

  function statement(): RulesStatement {
    const token = peek()
    if (token.kind === 'name' && UNSUPPORTED.has(token.text))
      throw new RulesParseError(
        `\`${token.text}\` is not supported in .rules files (the harness reads literal prefix_rule(...) calls)`,
        at(token),
      )
    const second = tokenAt(1)
    if (token.kind === 'name' && second?.kind === 'punct' && second.text === '=') {
      index += 2
      return { kind: 'assign', name: token.text, value: expression(), ...at(token) }
    }
    return { kind: 'expr', value: expression(), ...at(token) }
  }

  function expression(): RulesExpr {
    let left = operand()
    while (isPunct('+')) {
      const plus = next()
      left = { kind: 'add', left, right: operand(), ...at(plus) }
    }
    return left
  }

  function operand(): RulesExpr {
    const token = next()
    switch (token.kind) {
      case 'string':
        return { kind: 'string', value: token.value, bytes: token.bytes, ...at(token) }
      case 'int':
        return { kind: 'int', value: BigInt(token.text), ...at(token) }
      case 'name':
        if (isPunct('(')) {
          next()
          return { kind: 'call', callee: token.text, args: callArgs(), ...at(token) }
        }
        return { kind: 'name', name: token.text, ...at(token) }
      case 'punct':
        if (token.text === '[') return { kind: 'list', items: items(']'), ...at(token) }
        if (token.text === '(') {
          if (isPunct(')')) {
            next()
            return { kind: 'tuple', items: [], ...at(token) }
          }
          const first = expression()
          if (isPunct(')')) {
            next()
            return first
          }
          expect(',', "or ')' in parentheses")
          return { kind: 'tuple', items: [first, ...items(')')], ...at(token) }
        }
    }
    return fail(token, 'expected a value')
  }

  /** Comma-separated values up to `close`, a trailing comma allowed. */
  function items(close: string): RulesExpr[] {
    const values: RulesExpr[] = []
    while (!isPunct(close)) {
      values.push(expression())
      if (!isPunct(close)) expect(',', `or '${close}'`)
    }
    next()
    return values
  }

  function callArgs(): RulesArg[] {
    const args: RulesArg[] = []
    while (!isPunct(')')) {
      const token = peek()
      const second = tokenAt(1)
      if (token.kind === 'name' && second?.kind === 'punct' && second.text === '=') {
        if (args.some((arg) => arg.name === token.text)) fail(token, 'repeated named argument')
        index += 2
        args.push({ name: token.text, value: expression(), at: at(token) })
      } else {
        if (args.some((arg) => arg.name !== undefined)) fail(token, 'positional argument after a named argument')
        args.push({ value: expression(), at: at(token) })
      }
      if (!isPunct(')')) expect(',', "or ')' after an argument")
    }
    next()
    return args
  }
}

function at(token: RulesPosition): RulesPosition {
  return { line: token.line, column: token.column }
}

function fail(token: RulesToken, expected: string): never {
  throw new RulesParseError(`syntax error: unexpected ${describe(token)}, ${expected}`, at(token))
}

function describe(token: RulesToken): string {
  switch (token.kind) {
    case 'name':
      return `identifier '${token.text}'`
    case 'string':
      return 'string literal'
    case 'int':
      return `integer ${token.text}`
    case 'punct':
      return `symbol '${token.text}'`
    case 'newline':
      return 'new line'
    case 'end':
      return 'end of file'
  }
}
