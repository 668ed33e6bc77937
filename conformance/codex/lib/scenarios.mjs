// Loads scenarios/*.mjs (one scenario per file; the file name is the scenario name).
import { commonProblems, nameMatcher, scenarioModules, throwProblems } from '../../lib/scenarios.mjs'
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
  'subagents',
])
const HANDLER_FILE = /^[A-Za-z]+(-[A-Za-z0-9_]+)?(\.\d+)?\.(stdout|stderr|exit|sleep|sh)$/

function validate(name, s) {
  const problems = commonProblems(s, KNOWN_KEYS)
  if (!s.plan) problems.push('plan is required')
  if (!s.hooks || typeof s.hooks !== 'object') problems.push('hooks (the "hooks" object of hooks.json) is required')
  if (s.prompt !== undefined && s.turns !== undefined) problems.push('give prompt or turns, not both')
  for (const turn of s.turns ?? [])
    if (typeof turn !== 'string' && !(turn && typeof turn === 'object' && turn.compact === true))
      problems.push('turns holds prompts and { compact: true } (a manual compaction)')
  for (const f of Object.keys(s.handlers ?? {}))
    if (!HANDLER_FILE.test(f)) problems.push(`handler file name "${f}" is not <Event>[-<tag>][.<N>].<ext>`)
  if (s.subagents !== undefined && typeof s.subagents !== 'boolean') problems.push('subagents must be a boolean')
  throwProblems(name, problems)
}

/** @param {string[]} filters  substrings or globs (`*`); none = all */
export async function loadScenarios(filters = []) {
  const scenarios = []
  for await (const { base: name, scenario } of scenarioModules(SCENARIOS_DIR, nameMatcher(filters))) {
    validate(name, scenario)
    scenarios.push({ name, ...scenario })
  }
  return scenarios
}
