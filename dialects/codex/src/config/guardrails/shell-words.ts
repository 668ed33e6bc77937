/**
 * Splits an example command line as Codex does (the `shlex` crate): words split on whitespace, `'…'` literal,
 * `"…"` with `\` escaping only `$ \` " \\` and a newline, `\` escaping any character outside quotes, and `#` at the
 * start of a word commenting out the rest of the line. Undefined for an unterminated quote or a trailing `\`.
 */
export function splitShellWords(line: string): string[] | undefined {
  const words: string[] = []
  let i = 0
  while (i < line.length) {
    const c = line[i]!
    if (c === ' ' || c === '\t' || c === '\n') {
      i++
      continue
    }
    if (c === '#') {
      while (i < line.length && line[i] !== '\n') i++
      continue
    }
    let word = ''
    while (i < line.length && !' \t\n'.includes(line[i]!)) {
      const ch = line[i++]!
      if (ch === "'") {
        const close = line.indexOf("'", i)
        if (close < 0) return undefined
        word += line.slice(i, close)
        i = close + 1
      } else if (ch === '"') {
        for (;;) {
          if (i >= line.length) return undefined
          const inner = line[i++]!
          if (inner === '"') break
          if (inner === '\\') {
            if (i >= line.length) return undefined
            const escaped = line[i++]!
            if (escaped === '\n') continue
            word += '$`"\\'.includes(escaped) ? escaped : `\\${escaped}`
          } else word += inner
        }
      } else if (ch === '\\') {
        if (i >= line.length) return undefined
        const escaped = line[i++]!
        if (escaped !== '\n') word += escaped
      } else word += ch
    }
    words.push(word)
  }
  return words
}

/** Joins words into a command line as `shlex::try_join` shows them in Codex's messages. */
export function joinShellWords(words: readonly string[]): string {
  return words.map(quoteShellWord).join(' ')
}

function quoteShellWord(word: string): string {
  if (word === '') return "''"
  if (/^[A-Za-z0-9+\-./:@\]_,]+$/.test(word)) return word
  if (!word.includes("'")) return `'${word}'`
  return `"${word.replace(/[$`"\\]/g, (ch) => `\\${ch}`)}"`
}
