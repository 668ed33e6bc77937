import { dirname, resolve } from 'node:path'
import { bashSubcommands, type Subcommand } from './bash-subcommands.js'
import { COMMAND_VERBS } from './command-verbs.js'
import { PERMISSION_TEXTS } from './permission-texts.js'
import { shellWords } from './shell-words.js'
import { inWorkingDirectories, listDirectories } from './working-directories.js'

/** Commands that only read: they run without a prompt when every path they name is in a working directory. */
const READ_ONLY: ReadonlySet<string> = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'pwd',
  'echo',
  'printf',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'which',
  'whoami',
  'date',
  'file',
  'stat',
  'du',
  'df',
  'tree',
  'sort',
  'uniq',
  'cut',
  'diff',
  'true',
  'false',
  'test',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'uname',
  'id',
  'hostname',
  'nl',
  'tac',
  'rev',
  'comm',
  'cmp',
  'sha256sum',
  'sha1sum',
  'md5sum',
  'column',
  'fold',
  'strings',
  'od',
  'hexdump',
  'type',
  'lsof',
  'find',
])
/** git subcommands that only read. */
const GIT_READ_ONLY: ReadonlySet<string> = new Set([
  'status',
  'log',
  'diff',
  'show',
  'branch',
  'rev-parse',
  'ls-files',
  'blame',
  'describe',
  'shortlog',
  'reflog',
  'grep',
])
/**
 * Commands that create, change or remove the files they name: acceptEdits lets them run in the working directories.
 * (`tee` is not one: Claude Code asks about it as about any other command, observed.)
 */
const WRITES_FILES: ReadonlySet<string> = new Set(['touch', 'mkdir', 'rm', 'rmdir', 'mv', 'cp', 'ln'])
/** Wrappers a read-only command may stand behind and still read only (`timeout 5 ls`; not `nohup ls`, observed). */
const READ_WRAPPERS: ReadonlySet<string> = new Set(['timeout', 'time'])
const FIND_ACTION = /(?:^|\s)(-(?:exec|execdir|ok|okdir|delete|fprint|fprintf|fls))(?=\s|$)/

export interface BashModeContext {
  cwd: string
  workingDirectories: readonly string[]
  /** acceptEdits (and auto): file commands inside the working directories run without a prompt. */
  acceptEdits: boolean
}

/** Why a Bash line needs approval, and what a PermissionRequest hook is offered. */
export interface BashApproval {
  message: string
  suggestions: unknown[]
}

/**
 * What a prompting mode makes of a Bash line (of `left`, its subcommands no allow rule covers; default all), with Claude Code 2.1.332's reasons (observed): it runs
 * when every subcommand only reads in the working directories (or, under acceptEdits, changes files there); otherwise
 * it asks, naming the first subcommand that needs approval. Claude Code reads more commands as read-only than this
 * list: what is not on it asks, which never runs more than Claude Code would.
 */
