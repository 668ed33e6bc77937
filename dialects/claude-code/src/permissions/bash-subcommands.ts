import { splitBashCommand } from '../run/bash-command-parts.js'
import { shellWords } from './shell-words.js'

/**
 * Wrappers Claude Code looks through before it matches an allow rule: they run the command they are given as it is
 * (`timeout 5 npm test` is `npm test`).
 */
const TRANSPARENT_WRAPPERS: ReadonlySet<string> = new Set(['timeout', 'time', 'nice', 'nohup', 'stdbuf', 'env', 'xargs'])
/**
 * Wrappers a deny or ask rule also sees through: each runs its command with other privileges or arguments (`sudo rm`,
 * `xargs rm`, `env X=1 rm`), so a rule about the command covers it.
 */
const RUNS_AS_WRAPPERS: ReadonlySet<string> = new Set([
  ...TRANSPARENT_WRAPPERS,
  'env',
  'command',
  'builtin',
  'noglob',
  'sudo',
  'doas',
  'xargs',
  'exec',
  'setsid',
  'watch',
  'strace',
  'unshare',
  'nsenter',
  'su',
  'runuser',
])
const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh'])
/** Wrapper options that take a value (`timeout -s KILL 5`, `nice -n 5`, `sudo -u root`, `xargs -n 1`). */
const OPTION_ARGUMENTS: Readonly<Record<string, ReadonlySet<string>>> = {
  timeout: new Set(['-s', '--signal', '-k', '--kill-after']),
  nice: new Set(['-n', '--adjustment']),
  stdbuf: new Set(['-i', '-o', '-e']),
  env: new Set(['-u', '--unset', '-C', '--chdir', '-S', '--split-string']),
  sudo: new Set(['-u', '--user', '-g', '--group', '-C', '-D', '--chdir', '-h', '--host', '-p', '--prompt', '-r', '-t', '-U']),
  doas: new Set(['-u', '-C']),
  xargs: new Set(['-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s', '--arg-file', '--delimiter', '--max-args', '--max-procs']),
  su: new Set(['-c', '-s', '-g', '-G', '--command', '--shell']),
  runuser: new Set(['-u', '-g', '-G', '-c', '-s', '--user', '--command', '--shell']),
  nsenter: new Set(['-t', '--target']),
  watch: new Set(['-n', '--interval', '-d']),
  strace: new Set(['-e', '-o', '-p', '-s', '-u']),
}

/** One simple command of a Bash line, and the forms a rule may match it in. */
export interface Subcommand {
  /** As written (leading `VAR=value` dropped). */
  text: string
  /** With the transparent wrappers removed: what an allow rule is matched against, besides `text`. */
  allowForms: string[]
  /** Every form a deny or ask rule is matched against: `text`, every wrapper removed, the program by its basename. */
  denyForms: string[]
  /** `sh -c '…'` itself: its script's commands follow it, and an allow rule need not cover the wrapper. */
  shellWrapper?: true
  /** A command of a `sh -c` script. */
  inShellScript?: true
}

/**
 * The simple commands of a Bash line as Claude Code's rules see them: split on `&&`, `||`, `;`, `|`, `&`, newlines and
 * subshells, with command substitutions and `sh -c` scripts looked into. Undefined when the line cannot be parsed (an
 * unclosed quote, a heredoc): no allow rule then covers it, and deny rules see it whole and cut on every operator.
 */
export function bashSubcommands(command: string): Subcommand[] | undefined {
  const split = splitBashCommand(command)
  if (split === undefined) return undefined
  const result: Subcommand[] = []
  for (const text of split.commands) {
    const nested = shellScriptOf(text)
    if (nested !== undefined) {
      const inner = bashSubcommands(nested)
      if (inner === undefined) return undefined
      result.push({ text, allowForms: [text], denyForms: [text], shellWrapper: true })
      result.push(...inner.map((part): Subcommand => ({ ...part, inShellScript: true })))
      continue
    }
    result.push({ text, allowForms: unwrapped(text, TRANSPARENT_WRAPPERS), denyForms: withBasename(unwrapped(text, RUNS_AS_WRAPPERS)) })
  }
  return result
}

/** An unparseable line cut on every operator character: what a deny rule still looks at. */
export function roughSubcommands(command: string): string[] {
  return command
    .split(/[;&|\n()`]|\$\(/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
}

/** The command and every form left by stripping the wrappers in front of it, one at a time. */
function unwrapped(text: string, wrappers: ReadonlySet<string>): string[] {
  const forms = [text]
  let rest = text
  for (;;) {
    const next = stripWrapper(rest, wrappers)
    if (next === undefined || next === '') return forms
    forms.push(next)
    rest = next
  }
}

function stripWrapper(text: string, wrappers: ReadonlySet<string>): string | undefined {
  const words = shellWords(text)
  const name = words?.[0]?.text
  if (words === undefined || name === undefined || !wrappers.has(name)) return undefined
  const takesValue = OPTION_ARGUMENTS[name] ?? new Set<string>()
  let index = 1
  while (index < words.length) {
    const word = words[index]!.text
    if (word === '--') {
      index++
      break
    }
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      index++
      continue
    }
    if (!word.startsWith('-') || word === '-') break
    index += takesValue.has(word) ? 2 : 1
  }
  // `timeout 5 cmd`, `nice` after its options: the duration is not the command.
  if (name === 'timeout' && index < words.length) index++
  const inner = words[index]
  return inner === undefined ? undefined : text.slice(inner.start).trim()
}

/** `bash -c 'script'` (and `sh`, `zsh`, … with their options first): the script; else undefined. */
function shellScriptOf(text: string): string | undefined {
  const forms = unwrapped(text, RUNS_AS_WRAPPERS)
  for (const form of forms) {
    const words = shellWords(form)
    if (words === undefined || words.length < 3) continue
    const program = words[0]!.text.split('/').at(-1)!
    if (!SHELLS.has(program)) continue
    const flag = words.findIndex((word, index) => index > 0 && /^-[a-z]*c[a-z]*$/.test(word.text))
    if (flag > 0 && words[flag + 1] !== undefined) return words[flag + 1]!.text
  }
  return undefined
}

/**
 * A form naming its program by path (`/bin/rm -rf x`) is also matched by the program's name (`rm -rf x`), and a form
 * with quotes or escapes (`"rm" x`, `r''m x`, `\rm x`) by its words as the shell reads them.
 */
function withBasename(forms: string[]): string[] {
  const result = [...forms]
  for (const form of forms) {
    const words = shellWords(form)
    if (words !== undefined) result.push(words.map((word) => word.text).join(' '))
    const match = /^(\S*\/)([^\s/]+)(\s|$)/.exec(form)
    if (match) result.push(form.slice(match[1]!.length))
    if (form.startsWith('\\')) result.push(form.slice(1))
  }
  return [...new Set(result)]
}
