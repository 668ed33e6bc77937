/**
 * Compact JSON with object keys sorted recursively by their UTF-8 bytes, as `serde_json` prints a `BTreeMap`-backed value
 * (Codex's hook hashes). Strings are escaped like `serde_json` (which is also `JSON.stringify`'s escaping); integers print
 * as integers, other numbers in `serde_json`'s shortest float form (`1.5`, `1e21`, `-0.0`). Like `JSON.stringify`,
 * `undefined`, functions and symbols are dropped from objects and become `null` in arrays, `toJSON` is honoured,
 * and non-finite numbers become `null`.
 */
export function canonicalJson(value: unknown): string {
  const out = serialize(value, new Set())
  if (out === undefined) throw new TypeError('canonicalJson: value is not representable as JSON')
  return out
}

function serialize(value: unknown, ancestors: Set<object>): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(): unknown }).toJSON()
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'number':
      return formatNumber(value)
    case 'bigint':
      return value.toString()
    case 'boolean':
      return value ? 'true' : 'false'
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined
  }
  if (value === null) return 'null'
  const object = value as object
  if (ancestors.has(object)) throw new TypeError('canonicalJson: circular structure')
  ancestors.add(object)
  try {
    if (Array.isArray(object)) return `[${object.map((item) => serialize(item, ancestors) ?? 'null').join(',')}]`
    if (object instanceof Number || object instanceof String || object instanceof Boolean) return serialize(object.valueOf(), ancestors)
    const entries: string[] = []
    for (const key of Object.keys(object).sort(compareUtf8)) {
      const item = serialize((object as Record<string, unknown>)[key], ancestors)
      if (item !== undefined) entries.push(`${JSON.stringify(key)}:${item}`)
    }
    return `{${entries.join(',')}}`
  } finally {
    ancestors.delete(object)
  }
}

/** UTF-8 byte order is code point order, which differs from UTF-16 code unit order above U+FFFF. */
export function compareUtf8(a: string, b: string): number {
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const ca = a.codePointAt(i)!
    const cb = b.codePointAt(j)!
    if (ca !== cb) return ca - cb
    i += ca > 0xffff ? 2 : 1
    j += cb > 0xffff ? 2 : 1
  }
  return a.length - i - (b.length - j)
}

const U64_LIMIT = 2 ** 64
const I64_LIMIT = -(2 ** 63)

function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return 'null'
  if (Object.is(n, -0)) return '-0.0'
  if (Number.isInteger(n) && n >= I64_LIMIT && n < U64_LIMIT) return BigInt(n).toString()
  return formatFloat(n)
}

/** `ryu`'s formatting, which `serde_json` uses for `f64`. */
function formatFloat(n: number): string {
  const sign = n < 0 ? '-' : ''
  const [mantissa, exponentText] = Math.abs(n).toExponential().split('e') as [string, string]
  const digits = mantissa.replace('.', '')
  const length = digits.length
  // The value is 0.DIGITS × 10^kk.
  const kk = Number(exponentText) + 1
  let body: string
  if (length <= kk && kk <= 16) body = `${digits}${'0'.repeat(kk - length)}.0`
  else if (kk > 0 && kk <= 16) body = `${digits.slice(0, kk)}.${digits.slice(kk)}`
  else if (kk > -5 && kk <= 0) body = `0.${'0'.repeat(-kk)}${digits}`
  else if (length === 1) body = `${digits}e${kk - 1}`
  else body = `${digits[0]}.${digits.slice(1)}e${kk - 1}`
  return sign + body
}
