import { appendFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The line Codex appends to `<codexHome>/rules/default.rules` when an approval is `acceptWithExecpolicyAmendment`
 * (execpolicy `amend.rs`, `blocking_append_allow_prefix_rule`): each word JSON-quoted, `", "`-joined.
 */
export function ruleAmendmentLine(prefix: readonly string[]): string {
  if (prefix.length === 0) throw new Error('prefix rule requires at least one token')
  return `prefix_rule(pattern=[${prefix.map((word) => JSON.stringify(word)).join(', ')}], decision="allow")`
}

/**
 * Appends the amendment for `prefix` to `<codexHome>/rules/default.rules` as Codex does: the folder and file created
 * if missing, a newline added first if the file does not end with one, nothing written if the line is already there.
 * (Codex also takes an advisory lock on the file; Node has none to take.)
 */
export function appendRuleAmendment(options: { codexHome: string; prefix: readonly string[] }): { path: string; added: boolean } {
  const line = ruleAmendmentLine(options.prefix)
  const dir = join(options.codexHome, 'rules')
  const path = join(dir, 'default.rules')
  mkdirSync(dir, { recursive: true })
  let contents = ''
  try {
    contents = readFileSync(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  if (contents.split('\n').some((existing) => existing.replace(/\r$/, '') === line)) return { path, added: false }
  const separator = contents !== '' && !contents.endsWith('\n') ? '\n' : ''
  appendFileSync(path, `${separator}${line}\n`)
  return { path, added: true }
}
