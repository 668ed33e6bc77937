import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { extname, resolve } from 'node:path'
import { errorMessage } from '@harness-kernel/kernel'
import { parseScript } from './parse-script.js'
import { ScriptError } from './script-error.js'
import type { ScriptStep } from './script-step.js'

/**
 * Reads and validates a `.yaml`, `.yml` or `.json` script. A relative path resolves against `process.cwd()`.
 * Synchronous so `scriptedModel()` fails at composition time, not on the first model call.
 */
export function loadScript(path: string): ScriptStep[] {
  const file = resolve(process.cwd(), path)
  const format = formatOf(path)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ScriptError(`${path}: cannot read script: ${errorMessage(error)}`, { cause: error })
  }
  let data: unknown
  try {
    data = format === 'json' ? JSON.parse(text) : parseYaml(text)
  } catch (error) {
    throw new ScriptError(`${path}: invalid ${format === 'json' ? 'JSON' : 'YAML'}: ${errorMessage(error)}`, { cause: error })
  }
  return parseScript(data, path)
}

/**
 * The YAML parser (~70 CommonJS modules) is required on the first YAML script, not when the package loads: a JSON
 * script, or a run on another model, never pays for it. Required, not imported, so `loadScript` stays synchronous.
 */
function parseYaml(text: string): unknown {
  const yaml = createRequire(import.meta.url)('yaml') as typeof import('yaml')
  return yaml.parse(text)
}

function formatOf(path: string): 'json' | 'yaml' {
  const extension = extname(path).toLowerCase()
  if (extension === '.json') return 'json'
  if (extension === '.yaml' || extension === '.yml') return 'yaml'
  throw new ScriptError(`${path}: unsupported script extension "${extension}" (use .yaml, .yml or .json)`)
}
