/** What the model is told when the guardrails refuse or ask, in Codex 0.169.0's words (observed; guardrails.md §2.3). */
export const GUARDRAIL_TEXTS = {
  neverApproves: 'approval required by policy, but AskForApproval is set to Never',
  /** An escalation asked for under `never` (observed, App Server differential suite, 5 runs). */
  escalationUnderNever:
    'approval policy is Never; reject command — you cannot ask for escalated permissions if the approval policy is Never',
  granularRules: 'approval required by policy rule, but AskForApproval::Granular.rules is false',
  granularSandbox: 'approval required by policy, but AskForApproval::Granular.sandbox_approval is false',
  writeOutsideRefused: 'writing outside of the project; rejected by user approval settings',
  /** A `forbidden` rule: its justification, else the prefix it forbids; wrapped as Codex wraps a rejection. */
  forbidden: (command: string, justification: string | undefined, prefix: readonly string[]) =>
    `Rejected(${JSON.stringify(`\`${codexCommand(command)}\` rejected: ${justification ?? `policy forbids commands starting with \`${prefix.join(' ')}\``}`)})`,
  /** A `prompt` rule's question: with the rule's justification, else Codex's own words. */
  promptedByRule: (command: string, justification: string | undefined) =>
    justification === undefined
      ? `\`${codexCommand(command)}\` requires approval by policy`
      : `\`${codexCommand(command)}\` requires approval: ${justification}`,
  escalationReason: 'The command asks to run outside the sandbox.',
  writeOutsideReason: (paths: readonly string[]) => `The change writes outside the sandbox's writable roots: ${paths.join(', ')}.`,
} as const

/** A command line as Codex shows the one it runs: `/bin/bash -lc '<line>'`. */
export function codexCommand(command: string): string {
  return `/bin/bash -lc ${shellQuote(command)}`
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'"'"'`)}'`
}
