import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { errorMessage } from '@harness-kernel/kernel'
import { register } from 'tsx/esm/api'
import { CliError } from '../cli-error.js'
import type { HarnessConfig } from './define-config.js'
import { validateConfig } from './validate-config.js'

/** Looked for in the working directory, in this order. */
export const CONFIG_FILES = ['harness.config.mjs', 'harness.config.js', 'harness.config.ts', 'harness.config.mts'] as const

export interface LoadedConfig {
  path: string
  config: HarnessConfig
}

export interface LoadConfigOptions {
  /** Where to look for a config file, and what `file` is relative to. Default `process.cwd()`. */
  cwd?: string
  /** An explicit config file; it must exist. */
  file?: string
}

export function findConfigFile(cwd: string): string | undefined {
  return CONFIG_FILES.map((name) => resolve(cwd, name)).find((path) => existsSync(path))
}

/** Loads `file`, or the first of `CONFIG_FILES` in `cwd`; `undefined` when there is none to find. */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig | undefined> {
  const cwd = resolve(options.cwd ?? process.cwd())
  const path = options.file === undefined ? findConfigFile(cwd) : resolve(cwd, options.file)
  if (path === undefined) return undefined
  if (!existsSync(path)) throw new CliError(`config file ${path} does not exist`)
  let module: { default?: unknown }
  try {
    module = await importConfig(path)
  } catch (error) {
    throw new CliError(`failed to load config ${path}: ${describeError(error)}${moduleTypeHint(path)}`, { cause: error })
  }
  try {
    return { path, config: validateConfig(module.default) }
  } catch (error) {
    throw new CliError(`invalid config ${path}: ${errorMessage(error)}`, { cause: error })
  }
}

const TYPESCRIPT = /\.[cm]?tsx?$/

async function importConfig(path: string): Promise<{ default?: unknown }> {
  const url = pathToFileURL(path).href
  if (!TYPESCRIPT.test(path)) return import(url)
  // Not tsImport(): its namespace gives the config its own copy of every package it imports, so
  // `instanceof` between the config's kernel classes (ModelError, …) and the CLI's would fail.
  const unregister = register()
  try {
    return await import(url)
  } finally {
    await unregister()
  }
}

/** tsx loads a `.ts` file as CommonJS unless the nearest package.json says `"type": "module"`. */
function moduleTypeHint(path: string): string {
  if (!path.endsWith('.ts') || nearestPackageType(dirname(path)) === 'module') return ''
  return ' (a harness.config.ts is an ES module: add "type": "module" to the nearest package.json, or name the file harness.config.mts)'
}

function nearestPackageType(dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    const file = join(current, 'package.json')
    if (existsSync(file)) {
      try {
        return (JSON.parse(readFileSync(file, 'utf8')) as { type?: string }).type
      } catch {
        return undefined
      }
    }
    if (dirname(current) === current) return undefined
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.name === 'Error' ? error.message : `${error.name}: ${error.message}`
  return String(error)
}
