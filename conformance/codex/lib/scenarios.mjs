// Loads scenarios/*.mjs (one scenario per file; the file name is the scenario name).
import { readdirSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { SCENARIOS_DIR } from './env.mjs'

const KNOWN_KEYS = new Set([
  'description',
  'prompt',
  'turns',
  'plan',
  'hooks',
  'handlers',
  'configExtra',
  'env',
  'app',
  'expect',
  'timeoutMs',
])
const HANDLER_FILE = /^[A-Za-z]+(-[A-Za-z0-9_]+)?(\.\d+)?\.(stdout|stderr|exit|sleep|sh)$/

function validate(name, s) {
  const problems = []
  for (const k of Object.keys(s)) if (!KNOWN_KEYS.has(k)) problems.push(`unknown key "${k}"`)
  if (typeof s.description !== 'string') problems.push('description must be a string')
  if (!s.plan) problems.push('plan is required')
  if (!s.hooks || typeof s.hooks !== 'object') problems.push('hooks (the "hooks" object of hooks.json) is required')
  if (s.prompt !== undefined && s.turns !== undefined) problems.push('give prompt or turns, not both')
  for (const f of Object.keys(s.handlers ?? {}))
    if (!HANDLER_FILE.test(f)) problems.push(`handler file name "${f}" is not <Event>[-<tag>][.<N>].<ext>`)
  if (problems.length) throw new Error(`scenarios/${name}.mjs: ${problems.join('; ')}`)
}

/** @param {string[]} filters  substrings or globs (`*`); none = all */
export async function loadScenarios(filters = []) {
  const files = readdirSync(SCENARIOS_DIR)
    .filter((f) => f.endsWith('.mjs'))
    .sort()
  const match = (name) =>
    filters.length === 0 ||
    filters.some((f) => (f.includes('*') ? new RegExp(`^${f.split('*').map(escapeRe).join('.*')}$`).test(name) : name.includes(f)))
  const scenarios = []
  for (const file of files) {
    const name = basename(file, '.mjs')
    if (!match(name)) continue
    const mod = await import(pathToFileURL(join(SCENARIOS_DIR, file)).href)
    validate(name, mod.default)
    scenarios.push({ name, ...mod.default })
  }
  return scenarios
}

const escapeRe = (s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
