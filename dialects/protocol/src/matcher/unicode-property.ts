import { RustRegexReason } from './regex-syntax-error.js'
import type { UnicodeQuery } from './rust-regex-ast.js'
import {
  BINARY_PROPERTIES,
  ENUMERATED_PROPERTIES,
  GENERAL_CATEGORIES,
  OTHER_PROPERTIES,
  RUST_ONLY_BINARY_PROPERTIES,
  SCRIPTS,
} from './unicode-property-names.js'

/** The body of a JavaScript `\p{…}` escape, or why there is none. */
export type UnicodePropertyResolution = { ok: true; property: string } | { ok: false; reason: string }

/** Rust's loose matching (UAX44-LM3): ASCII lowercase, drop ` `, `_`, `-` and non-ASCII, ignore a leading `is`. */
export function normalizePropertyName(name: string): string {
  const startsWithIs = name.length >= 2 && name.slice(0, 2).toLowerCase() === 'is'
  let out = ''
  for (const c of startsWithIs ? name.slice(2) : name) {
    if (c === ' ' || c === '_' || c === '-') continue
    const cp = c.codePointAt(0)!
    if (cp > 0x7f) continue
    out += c.toLowerCase()
  }
  // `isc` is the `Other` category's alias, not `is` + `c`.
  return startsWithIs && out === 'c' ? 'isc' : out
}

function lookup(table: readonly (readonly string[])[]): Map<string, string> {
  const map = new Map<string, string>()
  for (const names of table) for (const name of names) map.set(normalizePropertyName(name), names[0]!)
  return map
}

interface PropertyTables {
  generalCategories: Map<string, string>
  scripts: Map<string, string>
  jsBinary: Map<string, string>
  rustOnlyBinary: Map<string, string>
  properties: Map<string, string>
}

let tables: PropertyTables | undefined

/** The lookups by loose name, built for the first `\p` a pattern holds, not when the module loads (few matchers have one). */
function propertyTables(): PropertyTables {
  if (tables !== undefined) return tables
  const generalCategories = lookup(GENERAL_CATEGORIES)
  generalCategories.set('any', 'Any')
  generalCategories.set('assigned', 'Assigned')
  generalCategories.set('ascii', 'ASCII')
  const jsBinary = lookup(BINARY_PROPERTIES)
  const rustOnlyBinary = lookup(RUST_ONLY_BINARY_PROPERTIES)
  const properties = new Map([...lookup(OTHER_PROPERTIES), ...lookup(ENUMERATED_PROPERTIES), ...rustOnlyBinary, ...jsBinary])
  tables = { generalCategories, scripts: lookup(SCRIPTS), jsBinary, rustOnlyBinary, properties }
  return tables
}

const supportCache = new Map<string, boolean>()

function supportedByRuntime(property: string): boolean {
  let supported = supportCache.get(property)
  if (supported === undefined) {
    try {
      new RegExp(`\\p{${property}}`, 'v')
      supported = true
    } catch {
      supported = false
    }
    supportCache.set(property, supported)
  }
  return supported
}

function unsupported(canonical: string): UnicodePropertyResolution {
  return { ok: false, reason: `Unicode property not supported by the JavaScript translation: ${canonical}` }
}

function resolved(property: string, canonical: string): UnicodePropertyResolution {
  return supportedByRuntime(property) ? { ok: true, property } : unsupported(canonical)
}

function generalCategory(canonical: string): UnicodePropertyResolution {
  const lone = canonical === 'Any' || canonical === 'Assigned' || canonical === 'ASCII'
  return resolved(lone ? canonical : `gc=${canonical}`, canonical)
}

function binary(canonical: string): UnicodePropertyResolution {
  const { jsBinary, rustOnlyBinary } = propertyTables()
  if (jsBinary.has(normalizePropertyName(canonical))) return resolved(canonical, canonical)
  if (rustOnlyBinary.has(normalizePropertyName(canonical))) return unsupported(canonical)
  return { ok: false, reason: RustRegexReason.unicodePropertyNotFound }
}

/** Resolves `\pX`, `\p{Name}` and `\p{name=value}` the way Rust does, onto JavaScript property syntax. */
export function resolveUnicodeProperty(query: UnicodeQuery): UnicodePropertyResolution {
  const { generalCategories, scripts, properties } = propertyTables()
  if (query.type !== 'named-value') {
    const norm = normalizePropertyName(query.type === 'one-letter' ? query.letter : query.name)
    // `cf`, `sc` and `lc` are property aliases too, but Rust reads them as general categories.
    if (norm !== 'cf' && norm !== 'sc' && norm !== 'lc') {
      const property = properties.get(norm)
      if (property !== undefined) return binary(property)
    }
    const category = generalCategories.get(norm)
    if (category !== undefined) return generalCategory(category)
    const script = scripts.get(norm)
    if (script !== undefined) return resolved(`sc=${script}`, script)
    return { ok: false, reason: RustRegexReason.unicodePropertyNotFound }
  }
  const property = properties.get(normalizePropertyName(query.name))
  if (property === undefined) return { ok: false, reason: RustRegexReason.unicodePropertyNotFound }
  const value = normalizePropertyName(query.value)
  const valueNotFound: UnicodePropertyResolution = { ok: false, reason: RustRegexReason.unicodePropertyValueNotFound }
  switch (property) {
    case 'General_Category': {
      const category = generalCategories.get(value)
      return category === undefined ? valueNotFound : generalCategory(category)
    }
    case 'Script':
    case 'Script_Extensions': {
      const script = scripts.get(value)
      if (script === undefined) return valueNotFound
      return resolved(`${property === 'Script' ? 'sc' : 'scx'}=${script}`, `${property}=${script}`)
    }
    case 'Age':
    case 'Grapheme_Cluster_Break':
    case 'Word_Break':
    case 'Sentence_Break':
      return unsupported(property)
    default:
      return valueNotFound
  }
}
