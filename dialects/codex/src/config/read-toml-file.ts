import { readFileSync } from 'node:fs'
import { parse, TomlError } from 'smol-toml'
import { ioReason } from './read-hooks-json.js'
import type { TomlTable } from './toml-table.js'

/** Parses TOML the way the loader needs it: integers as bigint (so `1` and `1.0` differ), safe keys kept. */
export function parseToml(text: string): TomlTable {
  return parse(text, { integersAsBigInt: true }) as TomlTable
}

/**
 * Reads a config.toml / requirements.toml. Absent → undefined, silently. Unreadable or invalid → undefined
 * plus a warning; Codex itself refuses to start on an invalid config.toml, the harness loads the rest.
 */
export function readTomlFile(path: string, warnings: string[]): TomlTable | undefined {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined
    warnings.push(`failed to read config ${path}: ${ioReason(err)}`)
    return undefined
  }
  try {
    return parseToml(text)
  } catch (err) {
    if (!(err instanceof TomlError)) throw err
    const message = err.message.split('\n')[0]
    warnings.push(`failed to parse config ${path}:${err.line}:${err.column}: ${message}`)
    return undefined
  }
}
