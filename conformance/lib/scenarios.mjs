// Loading scenarios/*.mjs, the same way in both suites: one file per scenario (the file name is its
// name), picked by the command line's filters.
import { readdirSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'

const escapeRe = (s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')

/**
 * The scenario files of `dir` in name order, as `{ base, scenario }` (the file name without `.mjs`, its default export);
 * only those whose base name `wanted` accepts are imported.
 */
export async function* scenarioModules(dir, wanted = () => true) {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.mjs'))
    .sort()
  for (const file of files) {
    const base = basename(file, '.mjs')
    if (!wanted(base)) continue
    const mod = await import(pathToFileURL(join(dir, file)).href)
    yield { base, scenario: mod.default }
  }
}

/** `filters` (substrings or globs with `*`; none = all) as a test of a scenario's name. */
export function nameMatcher(filters) {
  return (name) =>
    filters.length === 0 ||
    filters.some((f) => (f.includes('*') ? new RegExp(`^${f.split('*').map(escapeRe).join('.*')}$`).test(name) : name.includes(f)))
}

/** The checks every scenario gets: only `knownKeys`, and a string `description`. */
export function commonProblems(s, knownKeys) {
  const problems = []
  for (const k of Object.keys(s)) if (!knownKeys.has(k)) problems.push(`unknown key "${k}"`)
  if (typeof s.description !== 'string') problems.push('description must be a string')
  return problems
}

/** Throws the problems of `scenarios/<name>.mjs`, if any. */
export function throwProblems(name, problems) {
  if (problems.length) throw new Error(`scenarios/${name}.mjs: ${problems.join('; ')}`)
}
