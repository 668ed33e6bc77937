/**
 * A bash parser just deep enough to answer what Codex asks of tree-sitter-bash (`codex-rs/shell-command/src/bash.rs`):
 * is the script valid, which simple commands does it hold (nested ones too: in substitutions, control flow, heredoc
 * bodies), which words does each have, and is it only simple commands joined by `&&`, `||`, `;`, `|` and newlines.
 *
 * Where tree-sitter-bash and bash disagree, this follows tree-sitter-bash (what Codex sees), except for a backslash
 * newline inside a word: tree-sitter ends the word there (`ec\⏎ho` is `ec` and `ho`), bash joins it (`echo`), and
 * this parser joins it too, so that `r\⏎m -rf x` is seen as the `rm -rf x` bash runs. Also unlike tree-sitter:
 * `[ … ]` and `[[ … ]]` contents are only scanned for substitutions, not parsed as expressions, and extglob
 * patterns (`@(a|b)`) are refused.
 */

import {
  type ParseState,
  ShellSyntaxError,
  type ShellWord,
  ShellWordReader,
  type SimpleCommand,
  SPACES,
  WORD_END,
} from './shell-word-reader.js'

export type { ShellWord, SimpleCommand, WordPart } from './shell-word-reader.js'

export interface ShellScript {
  /** Every simple command with a name, nested ones included, in source order. */
  commands: SimpleCommand[]
  /** Only simple commands joined by `&&`, `||`, `;`, `|` and newlines, without comments. */
  plainStructure: boolean
}

/** The script's commands and shape, or `undefined` when it is not valid bash. */
export function parseShellScript(script: string): ShellScript | undefined {
  const parser = new ShellParser(script, { commands: [], depth: 0 })
  try {
    parser.parseScript()
  } catch (error) {
    if (error instanceof ShellSyntaxError) return undefined
    throw error
  }
  return { commands: parser.commands.sort((a, b) => a.start - b.start).map(({ command }) => command), plainStructure: parser.plain }
}

/** Lists nested deeper than this (`$($($(…)))`) are refused rather than risk the stack. */
const MAX_NESTING = 200

