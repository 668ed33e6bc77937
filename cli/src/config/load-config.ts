import { existsSync, readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { errorMessage } from '@harness-kernel/kernel'
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
    const fix = commonJsFix(path)
    const cause = `failed to load config ${path}: ${describeError(error)}`
    // An ES module loaded as CommonJS: the fix comes first. Another error comes first, with the fix as a note.
    const message = fix === undefined ? cause : isModuleFormatError(error) ? `${fix}\n(${cause})` : `${cause}\n(note: ${fix})`
    throw new CliError(message, { cause: error })
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
  // tsx (and esbuild) load only for a TypeScript config: a run without one never pays for them.
  const { register } = await import('tsx/esm/api')
  const unregister = register()
  try {
    return await import(url)
  } finally {
    await unregister()
  }
}

/**
 * tsx loads a `.ts` file as CommonJS unless the nearest package.json says `"type": "module"`, and an ES module config
 * (imports, `export default`) then fails with an error about require(). The fix, for a `.ts` config in such a folder.
 */
function commonJsFix(path: string): string | undefined {
  if (!path.endsWith('.ts')) return undefined
  const name = basename(path)
  const mts = `${name.slice(0, -'.ts'.length)}.mts`
  const nearest = nearestPackageJson(dirname(path))
  if (nearest === undefined) {
    return `${name} is TypeScript outside any package: rename it ${mts}, or add a package.json with "type": "module" in ${dirname(path)}`
  }
  if (nearest.type === 'module') return undefined
  return `${name} is TypeScript in a CommonJS package: rename it ${mts}, or add "type": "module" to ${nearest.path}`
}

/** The errors Node and tsx give for ES module syntax loaded as CommonJS. */
function isModuleFormatError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (typeof code === 'string' && /^ERR_REQUIRE_(ESM|ASYNC_MODULE|CYCLE_MODULE)$/.test(code)) return true
  return (
    typeof message === 'string' &&
    /require\(\) (of )?ES Module|Cannot use import statement outside a module|Unexpected token 'export'|exports is not defined in ES module scope|require\(esm\)/.test(
      message,
    )
  )
}

function nearestPackageJson(dir: string): { path: string; type: string | undefined } | undefined {
  for (let current = dir; ; current = dirname(current)) {
    const file = join(current, 'package.json')
    if (existsSync(file)) {
      try {
        const { type } = JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }
        return { path: file, type: typeof type === 'string' ? type : undefined }
      } catch {
        return { path: file, type: undefined }
      }
    }
    if (dirname(current) === current) return undefined
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.name === 'Error' ? error.message : `${error.name}: ${error.message}`
  return String(error)
}
