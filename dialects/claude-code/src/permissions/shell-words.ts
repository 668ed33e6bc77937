/** A word of a simple command: its text with quotes removed, and where it starts and ends in the command. */
export interface ShellWord {
  text: string
  start: number
  end: number
}

/** The words of a simple command (quotes and backslashes honoured, nothing expanded); undefined for an unclosed quote. */
export function shellWords(command: string): ShellWord[] | undefined {
  const words: ShellWord[] = []
  let index = 0
  while (index < command.length) {
    while (index < command.length && /\s/.test(command[index]!)) index++
    if (index >= command.length) break
    const start = index
    let text = ''
    while (index < command.length && !/\s/.test(command[index]!)) {
      const char = command[index]!
      if (char === "'") {
        const end = command.indexOf("'", index + 1)
        if (end < 0) return undefined
        text += command.slice(index + 1, end)
        index = end + 1
      } else if (char === '"') {
        let end = index + 1
        while (end < command.length && command[end] !== '"') {
          if (command[end] === '\\' && /["\\$`]/.test(command[end + 1] ?? '')) end++
          text += command[end]
          end++
        }
        if (end >= command.length) return undefined
        index = end + 1
      } else if (char === '\\') {
        text += command[index + 1] ?? ''
        index += 2
      } else {
        text += char
        index++
      }
    }
    words.push({ text, start, end: index })
  }
  return words
}
