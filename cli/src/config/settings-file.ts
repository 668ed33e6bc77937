import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { errorMessage } from '@harness-kernel/kernel'
import { CliError } from '../cli-error.js'
import type { HarnessConfig } from './define-config.js'
import { validateConfig } from './validate-config.js'

/**
 * The harness's own settings: `$HARNESS_HOME/config.json` (`~/.harness/config.json` without `HARNESS_HOME`), a JSON
 * object with the keys of `harness.config.*` a JSON file can hold (all but `plugins`; `driver` by name). `harness
 * app-server` reads and writes it through the App Server's `config/*` methods; every command reads it as the lowest
 * layer, under the config file, the flags and `HARNESS_MODEL`.
 */
export function settingsPath(env: Record<string, string | undefined>): string {
  return resolve(env.HARNESS_HOME || join(env.HOME || homedir(), '.harness'), 'config.json')
}

export interface LoadedSettings {
  path: string
  config: HarnessConfig
}

/** The settings file at `path`, checked as a config; `undefined` when there is none. */
export function loadSettings(path: string): LoadedSettings | undefined {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new CliError(`cannot read settings ${path}: ${errorMessage(error)}`, { cause: error })
  }
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected a JSON object')
    if ('plugins' in value) throw new Error('"plugins" cannot be set in a JSON settings file (use harness.config.{mjs,js,ts,mts})')
    if ('driver' in value && typeof value.driver !== 'string') throw new Error('"driver": expected a driver name')
    return { path, config: validateConfig(value) }
  } catch (error) {
    throw new CliError(`invalid settings ${path}: ${errorMessage(error)}`, { cause: error })
  }
}