const KEYWORD_STARTS = new Set(['if', 'while', 'until', 'for', 'select', 'case', 'function', '{', '[[', '['])
const DECLARATIONS = new Set(['declare', 'typeset', 'export', 'readonly', 'local', 'unset', 'unsetenv'])
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]\n]*\])?\+?=/
const FUNCTION_HEAD = /^[^\s;&|()<>'"`$\\]+[ \t]*\([ \t]*\)/
const REDIRECT = /^(\d*)(&>>|&>|<<<|<<-|<<|>>|>\||>&|<&|<>|<|>)/
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*/

interface PendingHeredoc {
  delimiter: string
  quoted: boolean
  stripTabs: boolean
}

interface ListEnd {
  /** Keywords that end the list when they stand where a command would. */
  keywords?: ReadonlySet<string>
  /** `)` of a subshell or a substitution. */
  closer?: string
  /** `;;`, `;&` and `;;&` end the list (a `case` item). */
  caseItem?: boolean
}

/** Statements, pipelines, compound commands, simple commands, redirections and heredocs. */
class ShellParser extends ShellWordReader {
  private readonly heredocs: PendingHeredoc[] = []

  get commands(): ParseState['commands'] {
    return this.state.commands
  }

  parseScript(): void {
    this.parseList({}, true)
    if (this.pos < this.src.length || this.heredocs.length > 0) this.fail()
  }

  /** Spaces, tabs, line continuations and comments; tree-sitter also skips a backslash before a space or a tab here. */
  private skipSpaces(): void {
    for (;;) {
      const c = this.peek()
      if (c !== '' && SPACES.includes(c)) this.pos++
      else if (c === '\\' && this.peek(1) === '\n') this.pos += 2
      else if (c === '\\' && this.peek(1) === '\r' && this.peek(2) === '\n') this.pos += 3
      else if (c === '\\' && this.peek(1) !== '' && ' \t\v\f'.includes(this.peek(1))) this.pos += 2
      else if (c === '#') {
        this.plain = false
        while (!this.atEnd && this.peek() !== '\n') this.pos++
      } else return
    }
  }

  /** `skipSpaces`, and newlines. */
  private skipBlank(): void {
    for (;;) {
      this.skipSpaces()
      if (this.peek() !== '\n') return
      this.newline()
    }
  }

  /** Consumes a newline, then the bodies of the heredocs started on the line. */
  protected newline(): void {
    this.pos++
    const pending = this.heredocs.splice(0)
    for (const heredoc of pending) this.readHeredocBody(heredoc)
  }

  /** The word at the cursor when it is all plain characters (a keyword candidate: `if`, `{`, `]]`, …). */
  private keyword(): string | undefined {
    let end = this.pos
    while (end < this.src.length && !`${WORD_END}'"\`$\\`.includes(this.src.charAt(end))) end++
    if (end === this.pos || (end < this.src.length && !WORD_END.includes(this.src.charAt(end)))) return undefined
    return this.src.slice(this.pos, end)
  }

  private atListEnd(end: ListEnd): boolean {
    if (this.atEnd) return true
    if (end.closer !== undefined && this.peek() === end.closer) return true
    if (end.caseItem && (this.startsWith(';;') || this.startsWith(';&'))) return true
    const keyword = this.keyword()
    return keyword !== undefined && end.keywords?.has(keyword) === true
  }

  private expectKeyword(keyword: string): void {
    this.skipBlank()
    if (this.keyword() !== keyword) this.fail()
    this.pos += keyword.length
  }

  /** Statements, each ended by `;`, `&`, `;;` or a newline (the last one may go without), until `end`. */
  private parseList(end: ListEnd, allowEmpty: boolean): void {
    if (++this.state.depth > MAX_NESTING) this.fail()
    this.skipBlank()
    let statements = 0
    while (!this.atListEnd(end)) {
      this.parseAndOr()
      statements++
      this.skipSpaces()
      if (this.atListEnd(end)) break
      if (this.startsWith(';;')) {
        this.plain = false
        this.pos += 2
      } else if (this.peek() === ';') this.pos++
      else if (this.peek() === '&') {
        this.plain = false
        this.pos++
      } else if (this.peek() === '\n') this.newline()
      else this.fail()
      this.skipBlank()
    }
    if (statements === 0 && !allowEmpty) this.fail()
    this.state.depth--
  }

  private parseAndOr(): void {
    this.parsePipeline()
    for (;;) {
      this.skipSpaces()
      if (!this.startsWith('&&') && !this.startsWith('||')) return
      this.pos += 2
      this.skipBlank()
      this.parsePipeline()
    }
  }

  private parsePipeline(): void {
    this.skipSpaces()
    if (this.keyword() === '!') {
      this.plain = false
      this.pos++
      this.skipSpaces()
    }
    this.parseCommand()
    for (;;) {
      this.skipSpaces()
      if (this.peek() !== '|' || this.peek(1) === '|') return
      if (this.peek(1) === '&') {
        this.plain = false
        this.pos++
      }
      this.pos++
      this.skipBlank()
      this.parseCommand()
    }
  }

  private parseCommand(): void {
    this.skipSpaces()
    const c = this.peek()
    if (c === '' || ';|)\n'.includes(c) || (c === '&' && !this.startsWith('&>'))) this.fail()
    if (c === '(') {
      this.plain = false
      if (this.peek(1) === '(') {
        this.pos += 2
        this.scanArithmetic()
      } else {
        this.pos++
        this.parseList({ closer: ')' }, false)
        this.expect(')')
      }
      this.parseTrailingRedirects()
      return
    }
    const keyword = this.keyword()
    if (keyword !== undefined && KEYWORD_STARTS.has(keyword)) {
      this.plain = false
      this.pos += keyword.length
      this.parseCompound(keyword)
      this.parseTrailingRedirects()
      return
    }
    if (keyword !== undefined && DECLARATIONS.has(keyword)) {
      this.plain = false
      this.pos += keyword.length
      this.parseWords({ declaration: true })
      return
    }
    if (FUNCTION_HEAD.test(this.src.slice(this.pos, this.pos + 256))) {
      this.plain = false
      this.pos = this.src.indexOf(')', this.pos) + 1
      this.parseFunctionBody()
      return
    }
    this.parseWords({ declaration: false })
  }

  private parseCompound(keyword: string): void {
    switch (keyword) {
      case '{':
        this.parseList({ keywords: new Set(['}']) }, false)
        this.expectKeyword('}')
        return
      case 'if':
        this.parseList({ keywords: new Set(['then']) }, false)
        this.expectKeyword('then')
        this.parseList({ keywords: new Set(['elif', 'else', 'fi']) }, true)
        for (;;) {
          const next = this.keyword()
          this.pos += next?.length ?? 0
          if (next === 'fi') return
          if (next === 'elif') {
            this.parseList({ keywords: new Set(['then']) }, false)
            this.expectKeyword('then')
            this.parseList({ keywords: new Set(['elif', 'else', 'fi']) }, true)
          } else if (next === 'else') {
            this.parseList({ keywords: new Set(['fi']) }, true)
            this.expectKeyword('fi')
            return
          } else this.fail()
        }
      case 'while':
      case 'until':
        this.parseList({ keywords: new Set(['do']) }, false)
        this.parseDoGroup()
        return
      case 'for':
      case 'select':
        this.parseFor(keyword)
        return
      case 'case':
        this.parseCase()
        return
      case 'function': {
        this.skipSpaces()
        if (this.keyword() === undefined) this.fail()
        this.parseWord()
        this.skipSpaces()
        if (this.peek() === '(') {
          this.pos++
          this.skipSpaces()
          this.expect(')')
        }
        this.parseFunctionBody()
        return
      }
      case '[[':
        this.scanTest(']]')
        return
      case '[':
        this.scanTest(']')
        return
    }
  }

  private parseDoGroup(): void {
    this.expectKeyword('do')
    this.parseList({ keywords: new Set(['done']) }, true)
    this.expectKeyword('done')
  }

  private parseFor(keyword: string): void {
    this.skipSpaces()
    if (keyword === 'for' && this.startsWith('((')) {
      this.pos += 2
      this.scanArithmetic()
      this.skipSpaces()
      if (this.peek() === ';') this.pos++
      this.skipBlank()
      if (this.keyword() === '{') {
        this.pos++
        this.parseCompound('{')
        return
      }
      this.parseDoGroup()
      return
    }
    const name = VARIABLE_NAME.exec(this.src.slice(this.pos, this.pos + 256))
    if (name === null) this.fail()
    this.pos += name[0].length
    this.skipSpaces()
    if (this.keyword() === 'in') {
      this.pos += 2
      for (;;) {
        this.skipSpaces()
        const c = this.peek()
        if (c === '' || ';&\n'.includes(c)) break
        this.parseWord()
      }
    }
    this.skipSpaces()
    if (this.peek() === ';' || this.peek() === '&') this.pos++
    else if (this.peek() === '\n') this.newline()
    else this.fail()
    this.parseDoGroup()
  }

  private parseCase(): void {
    this.skipSpaces()
    this.parseWord()
    this.expectKeyword('in')
    for (;;) {
      this.skipBlank()
      if (this.keyword() === 'esac') {
        this.pos += 4
        return
      }
      if (this.peek() === '(') this.pos++
      for (;;) {
        this.skipSpaces()
        this.parseWord()
        this.skipSpaces()
        if (this.peek() !== '|') break
        this.pos++
      }
      this.expect(')')
      this.parseList({ keywords: new Set(['esac']), caseItem: true }, true)
      for (const end of [';;&', ';;', ';&']) {
        if (this.startsWith(end)) {
          this.pos += end.length
          break
        }
      }
    }
  }

  private parseFunctionBody(): void {
    this.skipBlank()
    const keyword = this.keyword()
    if (this.peek() === '(') {
      this.parseCommand()
      return
    }
    if (keyword !== '{' && keyword !== '[[') this.fail()
    this.pos += keyword.length
    this.parseCompound(keyword)
    this.parseTrailingRedirects()
  }

  /** `[ … ]` and `[[ … ]]`: words and operators up to the closing bracket, scanned for substitutions. */
  private scanTest(closing: string): void {
    for (;;) {
      this.skipBlank()
      if (this.atEnd) this.fail()
      if (this.keyword() === closing) {
        this.pos += closing.length
        return
      }
      const c = this.peek()
      if ('()<>&|;'.includes(c)) this.pos++
      else this.parseWord()
    }
  }

  private parseTrailingRedirects(): void {
    for (;;) {
      this.skipSpaces()
      if (!this.atRedirect()) return
      this.plain = false
      this.parseRedirect()
    }
  }

  private atRedirect(): boolean {
    if ((this.peek() === '<' || this.peek() === '>') && this.peek(1) === '(') return false
    return REDIRECT.test(this.src.slice(this.pos, this.pos + 24))
  }

  private parseRedirect(): void {
    const match = REDIRECT.exec(this.src.slice(this.pos, this.pos + 24))
    if (match === null) this.fail()
    this.pos += match[0].length
    const operator = match[2]
    this.skipSpaces()
    const substitution = (this.peek() === '<' || this.peek() === '>') && this.peek(1) === '('
    if (this.atEnd || (WORD_END.includes(this.peek()) && !substitution)) this.fail()
    const start = this.pos
    const target = this.parseWord()
    if (operator === '<<' || operator === '<<-') {
      const quoted = target.parts.some((part) => part.kind !== 'bare') || this.src.slice(start, this.pos).includes('\\')
      const delimiter = this.src.slice(start, this.pos).replace(/["'\\]/g, '')
      this.heredocs.push({ delimiter, quoted, stripTabs: operator === '<<-' })
    }
  }

  private readHeredocBody(heredoc: PendingHeredoc): void {
    const bodyStart = this.pos
    for (;;) {
      if (this.atEnd) break
      const lineEnd = this.src.indexOf('\n', this.pos)
      const end = lineEnd === -1 ? this.src.length : lineEnd
      const line = this.src.slice(this.pos, end)
      const text = heredoc.stripTabs ? line.replace(/^\t+/, '') : line
      if (text === heredoc.delimiter) {
        if (!heredoc.quoted) this.scanExpansionsIn(this.src.slice(bodyStart, this.pos), bodyStart)
        this.pos = lineEnd === -1 ? end : end + 1
        return
      }
      this.pos = lineEnd === -1 ? end : end + 1
    }
    // tree-sitter-bash needs the closing line (bash only warns).
    this.fail()
  }

  /** The commands in the substitutions of an unquoted heredoc body. */
  private scanExpansionsIn(text: string, at: number): void {
    const inner = new ShellParser(text, this.state, this.offset + at)
    while (!inner.atEnd) {
      const c = inner.peek()
      if (c === '\\') inner.pos += 2
      else if (c === '$' || c === '`') inner.parseExpansion()
      else inner.pos++
    }
  }

  /** A simple command (or a declaration: `export`, `local`, …, which tree-sitter does not count as a command). */
  private parseWords(options: { declaration: boolean }): void {
    const start = this.pos
    const words: ShellWord[] = []
    let decorated = false
    for (;;) {
      this.skipSpaces()
      const c = this.peek()
      if (c === '' || ';|)\n'.includes(c) || (c === '&' && !this.startsWith('&>'))) break
      if (this.atRedirect()) {
        this.parseRedirect()
        decorated = true
        continue
      }
      if (c === '(') this.fail()
      if ((words.length === 0 || options.declaration) && ASSIGNMENT.test(this.src.slice(this.pos, this.pos + 256))) {
        this.parseAssignment()
        decorated = true
        continue
      }
      words.push(this.parseWord())
    }
    if (decorated) this.plain = false
    if (options.declaration) return
    if (words.length === 0) {
      if (!decorated) this.fail()
      return
    }
    this.commands.push({ start: this.offset + start, command: { words, decorated } })
  }

  private parseAssignment(): void {
    const match = ASSIGNMENT.exec(this.src.slice(this.pos, this.pos + 256))
    if (match === null) this.fail()
    this.pos += match[0].length
    if (this.peek() === '(') {
      this.pos++
      for (;;) {
        this.skipBlank()
        if (this.peek() === ')') {
          this.pos++
          return
        }
        if (this.atEnd || WORD_END.includes(this.peek())) this.fail()
        this.parseWord()
      }
    }
    if (!this.atEnd && !WORD_END.includes(this.peek())) this.parseWord()
  }

  protected parseSubstitution(): void {
    this.plain = false
    this.parseList({ closer: ')' }, false)
    this.expect(')')
  }

  protected parseNestedScript(script: string, offset: number): void {
    new ShellParser(script, this.state, offset).parseScript()
  }
}
