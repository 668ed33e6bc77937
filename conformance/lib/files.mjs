// Reading back what a run left on disk.
import { existsSync, readFileSync } from 'node:fs'

export function readText(file, fallback = '') {
  return existsSync(file) ? readFileSync(file, 'utf8') : fallback
}

/** The JSON values of a JSON Lines file, one per non-empty line; none when the file is missing. */
export function readJsonLines(file) {
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}
