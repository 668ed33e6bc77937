// Two Codex App Server schema bundles (`codex app-server generate-json-schema`) compared: the methods of each
// direction, and every definition added, removed or changed (with what changed, where that is short to say).
import { findDefinition, isGroup } from './event-lists.mjs'
import { diffLists } from './list-diff.mjs'

/** The message unions whose members are named by their `method`. */
export const METHOD_UNIONS = [
  ['client requests', 'ClientRequest'],
  ['client notifications', 'ClientNotification'],
  ['server notifications', 'ServerNotification'],
  ['server requests', 'ServerRequest'],
]

/** The `method`s of a union such as ClientRequest: each member's `properties.method.enum`. */
export function unionMethods(schema, name) {
  const union = findDefinition(schema, name)
  return (union?.oneOf ?? []).flatMap((member) => member.properties?.method?.enum ?? [])
}

/** Every definition by name, a group's members as `<group>/<name>` (`v2/ThreadStartParams`). */
export function flattenDefinitions(schema) {
  const out = new Map()
  for (const [name, value] of Object.entries(schema.definitions ?? {})) {
    if (isGroup(value)) for (const [inner, definition] of Object.entries(value)) out.set(`${name}/${inner}`, definition)
    else out.set(name, value)
  }
  return out
}

/** JSON with object keys sorted, so two definitions that differ only in key order compare equal. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`
  return JSON.stringify(value)
}

/** A union member's name: its title, its `method`, or a discriminating one-value property (`mode=show`). */
function variantName(member) {
  if (member.title) return member.title
  for (const [key, property] of Object.entries(member.properties ?? {}))
    if (property?.enum?.length === 1) return key === 'method' ? property.enum[0] : `${key}=${property.enum[0]}`
  return undefined
}

/** The members of a oneOf/anyOf: added and removed by name and, where they have none, compared by position. */
function variantPhrases(before, after) {
  const [was, is] = [before.oneOf ?? before.anyOf ?? [], after.oneOf ?? after.anyOf ?? []]
  if (was.length === 0 && is.length === 0) return []
  const named = [...was, ...is].every((member) => variantName(member) !== undefined)
  if (!named) {
    if (was.length !== is.length) return [`variants: ${was.length} → ${is.length}`]
    return was.flatMap((member, i) =>
      canonical(member) === canonical(is[i]) ? [] : [`variant ${i + 1}: ${describeChange(member, is[i])}`],
    )
  }
  const phrases = []
  const diff = diffLists(was.map(variantName), is.map(variantName))
  if (diff.added.length) phrases.push(`variants +${diff.added.join(', +')}`)
  if (diff.removed.length) phrases.push(`variants -${diff.removed.join(', -')}`)
  for (const member of was) {
    const other = is.find((candidate) => variantName(candidate) === variantName(member))
    if (other && canonical(other) !== canonical(member)) phrases.push(`variant ${variantName(member)}: ${describeChange(member, other)}`)
  }
  return phrases
}

/** What changed in one definition, as short phrases: properties, required members, enum values, union members. */
export function describeChange(before, after) {
  const parts = []
  const phrase = (what, diff) => {
    if (diff.added.length) parts.push(`${what} +${diff.added.join(', +')}`)
    if (diff.removed.length) parts.push(`${what} -${diff.removed.join(', -')}`)
  }
  phrase('properties', diffLists(Object.keys(before.properties ?? {}), Object.keys(after.properties ?? {})))
  phrase('required', diffLists(before.required ?? [], after.required ?? []))
  phrase('enum', diffLists((before.enum ?? []).map(String), (after.enum ?? []).map(String)))
  parts.push(...variantPhrases(before, after))
  const changedProperties = Object.keys(before.properties ?? {}).filter(
    (k) => after.properties?.[k] && canonical(before.properties[k]) !== canonical(after.properties[k]),
  )
  if (changedProperties.length) parts.push(`property types changed: ${changedProperties.join(', ')}`)
  return parts.length ? parts.join('; ') : 'changed (descriptions, formats or nested members)'
}

/**
 * @param {object} before  the older schema bundle
 * @param {object} after   the newer
 * @returns {{ methods: { label: string, added: string[], removed: string[] }[], definitions: { added: string[], removed: string[], changed: { name: string, change: string }[] } }}
 */
export function diffSchemas(before, after) {
  const methods = METHOD_UNIONS.map(([label, union]) => ({ label, ...diffLists(unionMethods(before, union), unionMethods(after, union)) }))
  const [was, is] = [flattenDefinitions(before), flattenDefinitions(after)]
  const { added, removed } = diffLists([...was.keys()], [...is.keys()])
  const changed = [...was.keys()]
    .filter((name) => is.has(name) && canonical(was.get(name)) !== canonical(is.get(name)))
    .map((name) => ({ name, change: describeChange(was.get(name), is.get(name)) }))
  return { methods, definitions: { added, removed, changed } }
}
