/**
 * Allow-rule prefixes Codex 0.169.0 does not honour: a `prefix_rule(pattern=["git"], decision="allow")` still leaves
 * `git status` to Codex's own judgement (asked under `untrusted`, sandboxed otherwise). Observed with the binary (one
 * allow rule per pattern, `untrusted` policy, read-only sandbox), not read in source: these prefixes would allow any
 * code at all (an interpreter, a shell, `env`, `sudo`, `git`, `rm`). Longer patterns are honoured (`git status`,
 * `rm -rf`, `node script.js`, `Rscript -e`), and so were `doas su busybox nohup timeout xargs awk make npm npx docker
 * curl chmod dd nice time exec eval command source`. Forbidden and prompt rules are always honoured.
 */
const IGNORED = [
  // Interpreters and shells.
  ['python3'],
  ['python3', '-'],
  ['python3', '-c'],
  ['python'],
  ['python', '-c'],
  ['py'],
  ['py', '-3'],
  ['pythonw'],
  ['pyw'],
  ['pypy'],
  ['pypy3'],
  ['node'],
  ['node', '-e'],
  ['perl'],
  ['perl', '-e'],
  ['ruby'],
  ['ruby', '-e'],
  ['php'],
  ['php', '-r'],
  ['lua'],
  ['lua', '-e'],
  ['julia'],
  ['julia', '-e'],
  ['Rscript'],
  ['osascript'],
  ['deno'],
  ['bun'],
  ['bash'],
  ['bash', '-c'],
  ['bash', '-lc'],
  ['/bin/bash'],
  ['/bin/bash', '-lc'],
  ['sh'],
  ['sh', '-c'],
  ['sh', '-lc'],
  ['/bin/sh'],
  ['zsh'],
  ['zsh', '-c'],
  ['zsh', '-lc'],
  ['/bin/zsh'],
  ['ksh'],
  ['ksh', '-c'],
  ['dash'],
  ['fish'],
  ['pwsh'],
  ['powershell'],
  ['cmd.exe'],
  // Programs that run other programs, or destroy.
  ['env'],
  ['sudo'],
  ['git'],
  ['rm'],
].map((prefix) => prefix.join('\u0000'))
const IGNORED_SET = new Set(IGNORED)

/** Whether an allow rule that matched `prefix` (the command's tokens it covered) is disregarded by Codex. */
export function isIgnoredAllowPrefix(prefix: readonly string[]): boolean {
  return IGNORED_SET.has(prefix.join('\u0000'))
}
