import { parseShellScript, type ShellWord, type WordPart } from './shell-script.js'

/**
 * The command segments of a bash command line (the kernel's shell tool runs `bash -c <line>`) when it is only plain
 * commands joined by `&&`, `||`, `;`, `|` or newlines; else `undefined`. Codex's `parse_shell_lc_plain_commands`
 * (`codex-rs/shell-command/src/bash.rs`, as Codex 0.169.0 runs it): a plain word is a bare word, a single-quoted
 * string, a double-quoted string without `$`, a backtick or a `\$ \` \" \\ \⏎` escape, or a concatenation of those;
 * a bare word must not hold any of `{}*?[]\~^#$` nor start with `=`, and a command name must be a bare word that is
 * not a number. Redirections, substitutions, expansions, assignments, globs, `&`, `|&`, `;;`, subshells, control
 * flow, heredocs and comments make a line not plain. An empty line is plain with no segments (`[]`).
 */
export function plainCommands(commandLine: string): string[][] | undefined {
  const script = parseShellScript(commandLine)
  if (script === undefined || !script.plainStructure) return undefined
  const commands: string[][] = []
  for (const command of script.commands) {
    const [name, ...args] = command.words
    if (command.decorated || name === undefined) return undefined
    const [part, ...rest] = name.parts
    if (rest.length > 0 || part?.kind !== 'bare' || !isLiteralBare(part.text) || NUMBER.test(part.text)) return undefined
    const argv = [part.text]
    for (const arg of args) {
      const text = wordText(arg, 'plain')
      if (text === undefined) return undefined
      argv.push(text)
    }
    commands.push(argv)
  }
  return commands
}

/**
 * The statically known words of every command in a script, however complex (in control flow, substitutions,
 * pipelines, heredoc bodies), as Codex's `parse_shell_lc_literal_commands`: a command whose name is not literal is
 * left out, and so is every argument that is not (an expansion, a redirection target). Fit to find a dangerous
 * command, never to prove one safe. `undefined` when the script is not valid bash.
 */
export function literalCommands(script: string): string[][] | undefined {
  const parsed = parseShellScript(script)
  if (parsed === undefined) return undefined
  const commands: string[][] = []
  for (const command of parsed.commands) {
    const [name, ...args] = command.words
    const program = name === undefined ? undefined : wordText(name, 'literal')
    if (program === undefined) continue
    const argv = [program]
    for (const arg of args) {
      const text = wordText(arg, 'literal')
      if (text !== undefined) argv.push(text)
    }
    commands.push(argv)
  }
  return commands
}

/** tree-sitter-bash's `number` token, which Codex does not take for a command name. */
const NUMBER = /^-?(0x)?[0-9]+(#[0-9A-Za-z@_]+)?$/

/** A bare word bash leaves as written: no glob, brace, tilde, escape, expansion or comment character. */
function isLiteralBare(text: string): boolean {
  return !text.startsWith('=') && !/[{}*?[\]\\~^#$`]/.test(text)
}

/** Escapes bash removes inside double quotes: a spelling that is not the runtime text. */
const DOUBLE_QUOTED_ESCAPE = /\\[$`"\\\n]/

/**
 * The word's runtime text when its spelling gives it. `plain` also refuses a `$` standing for itself inside double
 * quotes, which tree-sitter makes a token of its own (Codex's plain walk refuses it; its literal walk does not).
 */
function wordText(word: ShellWord, mode: 'plain' | 'literal'): string | undefined {
  let text = ''
  for (const part of word.parts) {
    const piece = partText(part, mode)
    if (piece === undefined) return undefined
    text += piece
  }
  // An empty concatenation (`""''`) is refused, a lone empty string (`''`) is not.
  if (text === '' && word.parts.length > 1) return undefined
  return text
}

function partText(part: WordPart, mode: 'plain' | 'literal'): string | undefined {
  switch (part.kind) {
    case 'bare':
      return isLiteralBare(part.text) ? part.text : undefined
    case 'single':
      return part.text
    case 'double':
      if (part.expands || DOUBLE_QUOTED_ESCAPE.test(part.text)) return undefined
      if (mode === 'plain' && part.text.includes('$')) return undefined
      return part.text
    case 'expansion':
      return undefined
  }
}
