/**
 * The word level of the bash parser (`shell-script.ts`): the cursor over a script, quotes, escapes, expansions and
 * substitutions. What a substitution holds is parsed by the statement level, through the abstract methods.
 */

/** One piece of a word, split where its quoting changes. */
export type WordPart =
  /** Unquoted characters as written, backslash escapes included. */
  | { kind: 'bare'; text: string }
  /** Between single quotes. */
  | { kind: 'single'; text: string }
  /** Between double quotes, as written; `expands` when it holds an expansion or a substitution. */
  | { kind: 'double'; text: string; expands: boolean }
  /** Anything bash expands when it runs: `$x`, `${…}`, `$(…)`, `` `…` ``, `$((…))`, `<(…)`, `$'…'`, `$"…"`. */
  | { kind: 'expansion' }

export interface ShellWord {
  parts: WordPart[]
}

export interface SimpleCommand {
  /** The command name, then its arguments. */
  words: ShellWord[]
  /** It has variable assignments or redirections. */
  decorated: boolean
}

export class ShellSyntaxError extends Error {}

/** What the parsers of one script (the script's, and those of backtick and heredoc bodies) share. */
export interface ParseState {
  commands: { start: number; command: SimpleCommand }[]
  depth: number
}

export const SPACES = ' \t\r\v\f'
/** Characters that end an unquoted word. */
export const WORD_END = `${SPACES}\n;&|()<>`

export abstract class ShellWordReader {
  pos = 0
  /** Cleared by anything that makes the script more than plain commands. */
  plain = true

  constructor(
    protected readonly src: string,
    protected readonly state: ParseState,
    protected readonly offset = 0,
  ) {}

  /** After `$(`, `<(` or `>(`: the statements up to the closing parenthesis, and it. */
  protected abstract parseSubstitution(): void

  /** A script in backticks, already unescaped, that starts at `offset` in the whole script. */
  protected abstract parseNestedScript(script: string, offset: number): void

  /** Consumes a newline (and what it ends, such as heredoc bodies). */
  protected abstract newline(): void

  protected fail(): never {
    throw new ShellSyntaxError(`bash syntax error at ${this.pos}`)
  }

  protected peek(ahead = 0): string {
    return this.src.charAt(this.pos + ahead)
  }

  protected startsWith(text: string): boolean {
    return this.src.startsWith(text, this.pos)
  }

  protected get atEnd(): boolean {
    return this.pos >= this.src.length
  }

  protected expect(char: string): void {
    if (this.peek() !== char) this.fail()
    this.pos++
  }

