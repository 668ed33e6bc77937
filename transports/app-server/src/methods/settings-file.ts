import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { checkSettings, isPlainObject, type Settings, type SettingsProblem } from './settings-keys.js'

/** The harness's settings file: `config.json` in the harness home. */
export const SETTINGS_FILE_NAME = 'config.json'

/**
 * The harness home: `home` (the server's option), else `$HARNESS_HOME`, else `~/.harness` (where the harness also keeps
 * its trust store).
 */
export function harnessHome(home: string | undefined, env: Record<string, string | undefined> = process.env): string {
  return home || env.HARNESS_HOME || join(env.HOME || homedir(), '.harness')
}

export type MergeStrategy = 'replace' | 'upsert'

/** One change: the value at a dotted key path, replaced (or removed, with `null`) or merged into what is there. */
export interface SettingsEdit {
  keyPath: string
  value: unknown
  mergeStrategy: MergeStrategy
}

/** Why a read or write was refused; `code` is Codex's `config_write_error_code`. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError'
  readonly code: 'configValidationError' | 'configVersionConflict' | 'configLayerReadonly'

  constructor(code: SettingsError['code'], message: string) {
    super(message)
    this.code = code
  }
}

/** The file's contents with their version (`sha256:` of the settings as JSON; that of `{}` when there is no file). */
export interface SettingsSnapshot {
  settings: Settings
  version: string
}

/**
 * The settings file: read whole, changed by edits, written whole (a temporary file renamed over it, so a reader never
 * sees half a file). Every read and write is synchronous, so requests of one server never interleave inside one.
 */
export class SettingsFile {
  readonly path: string

  constructor(path: string) {
    this.path = path
  }

  read(): SettingsSnapshot {
    let text: string
    try {
      text = readFileSync(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return snapshot({})
      throw error
    }
    let settings: unknown
    try {
      settings = JSON.parse(text)
    } catch (error) {
      throw new SettingsError('configValidationError', `Invalid configuration in ${this.path}: ${(error as Error).message}`)
    }
    const problem = checkSettings(settings)
    if (problem) throw new SettingsError('configValidationError', `Invalid configuration in ${this.path}: ${inWords(problem)}`)
    return snapshot(settings as Settings)
  }

  /**
   * Applies `edits` in order and writes the result, or nothing when one is refused: an empty key path, a value the
   * harness does not take, a key it does not know, or `expectedVersion` that is not the file's version.
   */
  write(edits: readonly SettingsEdit[], expectedVersion?: string | null): SettingsSnapshot {
    const current = this.read()
    if (expectedVersion !== undefined && expectedVersion !== null && expectedVersion !== current.version) {
      throw new SettingsError('configVersionConflict', 'Configuration was modified since last read. Fetch latest version and retry.')
    }
    const next = structuredClone(current.settings)
    for (const edit of edits) apply(next, edit)
    const problem = checkSettings(next)
    if (problem) throw new SettingsError('configValidationError', `Invalid configuration: ${inWords(problem)}`)
    if (edits.length === 0) return current
    mkdirSync(dirname(this.path), { recursive: true })
    const temporary = `${this.path}.${process.pid}.tmp`
    writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`)
    renameSync(temporary, this.path)
    return snapshot(next)
  }
}

function snapshot(settings: Settings): SettingsSnapshot {
  return { settings, version: `sha256:${createHash('sha256').update(JSON.stringify(settings)).digest('hex')}` }
}

/** As Codex words a value it refuses: the problem, then the key on a line of its own. */
function inWords(problem: SettingsProblem): string {
  return `${problem.problem}\nin \`${problem.path}\`\n`
}

const UNSAFE_KEYS = new Set(['__proto__', 'prototype', 'constructor'])

function apply(settings: Settings, edit: SettingsEdit): void {
  if (edit.keyPath === '') throw new SettingsError('configValidationError', 'keyPath must not be empty')
  const keys = edit.keyPath.split('.')
  if (keys.some((key) => key === '')) {
    throw new SettingsError('configValidationError', `keyPath must not have an empty segment: ${edit.keyPath}`)
  }
  // Never walk into a prototype: such a key is unknown to the harness anyway.
  const unsafe = keys.find((key) => UNSAFE_KEYS.has(key))
  if (unsafe !== undefined)
    throw new SettingsError('configValidationError', `Invalid configuration: unknown field \`${unsafe}\`\nin \`${edit.keyPath}\`\n`)
  const last = keys.pop() as string
  let parent = settings
  for (const key of keys) {
    if (!isPlainObject(parent[key])) {
      if (edit.value === null) return // nothing there to remove
      parent[key] = {}
    }
    parent = parent[key] as Settings
  }
  if (edit.value === null) delete parent[last]
  else if (edit.mergeStrategy === 'upsert' && isPlainObject(parent[last]) && isPlainObject(edit.value)) merge(parent[last], edit.value)
  else parent[last] = structuredClone(edit.value)
}

/** Codex's `upsert`: maps merge key by key (recursively), anything else replaces; `null` removes. */
function merge(target: Settings, source: Settings): void {
  for (const [key, value] of Object.entries(source)) {
    if (UNSAFE_KEYS.has(key)) throw new SettingsError('configValidationError', `Invalid configuration: unknown field \`${key}\`\n`)
    if (value === null) delete target[key]
    else if (isPlainObject(target[key]) && isPlainObject(value)) merge(target[key], value)
    else target[key] = structuredClone(value)
  }
}
