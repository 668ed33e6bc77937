/**
 * An error worded as serde / serde_json word it, so Codex's `failed to parse hooks config <path>: <error>`
 * warning can be reproduced byte for byte. `line` 0 means "no position yet": serde_json attaches one
 * when the error leaves the innermost JSON value that was being read (`fix_position`).
 */
export class SerdeError extends Error {
  line = 0
  column = 0

  constructor(readonly reason: string) {
    super(reason)
  }

  /** Attaches serde_json's position: `<reason> at line L column C`. */
  at(line: number, column: number): this {
    this.line = line
    this.column = column
    this.message = `${this.reason} at line ${line} column ${column}`
    return this
  }
}

function oneOf(kind: 'field' | 'variant', names: readonly string[]): string {
  if (names.length === 0) return `there are no ${kind}s`
  const quoted = names.map((name) => `\`${name}\``)
  if (quoted.length === 1) return `expected ${quoted[0]}`
  if (quoted.length === 2) return `expected ${quoted[0]} or ${quoted[1]}`
  return `expected one of ${quoted.join(', ')}`
}

export const serde = {
  custom: (reason: string) => new SerdeError(reason),
  invalidType: (unexpected: string, expected: string) => new SerdeError(`invalid type: ${unexpected}, expected ${expected}`),
  invalidValue: (unexpected: string, expected: string) => new SerdeError(`invalid value: ${unexpected}, expected ${expected}`),
  missingField: (field: string) => new SerdeError(`missing field \`${field}\``),
  duplicateField: (field: string) => new SerdeError(`duplicate field \`${field}\``),
  unknownField: (field: string, expected: readonly string[]) => new SerdeError(`unknown field \`${field}\`, ${oneOf('field', expected)}`),
  unknownVariant: (variant: string, expected: readonly string[]) =>
    new SerdeError(`unknown variant \`${variant}\`, ${oneOf('variant', expected)}`),
}

/** Rust's `{}` of an f64 as serde_json prints it in `floating point \`…\`` (ryu's shortest form). */
export function formatRustFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf'
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0'
  const abs = Math.abs(value)
  if (abs >= 1e16 || abs < 1e-5) {
    const [mantissa, exponent] = value.toExponential().split('e') as [string, string]
    return `${mantissa}e${exponent.replace('+', '')}`
  }
  const plain = String(value)
  return plain.includes('.') ? plain : `${plain}.0`
}