  /** One word: adjacent unquoted, quoted and expanded pieces. */
  protected parseWord(): ShellWord {
    const parts: WordPart[] = []
    const bare = (text: string) => {
      const last = parts.at(-1)
      if (last?.kind === 'bare') last.text += text
      else parts.push({ kind: 'bare', text })
    }
    const c0 = this.peek()
    if ((c0 === '<' || c0 === '>') && this.peek(1) === '(') {
      this.pos += 2
      this.parseSubstitution()
      parts.push({ kind: 'expansion' })
    }
    for (;;) {
      const c = this.peek()
      if (c === '' || WORD_END.includes(c)) break
      if (c === "'") {
        const close = this.src.indexOf("'", this.pos + 1)
        if (close === -1) this.fail()
        parts.push({ kind: 'single', text: this.src.slice(this.pos + 1, close) })
        this.pos = close + 1
      } else if (c === '"') parts.push(this.parseDouble())
      else if (c === '`' || (c === '$' && this.startsExpansion(1))) {
        this.parseExpansion()
        parts.push({ kind: 'expansion' })
      } else if (c === '\\') {
        const next = this.peek(1)
        if (next === '') this.fail()
        if (next === '\n' || (next === '\r' && this.peek(2) === '\n')) {
          // A line continuation inside a word joins it (bash); at the very end, tree-sitter-bash calls it an error.
          this.pos += next === '\n' ? 2 : 3
          if (this.atEnd) this.fail()
        } else if ('\t\v\f'.includes(next)) break
        else {
          bare(`\\${next}`)
          this.pos += 2
        }
      } else {
        bare(c)
        this.pos++
      }
    }
    if (parts.length === 0) this.fail()
    return { parts }
  }
  /** Whether the `$` at `pos + ahead - 1` starts an expansion rather than standing for itself. */
  protected startsExpansion(ahead: number): boolean {
    const next = this.peek(ahead)
    return next !== '' && /[A-Za-z0-9_({'"*@?!#$-]/.test(next)
  }
  protected parseDouble(): WordPart {
    this.pos++
    let text = ''
    let expands = false
    for (;;) {
      const c = this.peek()
      if (c === '') this.fail()
      if (c === '"') {
        this.pos++
        return { kind: 'double', text, expands }
      }
      if (c === '\\') {
        if (this.peek(1) === '') this.fail()
        text += c + this.peek(1)
        this.pos += 2
      } else if (c === '`' || (c === '$' && this.peek(1) !== '"' && this.peek(1) !== "'" && this.startsExpansion(1))) {
        this.parseExpansion()
        expands = true
      } else {
        text += c
        this.pos++
      }
    }
  }
  /** `$…` or `` `…` `` at the cursor; the commands it substitutes are collected. */
  protected parseExpansion(): void {
    this.plain = false
    if (this.peek() === '`') {
      this.parseBackticks()
      return
    }
    const next = this.peek(1)
    if (next === '(' && this.peek(2) === '(') {
      this.pos += 3
      this.scanArithmetic()
      return
    }
    if (next === '(') {
      this.pos += 2
      this.parseSubstitution()
      return
    }
    if (next === '{') {
      this.pos += 2
      this.scanBraces()
      return
    }
    if (next === "'") {
      this.pos += 2
      for (;;) {
        const c = this.peek()
        if (c === '') this.fail()
        this.pos += c === '\\' ? 2 : 1
        if (c === "'") return
      }
    }
    if (next === '"') {
      this.pos++
      this.parseDouble()
      return
    }
    this.pos++
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]|[*@?!#$0_-])/.exec(this.src.slice(this.pos, this.pos + 256))
    this.pos += name?.[0].length ?? 0
  }
  private parseBackticks(): void {
    const start = this.pos + 1
    let script = ''
    let i = start
    for (;;) {
      const c = this.src.charAt(i)
      if (c === '') this.fail()
      if (c === '`') break
      if (c === '\\' && '$`\\'.includes(this.src.charAt(i + 1)) && this.src.charAt(i + 1) !== '') {
        script += this.src.charAt(i + 1)
        i += 2
      } else {
        script += c
        i++
      }
    }
    this.parseNestedScript(script, this.offset + start)
    this.pos = i + 1
  }
  /** After `${`: up to the matching `}`, through nested quotes, expansions and substitutions. */
  private scanBraces(): void {
    for (;;) {
      const c = this.peek()
      if (c === '') this.fail()
      if (c === '}') {
        this.pos++
        return
      }
      if (c === '\\') this.pos += 2
      else if (c === "'") {
        const close = this.src.indexOf("'", this.pos + 1)
        if (close === -1) this.fail()
        this.pos = close + 1
      } else if (c === '"') this.parseDouble()
      else if (c === '`' || (c === '$' && this.startsExpansion(1))) this.parseExpansion()
      else this.pos++
    }
  }
  /** After `((` or `$((`: up to the matching `))`, through nested parentheses and substitutions. */
  protected scanArithmetic(): void {
    let depth = 0
    for (;;) {
      const c = this.peek()
      if (c === '') this.fail()
      if (c === ')' && depth === 0) {
        if (this.peek(1) !== ')') this.fail()
        this.pos += 2
        return
      }
      if (c === '(') depth++
      else if (c === ')') depth--
      if (c === '`' || (c === '$' && this.startsExpansion(1))) this.parseExpansion()
      else if (c === '\\') this.pos += 2
      else if (c === '\n') this.newline()
      else this.pos++
    }
  }
}