export function bashNeedsApproval(command: string, context: BashModeContext, left?: readonly Subcommand[]): BashApproval | undefined {
  const addRule = [
    { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: command }], behavior: 'allow', destination: 'localSettings' },
  ]
  const generic = (message: string): BashApproval => ({ message, suggestions: addRule })
  const parts = bashSubcommands(command)
  if (parts === undefined || parts.length === 0) return generic(PERMISSION_TEXTS.commandNeedsApproval)
  // A `sh -c` wrapper stands for its script: it is checked whole, not command by command.
  const toCheck = (left ?? parts).filter((part) => !part.inShellScript)
  const compound = parts.filter((part) => !part.inShellScript).length > 1
  if (toCheck.length === 0) return undefined
  if (/\$\(|`/.test(command)) return unsuggested(PERMISSION_TEXTS.nestedCommand)
  if (/(?:^|[;&|]\s*)\(/.test(command.trim())) return unsuggested(PERMISSION_TEXTS.shellOperators)
  for (const part of toCheck) {
    const words = shellWords(part.text)
    if (words === undefined || words.length === 0) return generic(PERMISSION_TEXTS.commandNeedsApproval)
    const redirect = outputRedirection(part.text, context.cwd)
    if (redirect !== undefined) {
      if (context.acceptEdits && inWorkingDirectories(redirect, context.workingDirectories)) continue
      return fileApproval(`Output redirection to '${redirect}'`, redirect, context, 'redirection')
    }
    const unwrapped = shellWords(part.allowForms.at(-1) ?? part.text) ?? words
    const name = unwrapped[0]?.text ?? ''
    if (name === 'eval') return unsuggested(PERMISSION_TEXTS.evalCommand)
    if (WRITES_FILES.has(name)) {
      const targets = unwrapped
        .slice(1)
        .map((word) => word.text)
        .filter((arg) => !arg.startsWith('-'))
        .map((arg) => resolve(context.cwd, arg))
      const outside = targets.find((path) => !inWorkingDirectories(path, context.workingDirectories))
      if (context.acceptEdits && outside === undefined && targets.length > 0) continue
      const shown = outside ?? targets[0] ?? context.cwd
      return fileApproval(`${name} in '${shown}'`, shown, context)
    }
    const reader = readOnlyForm(part.text)
    const action = reader?.name === 'find' ? FIND_ACTION.exec(part.text)?.[1] : undefined
    if (action !== undefined) return unsuggested(PERMISSION_TEXTS.findExec(action))
    if (reader === undefined) {
      return generic(compound ? PERMISSION_TEXTS.partNeedsApproval(part.text) : PERMISSION_TEXTS.commandNeedsApproval)
    }
    const outside = reader.args
      .filter((arg) => arg.startsWith('/') || arg.startsWith('~'))
      .map((arg) => resolve(context.cwd, arg))
      .find((path) => !inWorkingDirectories(path, context.workingDirectories))
    if (outside !== undefined) {
      const dirs = listDirectories(context.workingDirectories)
      const verb = COMMAND_VERBS[reader.name] ?? 'read files from'
      return generic(
        `${reader.name} in '${outside}' was blocked. For security, Claude Code may only ${verb} the allowed working directories for this session: ${dirs}.`,
      )
    }
  }
  return undefined
}

/** The read-only command a subcommand is, behind `timeout` or `time` at most; undefined when it is not one. */
function readOnlyForm(text: string): { name: string; args: string[] } | undefined {
  let words = shellWords(text)?.map((word) => word.text)
  while (words !== undefined && READ_WRAPPERS.has(words[0] ?? '')) {
    words = words.slice(words[0] === 'timeout' ? 2 : 1)
  }
  const [name, ...args] = words ?? []
  if (name === undefined) return undefined
  if (name === 'git') return GIT_READ_ONLY.has(args.find((arg) => !arg.startsWith('-')) ?? '') ? { name, args } : undefined
  return READ_ONLY.has(name) ? { name, args } : undefined
}

/** The file a `>`/`>>` redirection writes (not a descriptor duplication, not /dev/null). */
export function outputRedirection(text: string, cwd: string): string | undefined {
  const match = /(?:^|[^<>&\d])\d*>>?\s*([^\s&|;<>]+)/.exec(text)
  const target = match?.[1]
  if (target === undefined || target === '/dev/null' || target.startsWith('&')) return undefined
  return resolve(cwd, target.replace(/^['"]|['"]$/g, ''))
}

/** An ask Claude Code offers no rule for (its reason names a construct, not a command): `permission_suggestions: []`. */
function unsuggested(message: string): BashApproval {
  return { message, suggestions: [] }
}

/**
 * A command's file access that needs approval. Inside the working directories Claude Code suggests adding the folder
 * and, for a command (not a redirection, observed), acceptEdits.
 */
function fileApproval(subject: string, path: string, context: BashModeContext, kind: 'command' | 'redirection' = 'command'): BashApproval {
  const dirs = listDirectories(context.workingDirectories)
  if (inWorkingDirectories(path, context.workingDirectories)) {
    return {
      message: `${subject} needs approval. The path is inside the working directories for this session (${dirs}), and Claude Code asks before a shell command creates, changes or removes files there.`,
      suggestions: [
        { type: 'addDirectories', directories: [context.cwd], destination: 'session' },
        ...(kind === 'command' ? [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] : []),
      ],
    }
  }
  return {
    message: `${subject} needs approval. The path is outside the working directories for this session (${dirs}). Allowing runs the command as written.`,
    suggestions: [{ type: 'addDirectories', directories: [dirname(path)], destination: 'session' }],
  }
}
