export interface BashCommandParts {
  /** Every simple command, those inside `$()`, backticks and `<()` included, with leading `VAR=value` assignments removed. */
  commands: string[]
  /** The command expands something at run time: `$()`, backticks or a `$VAR`. */
  dynamic: boolean
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/
/** Words around a command that are not one (`if git diff`, `{ git push; }`). */
const LEADING_KEYWORDS: ReadonlySet<string> = new Set([
  '{',
  '!',
  'if',
  'then',
  'else',
  'elif',
  'do',
  'while',
  'until',
  'time',
  '}',
  'fi',
  'done',
  'esac',
])
/** What is left of `} > out` or `done 2>&1`: redirections of a compound command, not a command. */
const REDIRECTIONS_ONLY = /^\d*[<>]/
const EXPANSION_START = /[A-Za-z0-9_@*#?$!{-]/

/**
 * Splits a Bash command line into its simple commands (on `;`, `&&`, `||`, `|`, `&`, newlines and subshell parentheses) and
 * looks into command substitutions. Undefined when the line cannot be parsed (an unclosed quote or substitution, a heredoc):
 * callers then fail open.
 */
export function splitBashCommand(command: string): BashCommandParts | undefined {
  const parts: BashCommandParts = { commands: [], dynamic: false }
  return scanCommands(command, parts) ? parts : undefined
}

function scanCommands(source: string, parts: BashCommandParts): boolean {
  let current = ''
  const flush = () => {
    const simple = simpleCommand(current)
    if (simple !== undefined) parts.commands.push(simple)
    current = ''
  }
  let index = 0
  while (index < source.length) {
    const char = source[index]!
    const next = source[index + 1]
    if (char === '\\') {
      if (next !== '\n') current += source.slice(index, index + 2)
      index += 2
      continue
    }
    if (char === "'") {
      const end = source.indexOf("'", index + 1)
      if (end < 0) return false
      current += source.slice(index, end + 1)
      index = end + 1
      continue
    }
    if (char === '"') {
      const end = scanDoubleQuoted(source, index, parts)
      if (end === undefined) return false
      current += source.slice(index, end + 1)
      index = end + 1
      continue
    }
    if (char === '`' || (char === '$' && next === '(') || ((char === '<' || char === '>') && next === '(')) {
      const end = scanSubstitution(source, index, parts)
      if (end === undefined) return false
      current += source.slice(index, end + 1)
      index = end + 1
      continue
    }
    if (char === '$') {
      if (next !== undefined && EXPANSION_START.test(next)) parts.dynamic = true
      current += char
      index++
      continue
    }
    if (char === '#' && (current === '' || /\s$/.test(current))) {
      const end = source.indexOf('\n', index)
      index = end < 0 ? source.length : end
      continue
    }
    if (char === '<' && next === '<' && source[index + 2] !== '<') return false
    if (char === ';' || char === '\n' || char === '(' || char === ')') {
      flush()
      index++
      continue
    }
    if (char === '|') {
      flush()
      index += next === '|' || next === '&' ? 2 : 1
      continue
    }
    if (char === '&') {
      const previous = current.at(-1)
      if (next === '>' || previous === '>' || previous === '<') {
        current += char
        index++
        continue
      }
      flush()
      index += next === '&' ? 2 : 1
      continue
    }
    current += char
    index++
  }
  flush()
  return true
}

/** `"…"`: returns the closing quote's index; substitutions inside are scanned too. */
function scanDoubleQuoted(source: string, start: number, parts: BashCommandParts): number | undefined {
  let index = start + 1
  while (index < source.length) {
    const char = source[index]!
    const next = source[index + 1]
    if (char === '\\') {
      index += 2
    } else if (char === '"') {
      return index
    } else if (char === '`' || (char === '$' && next === '(')) {
      const end = scanSubstitution(source, index, parts)
      if (end === undefined) return undefined
      index = end + 1
    } else {
      if (char === '$' && next !== undefined && EXPANSION_START.test(next)) parts.dynamic = true
      index++
    }
  }
  return undefined
}

/** `` `…` ``, `$(…)`, `$((…))`, `<(…)` or `>(…)` at `start`: scans the commands inside and returns the closing index. */
function scanSubstitution(source: string, start: number, parts: BashCommandParts): number | undefined {
  parts.dynamic = true
  if (source[start] === '`') {
    const end = backtickEnd(source, start)
    if (end === undefined) return undefined
    const inner = source.slice(start + 1, end).replace(/\\([`\\$])/g, '$1')
    return scanCommands(inner, parts) ? end : undefined
  }
  const open = start + 1
  const end = closingParen(source, open)
  if (end === undefined) return undefined
  // `$((…))` is arithmetic, not commands.
  if (source[open + 1] === '(' && source[end - 1] === ')') return end
  return scanCommands(source.slice(open + 1, end), parts) ? end : undefined
}

function backtickEnd(source: string, start: number): number | undefined {
  for (let index = start + 1; index < source.length; index++) {
    if (source[index] === '\\') index++
    else if (source[index] === '`') return index
  }
  return undefined
}

/** The index of the `)` matching the `(` at `open`, skipping quoted text. */
function closingParen(source: string, open: number): number | undefined {
  let depth = 0
  for (let index = open; index < source.length; index++) {
    const char = source[index]!
    if (char === '\\') {
      index++
    } else if (char === "'") {
      const end = source.indexOf("'", index + 1)
      if (end < 0) return undefined
      index = end
    } else if (char === '"') {
      const end = skipDoubleQuoted(source, index)
      if (end === undefined) return undefined
      index = end
    } else if (char === '`') {
      const end = backtickEnd(source, index)
      if (end === undefined) return undefined
      index = end
    } else if (char === '(') {
      depth++
    } else if (char === ')') {
      depth--
      if (depth === 0) return index
    }
  }
  return undefined
}

function skipDoubleQuoted(source: string, start: number): number | undefined {
  for (let index = start + 1; index < source.length; index++) {
    if (source[index] === '\\') index++
    else if (source[index] === '"') return index
  }
  return undefined
}

/** The simple command as written, without leading assignments and keywords; undefined when no command is left. */
function simpleCommand(text: string): string | undefined {
  let rest = text.trim()
  for (;;) {
    const word = rest.slice(0, firstWordEnd(rest))
    if (word === '' || !(ASSIGNMENT.test(word) || LEADING_KEYWORDS.has(word))) break
    rest = rest.slice(word.length).trimStart()
  }
  return rest === '' || REDIRECTIONS_ONLY.test(rest) ? undefined : rest
}

function firstWordEnd(text: string): number {
  let index = 0
  while (index < text.length && !/\s/.test(text[index]!)) {
    const char = text[index]!
    if (char === '\\') index += 2
    else if (char === "'") index = text.indexOf("'", index + 1) + 1 || text.length
    else if (char === '"') index = (skipDoubleQuoted(text, index) ?? text.length - 1) + 1
    else index++
  }
  return Math.min(index, text.length)
}
