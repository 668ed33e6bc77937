import type { UntrustedProject } from '../types.js'

/**
 * The command that trusts a project the way Codex's trust prompt does, with `--cwd` and `--codex-home` when they are
 * given (each shell-quoted when it needs to be).
 */
export function projectTrustCommand(flags: { cwd?: string | undefined; codexHome?: string | undefined } = {}): string {
  const parts = ['harness', 'hooks', 'trust', '--project']
  if (flags.cwd !== undefined) parts.push('--cwd', shellWord(flags.cwd))
  if (flags.codexHome !== undefined) parts.push('--codex-home', shellWord(flags.codexHome))
  return parts.join(' ')
}

/** Why the project is not trusted: no entry names it, or an entry says so. */
export function untrustedProjectReason(project: UntrustedProject): string {
  const entry = project.layers.find((layer) => layer.trustEntry !== undefined)?.trustEntry
  return entry === undefined
    ? `no [projects.${JSON.stringify(project.path)}] trust_level in ${project.configPath}`
    : `trust_level = ${JSON.stringify(entry.level)} for [projects.${JSON.stringify(entry.key)}] in ${project.configPath}`
}

/** The session notice for hooks a project's untrusted `.codex/` folders hold: what is skipped, why, and how to trust it. */
export function untrustedProjectNotice(project: UntrustedProject, trustCommand: string = projectTrustCommand()): string {
  const files = project.layers.flatMap((layer) => layer.hookFiles)
  return (
    `the project's .codex/ hooks are not loaded because the project ${project.path} is not trusted ` +
    `(${untrustedProjectReason(project)}): ${files.join(', ')}. ` +
    `Trust the project as Codex does with \`${trustCommand}\` (add --all to trust its hooks too), or trust it in Codex`
  )
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}
