const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g

export function escapeRegExp(text: string): string {
  return text.replace(REGEX_SPECIAL, '\\$&')
}

/**
 * A gitignore-style path glob as a RegExp source: `*` and `?` stay within one path segment, `**` as a whole segment spans
 * any number of segments, `[…]` is a character class (`[!…]` negated) and `\` escapes the next character.
 */
export function pathGlobSource(glob: string): string {
  let source = ''
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!
    if (char === '*') {
      if (glob[index + 1] !== '*') {
        source += '[^/]*'
        continue
      }
      const segmentStart = index === 0 || glob[index - 1] === '/'
      const after = index + 2
      if (segmentStart && glob[after] === '/') {
        source += '(?:.*/)?'
        index = after
      } else if (segmentStart && after === glob.length) {
        source += '.*'
        index = after - 1
      } else {
        // Anywhere else `**` is an ordinary `*`.
        source += '[^/]*'
        index = after - 1
      }
      continue
    }
    if (char === '?') {
      source += '[^/]'
      continue
    }
    if (char === '[') {
      const end = glob.indexOf(']', index + 2)
      if (end > 0) {
        const members = glob.slice(index + 1, end).replaceAll('\\', '\\\\')
        source += `[${members.startsWith('!') ? `^${members.slice(1)}` : members}]`
        index = end
        continue
      }
    }
    if (char === '\\' && index + 1 < glob.length) {
      source += escapeRegExp(glob[index + 1]!)
      index++
      continue
    }
    source += escapeRegExp(char)
  }
  return source
}

/** A command glob as a RegExp source: `*` matches any sequence, spaces and slashes included. */
export function commandGlobSource(glob: string): string {
  return glob.split('*').map(escapeRegExp).join('.*')
}
