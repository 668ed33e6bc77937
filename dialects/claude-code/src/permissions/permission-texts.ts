/**
 * What the model is told when Claude Code's permissions stop a call, byte for byte as Claude Code 2.1.332 says it
 * (observed with `claude -p` against a fake model; guardrails.md §4.4).
 */
export const PERMISSION_TEXTS = {
  /** A deny rule matched a Bash command (or one of its subcommands). */
  bashDenied: (command: string) => `Permission to use Bash with command ${command} has been denied.`,
  /** A deny rule matched a command of a `sh -c` script: an ask, in every mode. */
  deniedInShellScript:
    'A permission rule denies a command inside this shell -c script, so Claude Code could not check it for dangerous removals. Approving runs the whole script, including that command.',
  /** Default mode: a command that is not read-only. */
  commandNeedsApproval: 'This command requires approval',
  /** Default mode: one part of a compound line is not read-only. */
  partNeedsApproval: (part: string) => `This Bash command contains multiple operations. The following part requires approval: ${part}`,
  /** Default mode: `$(…)` or backticks. */
  nestedCommand: "A nested command in this command can't be checked before it runs",
  /** Default mode: a subshell. */
  shellOperators: 'This command uses shell operators that require approval for safety',
  evalCommand: "'eval' evaluates arguments as shell code",
  findExec: (option: string) =>
    `find with '${option}' executes commands or modifies files — cannot be auto-allowed by a Bash(find:*) prefix rule`,
  /** The model asked to run a command outside the sandbox. */
  runOutsideSandbox: 'Run outside of the sandbox',
  /** plan: an edit asks, saying why it cannot run. */
  planWrite: (path: string) => `Cannot write to ${path} while in plan mode.`,
  /** auto and plan: what needs the classifier's word, which the kernel does not have. */
  classifierUnavailable: (tool: string) =>
    `Auto mode is unavailable: its safety check does not run for this session, so ${tool} was not run. Other actions that need the check will be denied too, and retrying won't help. Finish what you can without them, then tell the user what is blocked and that they can switch to another permission mode.`,
  /** A deny rule matched any other call. */
  toolDenied: (tool: string) => `Permission to use ${tool} has been denied.`,
  /** A Read or Edit rule denies the file: checked before any hook runs. */
  fileDenied: '<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>',
  /** A Read deny rule covers where a link leads: refused after the hooks, naming the link. */
  readDenied: (path: string) => `Permission to read ${path} has been denied.`,
  /** A tool-wide deny takes the tool away; a call to it anyway gets this. */
  toolRemoved: (tool: string) =>
    `<tool_use_error>Error: No such tool available: ${tool}. ${tool} is disabled for this session, in subagents as well as here.</tool_use_error>`,
  /** An ask nobody can answer (no approver, as in `claude -p`): the reason the prompt would have shown. */
  notGranted: (tool: string) => `Claude requested permissions to use ${tool}, but you haven't granted it yet.`,
  notGrantedWrite: (path: string) => `Claude requested permissions to write to ${path}, but you haven't granted it yet.`,
  notGrantedRead: (path: string) => `Claude requested permissions to read from ${path}, but you haven't granted it yet.`,
  /** The user refused the prompt. */
  userRejected:
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
  /** `dontAsk`: what would ask is refused at once. */
  dontAsk: (tool: string) =>
    `Permission to use ${tool} has been denied because Claude Code is running in don't ask mode. ${DONT_ASK_SUFFIX}`,
} as const

const DONT_ASK_SUFFIX =
  "IMPORTANT: You *may* attempt to accomplish this action using other tools that might naturally be used to accomplish this goal, e.g. using head instead of cat. But you *should not* attempt to work around this denial in malicious ways, e.g. do not use your ability to run tests to execute non-test actions. You should only try to work around this restriction in reasonable ways that do not attempt to bypass the intent behind this denial. If you believe this capability is essential to complete the user's request, STOP and explain to the user what you were trying to do and why you need this permission. Let the user decide how to proceed."
