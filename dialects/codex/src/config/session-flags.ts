import { parseToml } from './read-toml-file.js'
import { isTable, type TomlTable } from './toml-table.js'

/** The path Codex gives hooks that come from `-c` flags, in keys, run ids and warnings. */
export const SESSION_FLAGS_CONFIG_PATH = '/<session-flags>/config.toml'

/**
 * Builds the session-flags layer from codex `-c key=value` overrides, as Codex does: the key is everything
 * before the first `=`, the value is parsed as a TOML value or else taken as a string with its quotes
 * trimmed, and later flags overwrite earlier ones.
 *
 * Unlike Codex, which splits the key on every `.`, a TOML-quoted segment (`hooks.state."/a/hooks.json:stop:0:0"`)
 * is kept whole; in Codex such a key lands on a mangled path and has no effect.
 */
export function sessionFlagsTable(flags: readonly string[]): TomlTable {
  const root: TomlTable = Object.create(null)
  for (const flag of flags) {
    const eq = flag.indexOf('=')
    if (eq < 0) throw new Error(`Invalid override (missing '='): ${flag}`)
    const key = flag.slice(0, eq).trim()
    if (key === '') throw new Error(`Empty key in override: ${flag}`)
    applyOverride(root, splitKeyPath(key), overrideValue(flag.slice(eq + 1)))
  }
  return root
}

function overrideValue(raw: string): unknown {
  try {
    const table = parseToml(`_x_ = ${raw}`)
    if ('_x_' in table) return table._x_
  } catch {}
  return raw.trim().replace(/^["']+|["']+$/g, '')
}

function applyOverride(root: TomlTable, path: string[], value: unknown): void {
  let current = root
  for (const part of path.slice(0, -1)) {
    let child = current[part]
    if (!isTable(child)) {
      child = Object.create(null) as TomlTable
      current[part] = child
    }
    current = child as TomlTable
  }
  current[path.at(-1)!] = value
}

export function splitKeyPath(key: string): string[] {
  const parts: string[] = []
  let i = 0
  while (i <= key.length) {
    const quote = key[i]
    if (quote === '"' || quote === "'") {
      const quoted = readQuoted(key, i)
      if (quoted && (quoted.end === key.length || key[quoted.end] === '.')) {
        parts.push(quoted.value)
        i = quoted.end + 1
        continue
      }
    }
    const dot = key.indexOf('.', i)
    const end = dot < 0 ? key.length : dot
    parts.push(key.slice(i, end))
    i = end + 1
  }
  return parts
}

function readQuoted(text: string, start: number): { value: string; end: number } | undefined {
  const quote = text[start]
  if (quote === "'") {
    const close = text.indexOf("'", start + 1)
    return close < 0 ? undefined : { value: text.slice(start + 1, close), end: close + 1 }
  }
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '"') {
      try {
        const value = parseToml(`k = ${text.slice(start, i + 1)}`).k
        return typeof value === 'string' ? { value, end: i + 1 } : undefined
      } catch {
        return undefined
      }
    }
  }
  return undefined
}
